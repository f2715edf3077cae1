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
import { SalesPostingErrors } from '../../domain/sales/errors.ts';
import { itemsToSettle } from '../../domain/sales/ledger-decisions.ts';
import { matchingLetterOf } from '../../domain/sales/matching.ts';
import { chartPostingAccounts } from '../../domain/sales/posting-accounts.ts';
import { paymentPosting } from '../../domain/sales/posting.ts';
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

export function salesOpenItemSettlement(): CommandHandler {
  return async (services, ctx, raw) => {
    const input = parse(SalesOpenItemSettlementInput, raw);
    const [org, parties, settings] = await Promise.all([
      services.organisation(ctx.organisationId),
      services.aggregates.load(PartiesAggregate, ctx.organisationId).then((l) => l.state),
      services.aggregates.load(SettingsAggregate, ctx.organisationId).then((l) => l.state),
    ]);
    const method = settings.paymentMethods.get(input.paymentMethodId) ?? fail(SalesPostingErrors.paymentMethodNotFound, { id: input.paymentMethodId });
    const settlementId = newId(ctx, 'sales-settlement');
    const now = services.now();
    const r = await salesEntryCommand(services, ctx, (state) => {
      const items = itemsToSettle(state, input.thirdPartyId, input.salesOpenItemLinkagePaidAmounts);
      const matchingLetter = matchingLetterOf(state.settlementCount + 1);
      const precision = org.currencyPrecision;
      // Into the organisation's currency at the invoice's rate (the entry is in it).
      const converted = (amount: Decimal, rate: string) => roundAmount(amount.times(rate), precision).toFixed(precision);
      const lines = paymentPosting({
        settlementId, bankAccountId: method.subAccountId, matchingLetter, precision,
        invoices: items.map(({ invoice: { document }, paidAmount, open }) => {
          const { receivableAccountId, customerCode } = chartPostingAccounts(org, document, postingChoices(org, document, parties));
          const rate = document.header.exchangeRate;
          return { receivableAccountId, customerCode, invoiceNumber: document.operationalNumber, paidAmount: converted(paidAmount, rate), openAmount: converted(open, rate) };
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
            payments: items.map(({ item, invoice, paidAmount }) => ({ openItemId: item.openItemId, invoiceId: item.invoiceId, paidAmount: inCurrency(paidAmount, currencyPrecision(org, invoice.document.header.currencyCode)) })),
          },
        }),
      };
    });
    const entry = entryAnswer(r.events);
    return { id: entry.accountingEntryId, fields: entry, position: r.position };
  };
}
