/**
 * A document's lines after a create or an update: the patch applied (CREATE / MODIFY / DELETE, or the sent
 * lines replacing all), conversions checked against their origin (allowed path, Pending, same customer) with
 * the quantity, product and price taken from the origin line unless sent, and each product line priced by
 * line-prices.ts unless sent (the header's tariff and discount group, else the product's salesUnitPrice and
 * firstSalesDiscount: an omitted unitPrice takes the catalogue's price, the sensible reading of Sage's "0
 * when omitted"). A line records where its price and discount came from, so a new currency, rate, date or
 * list re-prices it (and no line whose price was sent, or taken from an origin in the same currency: agreed there).
 */
import { STOCKLESS_CATEGORIES } from '../catalog/enums.ts';
import { CatalogErrors } from '../catalog/errors.ts';
import type { CatalogState, KeptProduct } from '../catalog/products.ts';
import { fail, Reasons } from '../errors.ts';
import { Decimal } from '../money.ts';
import { ALLOWED_CONVERSIONS, type SalesDocumentKind } from './enums.ts';
import { SalesErrors } from './errors.ts';
import type { LineDraft } from './drafts.ts';
import type { SalesLine, SalesLineOrigin } from './events.ts';
import { keptIfSent, linePrice, type DocumentPricing, type LinePrice, type Sourced } from './line-prices.ts';
import { pendingQuantity, type SalesState } from './state.ts';

export type { DocumentCurrency } from './line-prices.ts';

/** A line before its tax and amounts: what was sent, taken from its origin, or kept from before. */
export interface LineSpec extends LinePrice {
  lineId: string;
  productId: string | null;
  productCode: string | null;
  productName: string | null;
  totalQuantity: string;
  isService: boolean;
  taxTreatmentId: string | null;
  taxGroupId: string | null;
  /** Kept from the recorded line (an update that does not touch it): its treatment stays. */
  keptTreatmentCode: string | null;
  origin: SalesLineOrigin | null;
  creditedLineId: string | null;
  /** A credit note's line taking the last units of its invoice line: the gross and net left of it (credit-notes.ts). */
  givenAmounts?: { totalGross: string; totalNet: string };
}

export const LINE_LIMITS = Object.freeze({ productCode: 15, productName: 2500 });

interface LineContext {
  kind: SalesDocumentKind;
  /** The header's currency, date and lists. */
  pricing: DocumentPricing;
  customerId: string | null;
  catalog: CatalogState;
  sales: SalesState;
  documentId: string;
}

const BLOCK: Partial<Record<SalesDocumentKind, keyof KeptProduct>> = {
  ORDER: 'salesOrderBlockingEnabled', DELIVERY_NOTE: 'salesDeliveryNoteBlockingEnabled', INVOICE: 'salesInvoiceBlockingEnabled',
};

function productOf(c: LineContext, draft: LineDraft, line: number): [string, KeptProduct] | null {
  if (draft.productId) {
    const product = c.catalog.products.get(draft.productId) ?? fail(CatalogErrors.productNotFound, { id: draft.productId });
    return [draft.productId, product];
  }
  const byCode = draft.productCode ? c.catalog.productIdByCode.get(draft.productCode) : undefined;
  if (byCode) return [byCode, c.catalog.products.get(byCode)!];
  // A free line (Sage's productCode + productName with no product): it needs a name.
  if (!draft.productName) fail(SalesErrors.invalidLine, { line, field: 'productId', reason: Reasons.required });
  return null;
}

function checkSellable(c: LineContext, code: string, product: KeptProduct, line: number): void {
  const block = BLOCK[c.kind];
  if (product.obsolete || (block && product[block] === true)) fail(SalesErrors.productBlocked, { code, kind: c.kind, line });
}

/** The origin line a converted line takes from, checked. */
function originOf(c: LineContext, draft: LineDraft, line: number): { origin: SalesLineOrigin; from: SalesLine; pending: string; sameCurrency: boolean } | null {
  if (!draft.originType && !draft.originId && !draft.originLineId) return null;
  if (!draft.originType || !draft.originId || !draft.originLineId) fail(SalesErrors.invalidLine, { line, field: 'originLineId', reason: Reasons.required });
  const kept = c.sales.documents.get(draft.originId) ?? fail(SalesErrors.documentNotFound, { id: draft.originId });
  const originKind = kept.document.kind;
  if (originKind !== draft.originType || !ALLOWED_CONVERSIONS[c.kind].includes(draft.originType)) {
    fail(SalesErrors.conversionNotAllowed, { kind: c.kind, originKind });
  }
  if (draft.originId === c.documentId) fail(SalesErrors.conversionNotAllowed, { kind: c.kind, originKind });
  if (kept.status !== 'Pending') fail(SalesErrors.originNotPending, { id: draft.originId, status: kept.status });
  if (kept.document.header.customerId !== null && kept.document.header.customerId !== c.customerId) fail(SalesErrors.originOtherCustomer, { id: draft.originId });
  const from = kept.document.lines.find((l) => l.lineId === draft.originLineId) ?? fail(SalesErrors.lineNotFound, { id: draft.originLineId, documentId: draft.originId });
  const { currencyCode, exchangeRate } = kept.document.header;
  const sameCurrency = currencyCode === c.pricing.currency.currencyCode && exchangeRate === c.pricing.currency.exchangeRate;
  return { origin: { originType: draft.originType, originId: draft.originId, originLineId: draft.originLineId }, from, pending: pendingQuantity(kept, from.lineId).toString(), sameCurrency };
}

/** A new line from a CREATE. */
function created(c: LineContext, draft: LineDraft, lineId: string, line: number): LineSpec {
  const converted = originOf(c, draft, line);
  const sent = { ...draft };
  const sentValue = (value: string | null | undefined): Sourced | null => (value != null ? { value, source: 'INPUT' } : null);
  let price = sentValue(draft.unitPrice);
  let discount = sentValue(draft.firstDiscount);
  if (converted) {
    const f = converted.from;
    sent.productId ??= f.productId;
    if (!sent.productId) { sent.productCode ??= f.productCode; sent.productName ??= f.productName; }
    sent.totalQuantity ??= converted.pending;
    // In the same currency and rate the origin's price and discount are agreed: kept as sent (INPUT), so no later
    // change of this document's date, lists or quantity prices them again. In another, a catalogue price is the catalogue's again.
    const agreed = (value: string, source: Sourced['source']): Sourced => ({ value, source: converted.sameCurrency ? 'INPUT' : source });
    if (f.unitPriceSource === 'INPUT' || converted.sameCurrency) price ??= agreed(f.unitPrice, f.unitPriceSource);
    discount ??= agreed(f.firstDiscount, f.firstDiscountSource);
  }
  const found = productOf(c, sent, line);
  if (found) checkSellable(c, found[1].code, found[1], line);
  const product = found?.[1];
  const totalQuantity = sent.totalQuantity ?? '1';
  return {
    lineId,
    productId: found?.[0] ?? null,
    productCode: product?.code ?? sent.productCode ?? null,
    productName: sent.productName ?? product?.lineDescription ?? product?.name ?? null,
    totalQuantity,
    ...linePrice(c.pricing, found ? { id: found[0], kept: found[1] } : null, totalQuantity, price, discount),
    isService: product ? STOCKLESS_CATEGORIES.includes(product.category) : false,
    taxTreatmentId: product?.taxTreatmentId ?? null,
    taxGroupId: product?.taxGroupId ?? null,
    keptTreatmentCode: null,
    origin: converted?.origin ?? null,
    creditedLineId: null,
  };
}

/** A recorded line as a spec: an update that does not touch it keeps its price and treatment as recorded. */
export function specOf(l: SalesLine): LineSpec {
  return {
    lineId: l.lineId, productId: l.productId, productCode: l.productCode, productName: l.productName, totalQuantity: l.totalQuantity,
    unitPrice: l.unitPrice, unitPriceSource: l.unitPriceSource, firstDiscount: l.firstDiscount, firstDiscountSource: l.firstDiscountSource, isService: l.isService, taxTreatmentId: l.taxTreatmentId, taxGroupId: l.taxGroupId,
    keptTreatmentCode: l.taxTreatmentCode, origin: l.origin, creditedLineId: l.creditedLineId,
  };
}

function modified(c: LineContext, spec: LineSpec, draft: LineDraft, line: number): LineSpec {
  // Where a line comes from is set when it is created, never moved.
  if (draft.originId || draft.originLineId || draft.originType) fail(SalesErrors.invalidLine, { line, field: 'originId', reason: Reasons.badValue });
  const productChanged = (draft.productId && draft.productId !== spec.productId) || (draft.productCode && draft.productCode !== spec.productCode);
  if (!productChanged) {
    // A modified line is taxed again, as its product stands now.
    const product = spec.productId ? c.catalog.products.get(spec.productId) : undefined;
    const totalQuantity = draft.totalQuantity ?? spec.totalQuantity;
    // A new quantity may fall in another stretch: what came from the catalogue is priced again; else it stays.
    const requoted = product !== undefined && !new Decimal(totalQuantity).eq(spec.totalQuantity);
    const kept = (value: string, source: Sourced['source']): Sourced | null => (requoted ? keptIfSent(value, source) : { value, source });
    const sent = (value: string | null | undefined, before: Sourced | null): Sourced | null => (value != null ? { value, source: 'INPUT' } : before);
    return {
      ...spec,
      taxTreatmentId: product ? product.taxTreatmentId : null,
      taxGroupId: product ? product.taxGroupId : null,
      keptTreatmentCode: null,
      productName: draft.productName ?? spec.productName,
      totalQuantity,
      ...linePrice(c.pricing, product ? { id: spec.productId!, kept: product } : null, totalQuantity,
        sent(draft.unitPrice, kept(spec.unitPrice, spec.unitPriceSource)), sent(draft.firstDiscount, kept(spec.firstDiscount, spec.firstDiscountSource))),
    };
  }
  return { ...created(c, { ...draft, originId: null, originLineId: null, originType: null }, spec.lineId, line), origin: spec.origin };
}

/** The lines of a new document, in the order sent. */
export function newLines(c: LineContext, drafts: readonly LineDraft[], newLineId: (i: number) => string): LineSpec[] {
  return drafts.map((d, i) => {
    if (d.id || (d.requestedAction && d.requestedAction !== 'CREATE')) fail(SalesErrors.invalidLine, { line: i + 1, field: 'id', reason: Reasons.badValue });
    return created(c, d, newLineId(i), i + 1);
  });
}

/**
 * The lines after an update: kept in their order, modified in place, deleted, new ones appended in the
 * order sent; with `replace`, only the sent lines stay (those with an id keep their identity).
 */
export function patchedLines(c: LineContext, current: readonly SalesLine[], drafts: readonly LineDraft[], replace: boolean, newLineId: (i: number) => string): LineSpec[] {
  const specs = new Map(current.map((l) => [l.lineId, specOf(l)]));
  const kept: string[] = replace ? [] : current.map((l) => l.lineId);
  const added: LineSpec[] = [];
  drafts.forEach((d, i) => {
    const line = i + 1;
    const action = d.requestedAction ?? (d.id ? 'MODIFY' : 'CREATE');
    if (action === 'CREATE') {
      if (d.id) fail(SalesErrors.invalidLine, { line, field: 'id', reason: Reasons.badValue });
      added.push(created(c, d, newLineId(i), line));
      return;
    }
    const id = d.id ?? fail(SalesErrors.invalidLine, { line, field: 'id', reason: Reasons.required });
    const spec = specs.get(id) ?? fail(SalesErrors.lineNotFound, { id, documentId: c.documentId });
    if (action === 'DELETE') {
      specs.delete(id);
      return;
    }
    specs.set(id, modified(c, spec, d, line));
    if (replace && !kept.includes(id)) kept.push(id);
  });
  return [...kept.filter((id) => specs.has(id)).map((id) => specs.get(id)!), ...added];
}

/**
 * The lines after the header's currency, rate, date or lists changed: a price or discount that came from the
 * catalogue takes the catalogue's in the new terms; a sent one stays.
 */
export function repricedLines(c: LineContext, specs: readonly LineSpec[]): LineSpec[] {
  return specs.map((s) => {
    const product = s.productId ? c.catalog.products.get(s.productId) : undefined;
    if (!product) return s;
    return { ...s, ...linePrice(c.pricing, { id: s.productId!, kept: product }, s.totalQuantity, keptIfSent(s.unitPrice, s.unitPriceSource), keptIfSent(s.firstDiscount, s.firstDiscountSource)) };
  });
}
