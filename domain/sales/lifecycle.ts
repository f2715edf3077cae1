/**
 * closeSalesInvoice's decider (pure): a Pending invoice with lines is locked and takes the next number of its
 * series (F for invoices, CN for credit notes) in the year of its documentDate. The number is decided on the
 * organisation's one Sales stream, so two closes racing append one after the other: gap-free, no duplicate.
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

export function decideCloseSalesInvoice(state: SalesState, invoiceId: string, at: string): SalesEvent[] {
  const kept = requireInvoice(state, invoiceId);
  // Closing twice never takes a second number: only a Pending invoice is closed.
  if (kept.status !== 'Pending') fail(SalesErrors.invoiceNotPending, { id: invoiceId, status: kept.status });
  if (kept.document.lines.length === 0) fail(SalesErrors.invoiceWithoutLines, { id: invoiceId });
  const number = takeNumber(state, invoiceSeries(kept), Number(kept.document.header.documentDate.slice(0, 4)));
  return [{ type: 'SalesInvoiceClosed', data: { invoiceId, number, at } }];
}
