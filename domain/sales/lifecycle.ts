/**
 * closeSalesInvoice's decider (pure): a Pending invoice with lines is locked and takes the next number of its
 * series (F for invoices, CN for credit notes) in the year of its documentDate. The number is decided on the
 * organisation's one Sales stream, so two closes racing append one after the other: gap-free, no duplicate,
 * and in date order.
 */
import { fail } from '../errors.ts';
import { SalesErrors } from './errors.ts';
import type { SalesEvent } from './events.ts';
import { SERIES, takeNumber } from './numbering.ts';
import type { KeptDocument, SalesState } from './state.ts';

/** The invoice (or credit note) named, or the coded not-found error: another kind's id is not an invoice. */
export function requireInvoice(state: SalesState, id: string): KeptDocument {
  const kept = state.documents.get(id);
  if (!kept || kept.document.kind !== 'INVOICE') return fail(SalesErrors.documentNotFound, { id });
  return kept;
}

/** The series an invoice is numbered in when closed. */
export const invoiceSeries = (kept: KeptDocument): string => (kept.document.invoiceType === 'CREDIT_NOTE' ? SERIES.CREDIT_NOTE : SERIES.INVOICE);

/**
 * Numbers follow dates: an invoice is never closed dated before the last one closed in its series and year (ES RD
 * 1619/2012 art. 6.1.a, correlative numbering; FR CGI ann. II art. 242 nonies A, chronological and continuous).
 * The last closed is the one with the highest number: the numbers are fixed width, so text order is number order.
 */
function inDateOrder(state: SalesState, kept: KeptDocument, series: string, year: number): void {
  let last: KeptDocument | undefined;
  for (const other of state.documents.values()) {
    const number = other.document.operationalNumber;
    if (other.document.kind !== 'INVOICE' || !number || invoiceSeries(other) !== series || Number(other.document.header.documentDate.slice(0, 4)) !== year) continue;
    if (!last || number > last.document.operationalNumber!) last = other;
  }
  const documentDate = kept.document.header.documentDate;
  const lastDate = last?.document.header.documentDate;
  if (last && lastDate && documentDate < lastDate) fail(SalesErrors.invoiceDateBeforeLastClosed, { id: kept.document.documentId, documentDate, lastDate, lastNumber: last.document.operationalNumber! });
}

export function decideCloseSalesInvoice(state: SalesState, invoiceId: string, at: string): SalesEvent[] {
  const kept = requireInvoice(state, invoiceId);
  // Closing twice never takes a second number: only a Pending invoice is closed.
  if (kept.status !== 'Pending') fail(SalesErrors.invoiceNotPending, { id: invoiceId, status: kept.status });
  if (kept.document.lines.length === 0) fail(SalesErrors.invoiceWithoutLines, { id: invoiceId });
  const series = invoiceSeries(kept);
  const year = Number(kept.document.header.documentDate.slice(0, 4));
  inDateOrder(state, kept, series, year);
  const number = takeNumber(state, series, year);
  return [{ type: 'SalesInvoiceClosed', data: { invoiceId, number, at } }];
}
