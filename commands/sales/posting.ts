/**
 * postSalesInvoice: a Closed invoice's entry on a SALES_INVOICE journal (domain/sales/posting.ts), then
 * SalesInvoicePosted with its open items (one per instalment of its payment terms). docs/decisions.md
 * "Posting an invoice: the Ledger first, under an id derived from the invoice".
 */
import type { OrganisationState } from '../../domain/accounting/organisation.ts';
import type { CatalogState } from '../../domain/catalog/products.ts';
import { derivedId } from '../../domain/ids.ts';
import type { PartiesState } from '../../domain/parties/parties.ts';
import { CHART_DEFAULT_ACCOUNTS } from '../../domain/reference/chart-defaults.ts';
import { masterChartFor } from '../../domain/reference/charts.ts';
import { CURRENCIES } from '../../domain/reference/countries.ts';
import type { SalesDocument } from '../../domain/sales/events.ts';
import { openItemsOf } from '../../domain/sales/instalments.ts';
import { invoiceToPost } from '../../domain/sales/ledger-decisions.ts';
import { chartPostingAccounts, type PostingAccountChoices } from '../../domain/sales/posting-accounts.ts';
import { creditedOriginal, invoicePosting } from '../../domain/sales/posting.ts';
import type { SalesState } from '../../domain/sales/state.ts';
import { salesAccountRoleFor } from '../../domain/taxes/posting.ts';
import type { SourceEntry } from '../accounting/source-postings.ts';
import { CatalogAggregate } from '../catalog/aggregates.ts';
import { parse, type CommandHandler } from '../handler.ts';
import { PartiesAggregate } from '../parties/aggregates.ts';
import { entryAnswer, salesEntryCommand } from './ledger-command.ts';
import { PostSalesInvoiceInput } from './ledger-inputs.ts';

/**
 * Where the organisation's invoices post: the chart's customers account (the customer's code as third party); a
 * line's sales account its product's, else the role account of its treatment's kind (sales, intra-EU, export).
 */
export function postingChoices(org: OrganisationState, document: SalesDocument, parties: PartiesState, catalog?: CatalogState, sales?: SalesState): PostingAccountChoices {
  const roles = CHART_DEFAULT_ACCOUNTS[masterChartFor(org.country!).key] ?? {};
  const customer = document.header.customerId ? parties.parties.get(document.header.customerId) : undefined;
  return {
    customerAccountId: null,
    customerCode: customer?.code ?? null,
    productAccountIdOf: (line) => (line.productId && catalog?.products.get(line.productId)?.salesAccountingAccountId) || null,
    salesAccountCodeOf: (kind) => roles[salesAccountRoleFor(kind)],
    original: sales ? creditedOriginal(sales, document) : null,
  };
}

/** The document currency's decimals (its open items are in it). */
export const currencyPrecision = (org: OrganisationState, code: string): number => CURRENCIES.find((c) => c.code === code)?.precision ?? org.currencyPrecision;

/** The id of the entry that posts an invoice (or a credit note): derived from it, the same on every attempt. */
export const postingEntryId = (invoiceId: string): string => derivedId(invoiceId, 'entry', 'posting');

/**
 * The entry of an invoice: always under the same id (derived from the invoice's), dated and numbered as the
 * invoice; a credit note's names the invoice it credits, as the Sales state holds it.
 */
export function invoiceEntry(org: OrganisationState, document: SalesDocument, read: { parties: PartiesState; catalog: CatalogState; sales: SalesState }, input: { journalTypeId: string; accountingEntryDescription?: string | null }): SourceEntry {
  const { documentId: invoiceId, header } = document;
  return {
    entryId: postingEntryId(invoiceId), exerciseDate: header.documentDate, documentDate: header.documentDate, journalTypeId: input.journalTypeId,
    description: input.accountingEntryDescription ?? null, documentNumber: document.operationalNumber, sourceType: 'SALES', sourceEntityId: invoiceId,
    lines: invoicePosting(document, chartPostingAccounts(org, document, postingChoices(org, document, read.parties, read.catalog, read.sales))),
  };
}

export function postSalesInvoice(): CommandHandler {
  return async (services, ctx, raw) => {
    const input = parse(PostSalesInvoiceInput, raw);
    const [org, catalog, parties] = await Promise.all([
      services.organisation(ctx.organisationId),
      services.aggregates.load(CatalogAggregate, ctx.organisationId).then((l) => l.state),
      services.aggregates.load(PartiesAggregate, ctx.organisationId).then((l) => l.state),
    ]);
    const now = services.now();
    const r = await salesEntryCommand(services, ctx, (state) => {
      const { document } = invoiceToPost(state, org, input.salesInvoiceId, input.journalTypeId);
      const { documentId: invoiceId, header } = document;
      return {
        entry: invoiceEntry(org, document, { parties, catalog, sales: state }, input),
        event: (posted) => ({
          type: 'SalesInvoicePosted',
          data: {
            invoiceId, exerciseId: posted.exerciseId, entryId: posted.entryId, entryNumber: posted.number, journalTypeId: input.journalTypeId, at: now,
            openItems: openItemsOf({ invoiceId, documentDate: header.documentDate, totalLiquid: document.amounts.totals.totalLiquid, precision: currencyPrecision(org, header.currencyCode), paymentTermLines: header.paymentTermLines }),
          },
        }),
      };
    });
    const entry = entryAnswer(r.events);
    return { id: entry.accountingEntryId, fields: { ...entry, accountingEntries: [entry] }, position: r.position };
  };
}
