/**
 * A document's lines after a create or an update: the patch applied (CREATE / MODIFY / DELETE, or the sent
 * lines replacing all), conversions checked against their origin (allowed path, Pending, same customer) with
 * the quantity, product and price taken from the origin line unless sent, and each line priced from its
 * product unless sent (name, salesUnitPrice, firstSalesDiscount: an omitted unitPrice takes the product's
 * price, the sensible reading of Sage's "0 when omitted").
 *
 * A product's price is in the organisation's currency; on a document in another currency it is divided by the
 * document's exchange rate (units of the organisation's currency per unit of the document's) and rounded to
 * the document currency's decimals, halves away from zero: 10.00 EUR at 0.9 is 11.11 USD. Such a line is
 * marked, so a new currency or rate re-prices it (and no line whose price was sent or taken from an origin
 * priced by hand).
 */
import { STOCKLESS_CATEGORIES } from '../catalog/enums.ts';
import { CatalogErrors } from '../catalog/errors.ts';
import type { CatalogState, KeptProduct } from '../catalog/products.ts';
import { fail, Reasons } from '../errors.ts';
import { Decimal } from '../money.ts';
import { roundAmount } from '../taxes/rounding.ts';
import { ALLOWED_CONVERSIONS, type SalesDocumentKind } from './enums.ts';
import { SalesErrors } from './errors.ts';
import type { LineDraft } from './drafts.ts';
import type { SalesLine, SalesLineOrigin } from './events.ts';
import { pendingQuantity, type SalesState } from './state.ts';

/** A line before its tax and amounts: what was sent, taken from its origin, or kept from before. */
export interface LineSpec {
  lineId: string;
  productId: string | null;
  productCode: string | null;
  productName: string | null;
  totalQuantity: string;
  unitPrice: string;
  /** The price is the product's, converted into the document's currency. */
  unitPriceFromProduct: boolean;
  firstDiscount: string;
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

/** The document's currency as its lines are priced in it. */
export interface DocumentCurrency {
  currencyCode: string;
  exchangeRate: string;
  /** The currency's decimals. */
  precision: number;
  /** Another currency than the organisation's: product prices are converted. */
  foreign: boolean;
}

interface LineContext {
  kind: SalesDocumentKind;
  currency: DocumentCurrency;
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

/** The product's price in the document's currency (see the header). */
function productPrice(c: LineContext, product: KeptProduct): string {
  if (!c.currency.foreign) return product.salesUnitPrice;
  return roundAmount(new Decimal(product.salesUnitPrice).dividedBy(c.currency.exchangeRate), c.currency.precision).toFixed(c.currency.precision);
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
  const sameCurrency = currencyCode === c.currency.currencyCode && exchangeRate === c.currency.exchangeRate;
  return { origin: { originType: draft.originType, originId: draft.originId, originLineId: draft.originLineId }, from, pending: pendingQuantity(kept, from.lineId).toString(), sameCurrency };
}

/** A new line from a CREATE. */
function created(c: LineContext, draft: LineDraft, lineId: string, line: number): LineSpec {
  const converted = originOf(c, draft, line);
  const sent = { ...draft };
  if (converted) {
    const f = converted.from;
    sent.productId ??= f.productId;
    if (!sent.productId) { sent.productCode ??= f.productCode; sent.productName ??= f.productName; }
    sent.totalQuantity ??= converted.pending;
    // The origin's price, unless it was the product's in another currency or rate: then the product's again.
    if (!f.unitPriceFromProduct || converted.sameCurrency) sent.unitPrice ??= f.unitPrice;
    sent.firstDiscount ??= f.firstDiscount;
  }
  const found = productOf(c, sent, line);
  if (found) checkSellable(c, found[1].code, found[1], line);
  const product = found?.[1];
  return {
    lineId,
    productId: found?.[0] ?? null,
    productCode: product?.code ?? sent.productCode ?? null,
    productName: sent.productName ?? product?.lineDescription ?? product?.name ?? null,
    totalQuantity: sent.totalQuantity ?? '1',
    unitPrice: sent.unitPrice ?? (product ? productPrice(c, product) : '0'),
    unitPriceFromProduct: (draft.unitPrice ?? null) === null && product !== undefined && (!converted || converted.from.unitPriceFromProduct),
    firstDiscount: sent.firstDiscount ?? product?.firstSalesDiscount ?? '0',
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
    unitPrice: l.unitPrice, unitPriceFromProduct: l.unitPriceFromProduct, firstDiscount: l.firstDiscount, isService: l.isService, taxTreatmentId: l.taxTreatmentId, taxGroupId: l.taxGroupId,
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
    return {
      ...spec,
      taxTreatmentId: product ? product.taxTreatmentId : null,
      taxGroupId: product ? product.taxGroupId : null,
      keptTreatmentCode: null,
      productName: draft.productName ?? spec.productName,
      totalQuantity: draft.totalQuantity ?? spec.totalQuantity,
      unitPrice: draft.unitPrice ?? spec.unitPrice,
      unitPriceFromProduct: (draft.unitPrice ?? null) === null && spec.unitPriceFromProduct,
      firstDiscount: draft.firstDiscount ?? spec.firstDiscount,
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

/** The lines after the document's currency or rate changed: those priced from their product take its price in the new one. */
export function repricedLines(c: LineContext, specs: readonly LineSpec[]): LineSpec[] {
  return specs.map((s) => {
    const product = s.unitPriceFromProduct && s.productId ? c.catalog.products.get(s.productId) : undefined;
    return product ? { ...s, unitPrice: productPrice(c, product) } : s;
  });
}
