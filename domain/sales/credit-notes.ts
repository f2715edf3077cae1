/**
 * generateCreditNote's decider (pure), and the rule every credit note keeps: per line of the invoice it
 * credits, what its credit notes credit (Pending ones included, so two racing for the last units cannot
 * both take them: the second is decided after the first on the one Sales stream) never exceeds what was
 * invoiced, in quantity and in money (a credited price at most the line's, the net credited at most the line's
 * net). A credit note is an invoice of type CREDIT_NOTE, dated no earlier than its invoice: negative quantities,
 * each line naming the line it credits with that line's price, discount and tax treatment, its amounts from the
 * same calculation. It has no number until it is closed (series CN).
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

/** What credit notes credit of one invoice line, positive. */
export interface Credited {
  quantity: Decimal;
  gross: Decimal;
  net: Decimal;
}

const NOTHING: Credited = { quantity: ZERO, gross: ZERO, net: ZERO };

/** What credit lines credit, per invoice line they credit. */
function creditedBy(lines: readonly SalesLine[], into = new Map<string, Credited>()): Map<string, Credited> {
  for (const l of lines) {
    if (!l.creditedLineId) continue;
    const c = into.get(l.creditedLineId) ?? NOTHING;
    into.set(l.creditedLineId, { quantity: c.quantity.plus(new Decimal(l.totalQuantity).abs()), gross: c.gross.plus(new Decimal(l.totalGross).abs()), net: c.net.plus(new Decimal(l.totalNet).abs()) });
  }
  return into;
}

/** Per line of the invoice: what its credit notes credit, leaving out `excluding` (a credit note being rewritten). */
export function creditedOfLines(state: SalesState, sourceInvoiceId: string, excluding: string | null = null): Map<string, Credited> {
  const credited = new Map<string, Credited>();
  for (const kept of state.documents.values()) {
    const d = kept.document;
    if (d.invoiceType === 'CREDIT_NOTE' && d.sourceInvoiceId === sourceInvoiceId && d.documentId !== excluding) creditedBy(d.lines, credited);
  }
  return credited;
}

const quantitiesOf = (credited: Map<string, Credited>): Map<string, Decimal> => new Map([...credited].map(([id, c]) => [id, c.quantity]));

/** Per line of the invoice: the quantity its credit notes credit. */
export const creditedQuantities = (state: SalesState, sourceInvoiceId: string, excluding: string | null = null): Map<string, Decimal> =>
  quantitiesOf(creditedOfLines(state, sourceInvoiceId, excluding));

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

/** A credit note corrects an invoice already issued: it is never dated before it. */
function notBeforeInvoice(source: KeptDocument, documentDate: IsoDate): void {
  const invoiceDate = source.document.header.documentDate;
  if (documentDate < invoiceDate) fail(SalesErrors.creditNoteDateBeforeInvoice, { documentDate, id: source.document.documentId, invoiceDate });
}

/** A credited price above the invoice line's would credit more money than was invoiced. */
function priceAtMostInvoiced(unitPrice: string, line: SalesLine, n: number, id: string): void {
  if (new Decimal(unitPrice).gt(line.unitPrice)) fail(SalesErrors.creditPriceAboveInvoiced, { line: n, unitPrice, invoicedPrice: line.unitPrice, id });
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
      if (r.unitPrice !== null) priceAtMostInvoiced(r.unitPrice, l, i + 1, id);
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
  totalQuantity: quantity.neg().toString(), unitPrice, unitPriceSource: 'INPUT', firstDiscount: line.firstDiscount, firstDiscountSource: 'INPUT', isService: line.isService,
  taxTreatmentId: line.taxTreatmentId, taxGroupId: line.taxGroupId, keptTreatmentCode: line.taxTreatmentCode, origin: null, creditedLineId: line.lineId,
});

/**
 * A credit note taking the last units of an invoice line at the line's price credits what remains of it: the
 * line's gross and net less what earlier credit notes and this note's other lines of it credited (each rounded
 * on its own, they would sum to a cent more or less than the invoice). `priced` are the note's lines as
 * quantity x price gives them; the specs returned give the ending line its amounts (the tax follows from them).
 */
function withWhatRemains(source: KeptDocument, credited: Map<string, Credited>, specs: LineSpec[], priced: readonly SalesLine[]): LineSpec[] {
  return specs.map((spec, i) => {
    const line = source.document.lines.find((l) => l.lineId === spec.creditedLineId)!;
    const ofLine = specs.flatMap((s, j) => (s.creditedLineId === line.lineId ? [j] : []));
    if (ofLine[ofLine.length - 1] !== i) return spec;
    const before = credited.get(line.lineId) ?? NOTHING;
    const now = creditedBy(ofLine.filter((j) => j !== i).map((j) => priced[j])).get(line.lineId) ?? NOTHING;
    const quantity = before.quantity.plus(now.quantity).plus(new Decimal(spec.totalQuantity).abs());
    const atLinePrice = ofLine.every((j) => new Decimal(specs[j].unitPrice).eq(line.unitPrice));
    if (!quantity.eq(line.totalQuantity) || !atLinePrice) return spec;
    const negated = (amount: Decimal) => (amount.isZero() ? ZERO : amount.neg()).toString();
    return { ...spec, givenAmounts: { totalGross: negated(new Decimal(line.totalGross).minus(before.gross).minus(now.gross)), totalNet: negated(new Decimal(line.totalNet).minus(before.net).minus(now.net)) } };
  });
}

/** Per invoice line, the net credited so far plus this note's never exceeds the line's net. */
function netWithinInvoiced(source: KeptDocument, credited: Map<string, Credited>, lines: readonly SalesLine[]): void {
  for (const [lineId, now] of creditedBy(lines)) {
    const line = source.document.lines.find((l) => l.lineId === lineId)!;
    const available = new Decimal(line.totalNet).minus((credited.get(lineId) ?? NOTHING).net);
    if (now.net.gt(available)) fail(SalesErrors.creditAmountExceedsInvoiced, { requested: now.net.toString(), productId: line.productId ?? line.productCode ?? '', available: available.toString(), id: source.document.documentId });
  }
}

export function decideGenerateCreditNote(command: GenerateCreditNote, state: SalesState, facts: Pick<SalesFacts, 'organisation' | 'parties'>): SalesEvent[] {
  const { draft } = command;
  if (!facts.organisation.id || !facts.organisation.country) fail(Errors.organisationNotFound);
  if (state.documents.has(command.creditNoteId)) fail(Errors.documentIdAlreadyExists, { id: command.creditNoteId });
  const source = requireCreditable(state, draft.sourceInvoiceId);
  notBeforeInvoice(source, draft.documentDate);
  const credited = creditedOfLines(state, draft.sourceInvoiceId);
  const quantities = quantitiesOf(credited);
  const specs = creditedLines(source, quantities, draft.lines).map(([l, q, price], i) => creditSpec(l, q, price, command.newLineId(i)));
  const header = { ...source.document.header, documentDate: draft.documentDate };
  const organisation = facts.organisation;
  const customer = header.customerId ? facts.parties.parties.get(header.customerId) : undefined;
  const precision = CURRENCIES.find((c) => c.code === header.currencyCode)?.precision ?? organisation.currencyPrecision;
  const amountFacts = { organisationId: organisation.id!, country: organisation.country!, customerCountry: customer?.country ?? null, customerHasVatNumber: customer?.terms?.hasVatNumber ?? false, precision };
  const { lines, amounts } = priced(withWhatRemains(source, credited, specs, priced(specs, header, amountFacts).lines), header, amountFacts);
  netWithinInvoiced(source, credited, lines);
  const document: SalesDocument = {
    documentId: command.creditNoteId, kind: 'INVOICE', invoiceType: 'CREDIT_NOTE', operationalNumber: null, header, lines, amounts,
    sourceInvoiceId: draft.sourceInvoiceId, creditNoteReason: draft.creditNoteReason ?? 'UNDEFINED', creditNoteType: draft.creditNoteType ?? 'UNDEFINED',
  };
  return [{ type: 'SalesDocumentCreated', data: { document, number: null, at: command.now } }];
}

/**
 * A credit note rewritten by updateSalesInvoice keeps the rule: every line credits a line of its invoice,
 * negatively, and per line no more than what the invoice's other credit notes leave, in quantity and net. Its
 * lines are priced again as quantity x price (the amounts given to a last-units line are not kept), so a
 * rewrite that would credit a rounding cent beyond the line's net is refused.
 */
export function checkCreditNote(state: SalesState, document: SalesDocument): void {
  if (document.invoiceType !== 'CREDIT_NOTE' || !document.sourceInvoiceId) return;
  const source = requireInvoice(state, document.sourceInvoiceId);
  notBeforeInvoice(source, document.header.documentDate);
  const credited = creditedOfLines(state, document.sourceInvoiceId, document.documentId);
  const quantities = quantitiesOf(credited);
  const asked = new Map<string, Decimal>();
  document.lines.forEach((l, i) => {
    const line = source.document.lines.find((s) => s.lineId === l.creditedLineId);
    if (!line) return fail(SalesErrors.invalidLine, { line: i + 1, field: 'creditedLineId', reason: Reasons.required });
    const quantity = new Decimal(l.totalQuantity).neg();
    if (quantity.lte(0)) fail(SalesErrors.invalidLine, { line: i + 1, field: 'totalQuantity', reason: Reasons.tooBig });
    asked.set(line.lineId, (asked.get(line.lineId) ?? ZERO).plus(quantity));
    priceAtMostInvoiced(l.unitPrice, line, i + 1, source.document.documentId);
    const available = creditableQuantity(line, quantities);
    if (asked.get(line.lineId)!.gt(available)) fail(SalesErrors.creditExceedsInvoiced, { requested: asked.get(line.lineId)!.toString(), productId: line.productId ?? line.productCode ?? '', available: available.toString(), id: source.document.documentId });
  });
  netWithinInvoiced(source, credited, document.lines);
}
