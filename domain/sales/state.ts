/**
 * The Sales aggregate's state: every document of the organisation as it stands, what later documents took
 * of each line (the pending quantities conversions read), who follows whom, the number series' last
 * sequences, and the posted invoices' open items with what settlements paid of them. evolveSales folds every
 * SalesEvent; the deciders (documents.ts, the invoice lifecycle) read only this.
 */
import { Decimal, ZERO } from '../money.ts';
import { assert, unknownEvent } from '../errors.ts';
import type { SalesDocumentKind, SalesDocumentStatus, SalesLineStatus } from './enums.ts';
import type { OpenItemDue, OpenItemPayment, SalesDocument, SalesEvent, TakenNumber } from './events.ts';

export interface KeptDocument {
  document: SalesDocument;
  status: SalesDocumentStatus;
  declinedReason: string | null;
  /** Per line id: the quantity later documents' lines took of it (decimal text). */
  taken: Map<string, string>;
  /** Documents converted from or linked to this one. */
  followers: Set<string>;
  /** Documents this one was converted from or linked to. */
  origins: Set<string>;
  /** Posted invoices: their instalments. */
  openItems: string[];
  /** Posted invoices: their entry (a credit note's entry names its invoice's AccountingEntryInvoice by it). */
  postedEntryId: string | null;
  /** Closed because later documents took all its lines (what giving them back undoes), never by hand. */
  closedByConversion: boolean;
}

export interface KeptOpenItem extends OpenItemDue {
  invoiceId: string;
  /** What settlements paid of it (decimal text). */
  paid: string;
}

export interface SalesState {
  documents: Map<string, KeptDocument>;
  /** Last sequence taken per series and year (`F/2026`). */
  lastSequence: Map<string, number>;
  openItems: Map<string, KeptOpenItem>;
  /** Settlements still standing: what each paid (undone by deleting its entry). */
  settlements: Map<string, OpenItemPayment[]>;
  /** The payment entry of each standing settlement (entry id -> settlement and the exercise whose ledger holds it). */
  settlementEntries: Map<string, { settlementId: string; exerciseId: string }>;
  /** The entry that posted each posted invoice or credit note (entry id -> document id): such an entry is never deleted. */
  postingEntries: Map<string, string>;
  /** Settlements ever recorded, undone ones included: the next one's matching letter is matchingLetterOf(count + 1). */
  settlementCount: number;
}

export const initialSalesState = (): SalesState => ({ documents: new Map(), lastSequence: new Map(), openItems: new Map(), settlements: new Map(), settlementEntries: new Map(), postingEntries: new Map(), settlementCount: 0 });

export const seriesKey = (series: string, year: number): string => `${series}/${year}`;

/** What remains of a line for later documents: its quantity less what they took (never below zero). */
export function pendingQuantity(kept: KeptDocument, lineId: string): Decimal {
  const line = kept.document.lines.find((l) => l.lineId === lineId);
  if (!line) return ZERO;
  const rest = new Decimal(line.totalQuantity).minus(kept.taken.get(lineId) ?? '0');
  return rest.isNeg() ? ZERO : rest;
}

/**
 * A line's status (Sage's Strings): Pending until something takes of it, Partial, then Completed; a
 * delivery note's line is Completed as soon as it is used (it keeps no pending quantity); Declined with its quote.
 */
export function lineStatus(kept: KeptDocument, lineId: string): SalesLineStatus {
  if (kept.status === 'Declined') return 'Declined';
  const taken = new Decimal(kept.taken.get(lineId) ?? '0');
  if (taken.lte(0)) return 'Pending';
  if (kept.document.kind === 'DELIVERY_NOTE') return 'Completed';
  return pendingQuantity(kept, lineId).isZero() ? 'Completed' : 'Partial';
}

/** Every line of the document is taken whole (what closes an origin after a conversion). */
export const allLinesTaken = (kept: KeptDocument): boolean => kept.document.lines.length > 0 && kept.document.lines.every((l) => lineStatus(kept, l.lineId) === 'Completed');

export function requireKept(state: SalesState, documentId: string, type: string): KeptDocument {
  const kept = state.documents.get(documentId);
  assert(kept, `${type} of sales document ${documentId}, which does not exist`);
  return kept;
}

/** Adds (sign 1) or gives back (sign -1) what a document's lines take of their origins, and links them. */
function take(state: SalesState, document: SalesDocument, sign: 1 | -1): void {
  for (const line of document.lines) {
    if (!line.origin) continue;
    const origin = state.documents.get(line.origin.originId);
    if (!origin) continue; // an origin deleted under a linked document is never allowed; kept lenient for replays
    const next = new Decimal(origin.taken.get(line.origin.originLineId) ?? '0').plus(new Decimal(line.totalQuantity).times(sign));
    origin.taken.set(line.origin.originLineId, next.toString());
  }
}

function linkOrigins(state: SalesState, kept: KeptDocument): void {
  for (const line of kept.document.lines) {
    if (!line.origin) continue;
    kept.origins.add(line.origin.originId);
    state.documents.get(line.origin.originId)?.followers.add(kept.document.documentId);
  }
}

function unlink(state: SalesState, kept: KeptDocument): void {
  for (const originId of kept.origins) state.documents.get(originId)?.followers.delete(kept.document.documentId);
  kept.origins.clear();
}

function recordNumber(state: SalesState, number: TakenNumber): void {
  const key = seriesKey(number.series, number.year);
  assert(number.sequence === (state.lastSequence.get(key) ?? 0) + 1, `number ${number.operationalNumber} out of the series ${key}`);
  state.lastSequence.set(key, number.sequence);
}

/**
 * Compared in absolute values, as the read model does: a credit note's items are negative, so one refunded in
 * part (-50.00 of -121.00) is PartiallyCollected, not Collected.
 */
function collectionStatus(state: SalesState, invoice: KeptDocument): SalesDocumentStatus {
  const items = invoice.openItems.map((id) => state.openItems.get(id)!);
  if (items.every((i) => new Decimal(i.paid).isZero())) return 'Posted';
  return items.every((i) => new Decimal(i.paid).abs().gte(new Decimal(i.amount).abs())) ? 'Collected' : 'PartiallyCollected';
}

function pay(state: SalesState, payments: OpenItemPayment[], sign: 1 | -1, type: string): void {
  const invoices = new Set<string>();
  for (const p of payments) {
    const item = state.openItems.get(p.openItemId);
    assert(item, `${type} pays open item ${p.openItemId}, which does not exist`);
    item.paid = new Decimal(item.paid).plus(new Decimal(p.paidAmount).times(sign)).toString();
    invoices.add(item.invoiceId);
  }
  for (const id of invoices) {
    const invoice = requireKept(state, id, type);
    invoice.status = collectionStatus(state, invoice);
  }
}

export function evolveSales(state: SalesState, event: SalesEvent): SalesState {
  const type = event.type;
  switch (event.type) {
    case 'SalesDocumentCreated': {
      const { document, number } = event.data;
      assert(!state.documents.has(document.documentId), `${type} of sales document ${document.documentId}, which exists already`);
      if (number) recordNumber(state, number);
      const kept: KeptDocument = { document, status: 'Pending', declinedReason: null, taken: new Map(), followers: new Set(), origins: new Set(), openItems: [], postedEntryId: null, closedByConversion: false };
      state.documents.set(document.documentId, kept);
      take(state, document, 1);
      linkOrigins(state, kept);
      return state;
    }
    case 'SalesDocumentUpdated': {
      const { document } = event.data;
      const kept = requireKept(state, document.documentId, type);
      take(state, kept.document, -1);
      // Links made by linkRelatedSalesDocument stay; those of lines are recomputed from the lines now.
      const linked = [...kept.origins].filter((id) => !kept.document.lines.some((l) => l.origin?.originId === id));
      unlink(state, kept);
      kept.document = document;
      take(state, document, 1);
      linkOrigins(state, kept);
      for (const id of linked) {
        kept.origins.add(id);
        state.documents.get(id)?.followers.add(document.documentId);
      }
      return state;
    }
    case 'SalesDocumentDeleted': {
      const kept = requireKept(state, event.data.documentId, type);
      assert(kept.followers.size === 0, `${type} of sales document ${event.data.documentId}, which has documents after it`);
      take(state, kept.document, -1);
      unlink(state, kept);
      state.documents.delete(event.data.documentId);
      return state;
    }
    case 'SalesDocumentStatusChanged': {
      const kept = requireKept(state, event.data.documentId, type);
      const { status, reason } = event.data;
      // Events before the reason was recorded: a close that finds every line taken followed from the lines.
      kept.closedByConversion = status === 'Closed' && (reason ? reason === 'linesTaken' : allLinesTaken(kept));
      kept.status = status;
      kept.declinedReason = event.data.declinedReason;
      return state;
    }
    case 'SalesDocumentLinked': {
      const kept = requireKept(state, event.data.documentId, type);
      const origin = requireKept(state, event.data.originId, type);
      kept.origins.add(origin.document.documentId);
      origin.followers.add(kept.document.documentId);
      return state;
    }
    case 'SalesInvoiceClosed': {
      const kept = requireKept(state, event.data.invoiceId, type);
      recordNumber(state, event.data.number);
      kept.status = 'Closed';
      kept.closedByConversion = false;
      kept.document = { ...kept.document, operationalNumber: event.data.number.operationalNumber };
      return state;
    }
    case 'SalesInvoicePosted': {
      const kept = requireKept(state, event.data.invoiceId, type);
      kept.status = 'Posted';
      kept.postedEntryId = event.data.entryId;
      kept.openItems = event.data.openItems.map((i) => i.openItemId);
      state.postingEntries.set(event.data.entryId, kept.document.documentId);
      for (const item of event.data.openItems) state.openItems.set(item.openItemId, { ...item, invoiceId: kept.document.documentId, paid: '0' });
      return state;
    }
    case 'SalesOpenItemsSettled': {
      assert(!state.settlements.has(event.data.settlementId), `${type} ${event.data.settlementId} twice`);
      state.settlements.set(event.data.settlementId, event.data.payments);
      state.settlementCount += 1;
      state.settlementEntries.set(event.data.entryId, { settlementId: event.data.settlementId, exerciseId: event.data.exerciseId });
      pay(state, event.data.payments, 1, type);
      return state;
    }
    case 'SalesSettlementUndone': {
      const payments = state.settlements.get(event.data.settlementId);
      assert(payments, `${type} of settlement ${event.data.settlementId}, which does not stand`);
      state.settlements.delete(event.data.settlementId);
      state.settlementEntries.delete(event.data.entryId);
      pay(state, payments, -1, type);
      return state;
    }
    default:
      return unknownEvent('Sales', event);
  }
}

/** The kinds as the spec's RelatedSalesDocumentType spells them. */
export const RELATED_TYPE: Record<SalesDocumentKind, 'QUOTE' | 'ORDER' | 'DELIVERY_NOTE' | 'INVOICE'> = { QUOTE: 'QUOTE', ORDER: 'ORDER', DELIVERY_NOTE: 'DELIVERY_NOTE', INVOICE: 'INVOICE' };
