/**
 * salesOpenItemSettlement: what a customer paid of the open items of its posted invoices, partial or full, several
 * at once. The payment entry (domain/sales/posting.ts paymentPosting) debits the payment method's bank or cash
 * account and credits each receivable with the settlement's matching letter; then SalesOpenItemsSettled, which
 * makes the invoices PartiallyCollected or Collected. Decided in the Sales stream, so two settlements never both
 * take what is open of one item, nor one letter.
 */
import { Decimal } from '../../domain/money.ts';
import { Errors, Reasons, fail } from '../../domain/errors.ts';
import { derivedId } from '../../domain/ids.ts';
import { SalesErrors } from '../../domain/sales/errors.ts';
import { itemsToSettle } from '../../domain/sales/ledger-decisions.ts';
import { matchingLetterOf } from '../../domain/sales/matching.ts';
import { chartPostingAccounts } from '../../domain/sales/posting-accounts.ts';
import { paymentPosting } from '../../domain/sales/posting.ts';
import type { OpenItemPayment } from '../../domain/sales/events.ts';
import type { KeptOpenItem, SalesState } from '../../domain/sales/state.ts';
import { roundAmount } from '../../domain/taxes/rounding.ts';
import { newId, parse, type CommandHandler } from '../handler.ts';
import { PartiesAggregate } from '../parties/aggregates.ts';
import { SettingsAggregate } from '../settings/aggregates.ts';
import { entryAnswer, salesEntryCommand } from './ledger-command.ts';
import { SalesOpenItemSettlementInput } from './ledger-inputs.ts';
import { currencyPrecision, postingChoices } from './posting.ts';

/** An amount paid at its currency's decimals; more decimals than the currency has are refused, never rounded. */
function inCurrency(amount: Decimal, precision: number): string {
  if (amount.decimalPlaces() > precision) fail(Errors.invalidInput, { field: 'salesOpenItemLinkagePaidAmounts.paidAmount', reason: Reasons.maxDecimals, decimals: precision });
  return amount.toFixed(precision);
}

/**
 * Into the organisation's currency (the entry's) at the invoice's own rate. Payments are never converted at the
 * day's rate: exchange differences (PGC 668/768, PCG 666/766) are not built, so 430 is settled at the rate it was
 * posted at.
 */
const toOrganisationCurrency = (amount: Decimal.Value, rate: string, precision: number): Decimal => roundAmount(new Decimal(amount).times(rate), precision);

/** What a payment's entry credited in the organisation's currency (settlements before it was recorded: converted). */
const creditedOf = (p: OpenItemPayment, rate: string, precision: number): Decimal =>
  p.organisationAmount !== undefined ? new Decimal(p.organisationAmount) : toOrganisationCurrency(p.paidAmount, rate, precision);

/**
 * What is left of an item's receivable in the organisation's currency: its amount converted, less what the
 * standing settlements credited of it (a settlement that paid it whole leaves it closed).
 */
function receivableLeft(state: SalesState, item: KeptOpenItem, rate: string, precision: number): Decimal {
  const payments = [...state.settlements.values()].flat().filter((p) => p.openItemId === item.openItemId);
  return payments.reduce((left, p) => left.minus(creditedOf(p, rate, precision)), toOrganisationCurrency(item.amount, rate, precision));
}

export function salesOpenItemSettlement(): CommandHandler {
  return async (services, ctx, raw) => {
    const input = parse(SalesOpenItemSettlementInput, raw);
    const [org, parties, settings] = await Promise.all([
      services.organisation(ctx.organisationId),
      services.aggregates.load(PartiesAggregate, ctx.organisationId).then((l) => l.state),
      services.aggregates.load(SettingsAggregate, ctx.organisationId).then((l) => l.state),
    ]);
    const method = settings.paymentMethods.get(input.paymentMethodId) ?? fail(SalesErrors.paymentMethodNotFound, { id: input.paymentMethodId });
    const settlementId = newId(ctx, 'sales-settlement');
    const now = services.now();
    const r = await salesEntryCommand(services, ctx, (state) => {
      const items = itemsToSettle(state, input.thirdPartyId, input.salesOpenItemLinkagePaidAmounts);
      const matchingLetter = matchingLetterOf(state.settlementCount + 1);
      const precision = org.currencyPrecision;
      const credits = items.map(({ item, invoice: { document }, paidAmount, open }) => {
        const receivable = receivableLeft(state, item, document.header.exchangeRate, precision);
        // Paying what is open credits what is left of the receivable, so 430 ends at zero; a part is converted at the invoice's rate.
        const credited = paidAmount.eq(open) ? receivable : toOrganisationCurrency(paidAmount, document.header.exchangeRate, precision);
        return { receivable: receivable.toFixed(precision), credited: credited.toFixed(precision) };
      });
      const lines = paymentPosting({
        settlementId, bankAccountId: method.subAccountId, matchingLetter, precision,
        invoices: items.map(({ invoice: { document } }, n) => {
          const { receivableAccountId, customerCode } = chartPostingAccounts(org, document, postingChoices(org, document, parties));
          return { receivableAccountId, customerCode, invoiceNumber: document.operationalNumber, paidAmount: credits[n].credited, openAmount: credits[n].receivable };
        }),
      });
      return {
        entry: {
          entryId: derivedId(settlementId, 'entry', 'settlement'), exerciseDate: input.entryDate, journalTypeId: method.journalTypeId,
          description: input.description ?? null, documentNumber: input.documentNumber ?? null, lines, sourceType: 'SALES', sourceEntityId: settlementId,
        },
        event: (posted) => ({
          type: 'SalesOpenItemsSettled',
          data: {
            settlementId, exerciseId: posted.exerciseId, entryId: posted.entryId, entryNumber: posted.number, paymentMethodId: input.paymentMethodId,
            entryDate: input.entryDate, matchingLetter, at: now,
            payments: items.map(({ item, invoice, paidAmount }, n): OpenItemPayment => ({
              openItemId: item.openItemId, invoiceId: item.invoiceId, paidAmount: inCurrency(paidAmount, currencyPrecision(org, invoice.document.header.currencyCode)),
              organisationAmount: credits[n].credited,
            })),
          },
        }),
      };
    });
    const entry = entryAnswer(r.events);
    return { id: entry.accountingEntryId, fields: entry, position: r.position };
  };
}
