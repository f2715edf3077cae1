/**
 * generateCreditNote's decider (pure), and the rule every credit note keeps: per line of the invoice it
 * credits, what its credit notes credit (Pending ones included, so two racing for the last units cannot
 * both take them: the second is decided after the first on the one Sales stream) never exceeds what was
 * invoiced. A credit note is an invoice of type CREDIT_NOTE: negative quantities, each line naming the line
 * it credits with that line's price, discount and tax treatment, its amounts from the same calculation. It
 * has no number until it is closed (series CN).
 */
import { Decimal, ZERO } from '../money.ts';
import { Errors, fail, Reasons } from '../errors.ts';
import type { IsoDate } from '../calendar.ts';
import type { CreditNoteReason } from '../accounting/enums.ts';
import { CURRENCIES } from '../reference/countries.ts';
import type { CreditNoteType } from './enums.ts';
import { SalesErrors } from './errors.ts';
import type { SalesDocument, SalesEvent, SalesLine } from './events.ts';
import type { LineSpec } from './lines.ts';
import { priced } from './amounts.ts';
import type { SalesFacts } from './documents.ts';
import { requireInvoice } from './lifecycle.ts';
import type { KeptDocument, SalesState } from './state.ts';

/** Statuses an invoice may be credited from: closed, and anything after (posted, collected). */
const CREDITABLE = ['Closed', 'Posted', 'PartiallyCollected', 'Collected'] as const;

export interface CreditLineRequest {
  productId: string;
  /** Positive decimal text: how many units of the product to credit. */
  quantity: string;
  /** The credited price, else the invoice line's. */
  unitPrice: string | null;
}

export interface CreditNoteDraft {
  sourceInvoiceId: string;
  /** Null: the whole invoice (what remains of every line). */
  lines: CreditLineRequest[] | null;
  creditNoteReason: CreditNoteReason | null;
  creditNoteType: CreditNoteType | null;
  documentDate: IsoDate;
}

export interface GenerateCreditNote {
  creditNoteId: string;
  draft: CreditNoteDraft;
  newLineId(i: number): string;
  now: string;
}

/** Per line of the invoice: what its credit notes credit (positive), leaving out `excluding` (a credit note being rewritten). */
export function creditedQuantities(state: SalesState, sourceInvoiceId: string, excluding: string | null = null): Map<string, Decimal> {
  const credited = new Map<string, Decimal>();
  for (const kept of state.documents.values()) {
    const d = kept.document;
    if (d.invoiceType !== 'CREDIT_NOTE' || d.sourceInvoiceId !== sourceInvoiceId || d.documentId === excluding) continue;
    for (const l of d.lines) {
      if (l.creditedLineId) credited.set(l.creditedLineId, (credited.get(l.creditedLineId) ?? ZERO).plus(new Decimal(l.totalQuantity).abs()));
    }
  }
  return credited;
}

/** What of an invoice line may still be credited: its quantity less what is credited (a negative line, an advance deduction, none). */
export function creditableQuantity(line: SalesLine, credited: Map<string, Decimal>): Decimal {
  const rest = new Decimal(line.totalQuantity).minus(credited.get(line.lineId) ?? ZERO);
  return rest.isNeg() ? ZERO : rest;
}

function requireCreditable(state: SalesState, id: string): KeptDocument {
  const source = requireInvoice(state, id);
  if (source.document.invoiceType !== 'NORMAL') fail(SalesErrors.invoiceTypeNotCreditable, { id, type: source.document.invoiceType ?? 'NONE' });
  if (!(CREDITABLE as readonly string[]).includes(source.status)) fail(SalesErrors.invoiceNotCreditable, { id, status: source.status });
  return source;
}

/** The credit note's lines: [invoice line, quantity credited, price] for the whole rest, or per product in the invoice's line order. */
function creditedLines(source: KeptDocument, credited: Map<string, Decimal>, requests: CreditLineRequest[] | null): [SalesLine, Decimal, string][] {
  const lines = source.document.lines;
  const id = source.document.documentId;
  if (requests === null) {
    const whole = lines.map((l): [SalesLine, Decimal, string] => [l, creditableQuantity(l, credited), l.unitPrice]).filter(([, q]) => q.gt(0));
    if (whole.length === 0) fail(SalesErrors.nothingToCredit, { id });
    return whole;
  }
  if (requests.length === 0) fail(SalesErrors.invalidLine, { line: 1, field: 'lines', reason: Reasons.tooFewItems });
  // What each line has left, lowered as the requests take of it (a product asked for twice takes twice).
  const left = new Map(lines.map((l) => [l.lineId, creditableQuantity(l, credited)]));
  const out: [SalesLine, Decimal, string][] = [];
  requests.forEach((r, i) => {
    const quantity = new Decimal(r.quantity);
    if (quantity.lte(0)) fail(SalesErrors.invalidLine, { line: i + 1, field: 'quantity', reason: Reasons.tooSmall });
    if (r.unitPrice !== null && new Decimal(r.unitPrice).isNeg()) fail(SalesErrors.invalidLine, { line: i + 1, field: 'unitPrice', reason: Reasons.tooSmall });
    const ofProduct = lines.filter((l) => l.productId === r.productId);
    if (ofProduct.length === 0) fail(SalesErrors.productNotOnInvoice, { productId: r.productId, id });
    const available = ofProduct.reduce((sum, l) => sum.plus(left.get(l.lineId)!), ZERO);
    if (quantity.gt(available)) fail(SalesErrors.creditExceedsInvoiced, { requested: quantity.toString(), productId: r.productId, available: available.toString(), id });
    let rest = quantity;
    for (const l of ofProduct) {
      const take = Decimal.min(rest, left.get(l.lineId)!);
      if (take.lte(0)) continue;
      out.push([l, take, r.unitPrice ?? l.unitPrice]);
      left.set(l.lineId, left.get(l.lineId)!.minus(take));
      rest = rest.minus(take);
      if (rest.isZero()) break;
    }
  });
  return out;
}

/**
 * The spec of a credit note line crediting `line`: its product, price, discount and the very treatment it was taxed
 * with (kept, not chosen again from today's product or customer), the quantity negative.
 */
const creditSpec = (line: SalesLine, quantity: Decimal, unitPrice: string, lineId: string): LineSpec => ({
  lineId, productId: line.productId, productCode: line.productCode, productName: line.productName,
  totalQuantity: quantity.neg().toString(), unitPrice, unitPriceFromProduct: false, firstDiscount: line.firstDiscount, isService: line.isService,
  taxTreatmentId: line.taxTreatmentId, taxGroupId: line.taxGroupId, keptTreatmentCode: line.taxTreatmentCode, origin: null, creditedLineId: line.lineId,
});

export function decideGenerateCreditNote(command: GenerateCreditNote, state: SalesState, facts: Pick<SalesFacts, 'organisation' | 'parties'>): SalesEvent[] {
  const { draft } = command;
  if (!facts.organisation.id || !facts.organisation.country) fail(Errors.organisationNotFound);
  if (state.documents.has(command.creditNoteId)) fail(Errors.documentIdAlreadyExists, { id: command.creditNoteId });
  const source = requireCreditable(state, draft.sourceInvoiceId);
  const credited = creditedQuantities(state, draft.sourceInvoiceId);
  const specs = creditedLines(source, credited, draft.lines).map(([l, q, price], i) => creditSpec(l, q, price, command.newLineId(i)));
  const header = { ...source.document.header, documentDate: draft.documentDate };
  const organisation = facts.organisation;
  const customer = header.customerId ? facts.parties.parties.get(header.customerId) : undefined;
  const precision = CURRENCIES.find((c) => c.code === header.currencyCode)?.precision ?? organisation.currencyPrecision;
  const { lines, amounts } = priced(specs, header, { organisationId: organisation.id!, country: organisation.country!, customerCountry: customer?.country ?? null, customerHasVatNumber: customer?.terms?.hasVatNumber ?? false, precision });
  const document: SalesDocument = {
    documentId: command.creditNoteId, kind: 'INVOICE', invoiceType: 'CREDIT_NOTE', operationalNumber: null, header, lines, amounts,
    sourceInvoiceId: draft.sourceInvoiceId, creditNoteReason: draft.creditNoteReason ?? 'UNDEFINED', creditNoteType: draft.creditNoteType ?? 'UNDEFINED',
  };
  return [{ type: 'SalesDocumentCreated', data: { document, number: null, at: command.now } }];
}

/**
 * A credit note rewritten by updateSalesInvoice keeps the rule: every line credits a line of its invoice,
 * negatively, and per line no more than what the invoice's other credit notes leave.
 */
export function checkCreditNote(state: SalesState, document: SalesDocument): void {
  if (document.invoiceType !== 'CREDIT_NOTE' || !document.sourceInvoiceId) return;
  const source = requireInvoice(state, document.sourceInvoiceId);
  const credited = creditedQuantities(state, document.sourceInvoiceId, document.documentId);
  const asked = new Map<string, Decimal>();
  document.lines.forEach((l, i) => {
    const line = source.document.lines.find((s) => s.lineId === l.creditedLineId);
    if (!line) return fail(SalesErrors.invalidLine, { line: i + 1, field: 'creditedLineId', reason: Reasons.required });
    const quantity = new Decimal(l.totalQuantity).neg();
    if (quantity.lte(0)) fail(SalesErrors.invalidLine, { line: i + 1, field: 'totalQuantity', reason: Reasons.tooBig });
    asked.set(line.lineId, (asked.get(line.lineId) ?? ZERO).plus(quantity));
    const available = creditableQuantity(line, credited);
    if (asked.get(line.lineId)!.gt(available)) fail(SalesErrors.creditExceedsInvoiced, { requested: asked.get(line.lineId)!.toString(), productId: line.productId ?? line.productCode ?? '', available: available.toString(), id: source.document.documentId });
  });
}
