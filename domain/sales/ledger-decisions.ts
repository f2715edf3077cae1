/**
 * What may go to the ledger from the Sales state (pure): an invoice posted once, only once Closed, to a
 * SALES_INVOICE journal; a settlement paying open items of one customer's posted invoices, each at most what is
 * still open of it. The commands (commands/sales/posting.ts, settlement.ts) post the entry these allow, then
 * append the Sales event naming it.
 */
import type { OrganisationState } from '../accounting/organisation.ts';
import { AccountingErrors } from '../accounting/errors.ts';
import { fail } from '../errors.ts';
import { Decimal } from '../money.ts';
import { SalesErrors } from './errors.ts';
import type { KeptDocument, KeptOpenItem, SalesState } from './state.ts';

/** The invoice to post: Closed (numbered), not yet posted; the journal a SALES_INVOICE one. */
export function invoiceToPost(state: SalesState, org: OrganisationState, invoiceId: string, journalTypeId: string): KeptDocument {
  const kept = state.documents.get(invoiceId);
  if (!kept || kept.document.kind !== 'INVOICE') fail(SalesErrors.documentNotFound, { id: invoiceId });
  if (kept.status === 'Pending') fail(SalesErrors.invoiceNotClosed, { id: invoiceId });
  if (kept.status !== 'Closed') fail(SalesErrors.invoiceAlreadyPosted, { id: invoiceId, status: kept.status });
  const journal = org.journalTypes.get(journalTypeId) ?? fail(AccountingErrors.journalTypeNotFound, { id: journalTypeId, code: '' });
  if (journal.type !== 'SALES_INVOICE') fail(SalesErrors.journalNotForSalesInvoices, { code: journal.code, type: journal.type });
  return kept;
}

export interface SettledItem {
  item: KeptOpenItem;
  invoice: KeptDocument;
  paidAmount: Decimal;
  /** What was open of it before this settlement. */
  open: Decimal;
}

/**
 * The items a settlement pays: each exists, is sent once, belongs to a posted invoice of the customer, and is paid
 * more than zero and at most what is open of it (a credit note's negative items: refunded at most their amount).
 */
export function itemsToSettle(state: SalesState, customerId: string, paid: readonly { openItemId: string; paidAmount: string }[]): SettledItem[] {
  const seen = new Set<string>();
  return paid.map((p) => {
    const item = state.openItems.get(p.openItemId) ?? fail(SalesErrors.openItemNotFound, { id: p.openItemId });
    if (seen.has(p.openItemId)) fail(SalesErrors.openItemTwice, { id: p.openItemId });
    seen.add(p.openItemId);
    const invoice = state.documents.get(item.invoiceId) ?? fail(SalesErrors.openItemNotFound, { id: p.openItemId });
    if (invoice.document.header.customerId !== customerId) fail(SalesErrors.openItemOtherCustomer, { id: p.openItemId, thirdPartyId: customerId });
    const open = new Decimal(item.amount).minus(item.paid);
    const paidAmount = new Decimal(p.paidAmount);
    const sign = open.isNegative() ? -1 : 1;
    if (paidAmount.times(sign).lte(0)) fail(SalesErrors.paidAmountNotPositive, { id: p.openItemId, paidAmount: p.paidAmount });
    if (paidAmount.times(sign).gt(open.times(sign))) fail(SalesErrors.beyondOpenAmount, { id: p.openItemId, paidAmount: p.paidAmount, open: open.toString() });
    return { item, invoice, paidAmount, open };
  });
}
