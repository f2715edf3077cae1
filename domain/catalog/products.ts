/**
 * The Catalog aggregate: an organisation's products in Sage's shape (category, sales unit price and first
 * discount, the texts a sales line takes, the sales accounting account, the blocks on sales documents),
 * with our extras (tax treatment, purchase account, stock keeping). One stream per organisation:
 * `Catalog-<id>` (codes are unique). The chart is the Organisation aggregate's, passed in as a fact. Pure
 * decider.
 */
import { STOCKLESS_CATEGORIES, type ProductCategory } from './enums.ts';
import { CODE_LENGTH, checkCode } from '../codes.ts';
import { Errors, Reasons, assert, fail, unknownEvent } from '../errors.ts';
import { AccountingErrors } from '../accounting/errors.ts';
import { CatalogErrors } from './errors.ts';
import { Decimal, MAX_AMOUNT } from '../money.ts';
import { isPostingAccount, type OrganisationState } from '../accounting/organisation.ts';
import { checkTaxGroup } from '../taxes/groups.ts';
import { PRICE_LIST_EVENT_TYPES, evolvePriceLists, initialPriceListsState, priceListUsingProduct, type PriceListEvent, type PriceListsState } from './price-lists.ts';

export interface ProductFields {
  code: string;
  name: string;
  category: ProductCategory;
  /** Net unit price in the organisation's currency; up to six decimals (prices of small units). */
  salesUnitPrice: string;
  /** The discount a sales line starts with, a percentage with two decimals. */
  firstSalesDiscount: string;
  /** The text a sales document's line takes from the product. */
  lineDescription: string | null;
  /** Notes on the product, not printed on documents. */
  comments: string | null;
  /** Sage's tax group: one of the organisation's (domain/taxes/groups.ts), or null. */
  taxGroupId: string | null;
  taxTreatmentId: string | null;
  salesAccountingAccountId: string | null;
  purchaseAccountId: string | null;
  /** Stock is counted for this product (goods only). */
  stockManaged: boolean;
  /** Sales may take stock below zero (only meaningful when stock is managed). */
  allowNegativeStock: boolean;
  /** No longer sold; set by an update only. */
  obsolete: boolean;
  salesDeliveryNoteBlockingEnabled: boolean;
  salesInvoiceBlockingEnabled: boolean;
  salesOrderBlockingEnabled: boolean;
}

/** What an update may change: everything but the code. */
export type ProductChanges = Partial<Omit<ProductFields, 'code'>>;

export type ProductEvent =
  | { type: 'ProductCreated'; data: { productId: string; at: string } & ProductFields }
  | { type: 'ProductUpdated'; data: { productId: string; code: string; changes: ProductChanges; at: string } }
  | { type: 'ProductDeleted'; data: { productId: string; code: string; at: string } };

export const PRODUCT_EVENT_TYPES = ['ProductCreated', 'ProductUpdated', 'ProductDeleted'] as const satisfies readonly ProductEvent['type'][];

/** What the rules across a product's fields need to know of it. */
type KnownProduct = Pick<ProductFields, 'code' | 'category' | 'stockManaged' | 'allowNegativeStock'>;
/**
 * A product as the state keeps it: with the accounts it refers to (deleting one a product uses is refused)
 * and what a sales line takes from it (name, price, discount, tax treatment, blocks).
 */
export type KeptProduct = KnownProduct & Pick<ProductFields, 'salesAccountingAccountId' | 'purchaseAccountId' | SalesFacts>;
type SalesFacts = 'name' | 'salesUnitPrice' | 'firstSalesDiscount' | 'lineDescription' | 'taxTreatmentId' | 'taxGroupId' | 'obsolete'
  | 'salesDeliveryNoteBlockingEnabled' | 'salesInvoiceBlockingEnabled' | 'salesOrderBlockingEnabled';

export interface CatalogState {
  products: Map<string, KeptProduct>;
  productIdByCode: Map<string, string>;
  /** Sales tariffs and discount groups (price-lists.ts). */
  priceLists: PriceListsState;
}

/** Every event of the Catalog stream. */
export type CatalogEvent = ProductEvent | PriceListEvent;
export const CATALOG_EVENT_TYPES = [...PRODUCT_EVENT_TYPES, ...PRICE_LIST_EVENT_TYPES] as const;

export const initialCatalogState = (): CatalogState => ({ products: new Map(), productIdByCode: new Map(), priceLists: initialPriceListsState() });

/** Decimals as the client sent them (exact text): the decider checks and normalises them. */
type SentDecimals = { salesUnitPrice?: string | null; firstSalesDiscount?: string | null };

export type CatalogCommand =
  | { type: 'CreateProduct'; productId: string; fields: Omit<ProductFields, keyof SentDecimals | 'obsolete'> & SentDecimals; now: string }
  | { type: 'UpdateProduct'; productId: string; changes: Omit<ProductChanges, keyof SentDecimals> & SentDecimals; now: string }
  | { type: 'DeleteProduct'; productId: string; now: string };

export const CATALOG_LIMITS = Object.freeze({ maxProducts: 500_000, priceDecimals: 6, discountDecimals: 2 });

const HUNDRED = new Decimal(100);

function salesUnitPrice(raw: string | null): string {
  const text = raw === null ? '0' : raw.trim();
  if (!/^\d{1,15}(\.\d{1,20})?$/.test(text)) fail(CatalogErrors.invalidProduct, { field: 'salesUnitPrice', reason: Reasons.nonNegativeDecimal });
  const value = new Decimal(text);
  if (value.gt(MAX_AMOUNT) || value.decimalPlaces() > CATALOG_LIMITS.priceDecimals) {
    fail(CatalogErrors.invalidProduct, { field: 'salesUnitPrice', reason: Reasons.maxDecimals, decimals: CATALOG_LIMITS.priceDecimals });
  }
  return value.toFixed(Math.max(2, value.decimalPlaces()));
}

function firstSalesDiscount(raw: string | null): string {
  const text = raw === null ? '0' : raw.trim();
  const value = /^\d{1,3}(\.\d{1,20})?$/.test(text) ? new Decimal(text) : null;
  if (!value || value.gt(HUNDRED) || value.decimalPlaces() > CATALOG_LIMITS.discountDecimals) {
    fail(CatalogErrors.invalidProduct, { field: 'firstSalesDiscount', reason: Reasons.percentage });
  }
  return value.toFixed(CATALOG_LIMITS.discountDecimals);
}

/** The sent decimals checked and in their stored form; the ones not sent stay absent. */
function decimals(sent: SentDecimals): Partial<Pick<ProductFields, keyof SentDecimals>> {
  return {
    ...(sent.salesUnitPrice !== undefined && { salesUnitPrice: salesUnitPrice(sent.salesUnitPrice) }),
    ...(sent.firstSalesDiscount !== undefined && { firstSalesDiscount: firstSalesDiscount(sent.firstSalesDiscount) }),
  };
}

function postingAccount(organisation: OrganisationState, id: string | null | undefined, field: string): void {
  if (!id) return;
  const account = organisation.accounts.get(id) ?? fail(AccountingErrors.accountNotFound, { id, field });
  if (account.deactivated) fail(AccountingErrors.accountDeactivated, { code: account.code, field });
  if (!isPostingAccount(account)) fail(AccountingErrors.accountNotPostable, { code: account.code, field });
}

/** The rules across fields, on the product as it would be: stock only for goods, negative stock only with stock. */
function checkProduct(p: KnownProduct, organisation: OrganisationState, sent: Pick<ProductChanges, 'salesAccountingAccountId' | 'purchaseAccountId' | 'taxGroupId'>): void {
  if (p.stockManaged && STOCKLESS_CATEGORIES.includes(p.category)) fail(CatalogErrors.invalidProduct, { field: 'stockManaged', reason: Reasons.serviceNoStock });
  if (p.allowNegativeStock && !p.stockManaged) fail(CatalogErrors.invalidProduct, { field: 'allowNegativeStock', reason: Reasons.negativeStockNeedsStock });
  postingAccount(organisation, sent.salesAccountingAccountId, 'salesAccountingAccountId');
  postingAccount(organisation, sent.purchaseAccountId, 'purchaseAccountId');
  checkTaxGroup(organisation.id!, organisation.country!, sent.taxGroupId);
}

export function decideCatalog(command: CatalogCommand, state: CatalogState, organisation: OrganisationState): ProductEvent[] {
  const at = command.now;
  if (!organisation.id) fail(Errors.organisationNotFound);
  switch (command.type) {
    case 'CreateProduct': {
      const f = command.fields;
      checkCode(f.code, CODE_LENGTH.product);
      if (state.productIdByCode.has(f.code)) fail(CatalogErrors.productCodeAlreadyExists, { code: f.code });
      if (state.products.has(command.productId)) fail(Errors.documentIdAlreadyExists, { id: command.productId });
      if (state.products.size >= CATALOG_LIMITS.maxProducts) fail(Errors.invalidInput, { field: 'code', reason: Reasons.tooMany, limit: CATALOG_LIMITS.maxProducts });
      checkProduct(f, organisation, f);
      const sent = decimals({ salesUnitPrice: f.salesUnitPrice ?? null, firstSalesDiscount: f.firstSalesDiscount ?? null });
      const fields: ProductFields = { ...f, salesUnitPrice: sent.salesUnitPrice!, firstSalesDiscount: sent.firstSalesDiscount!, obsolete: false };
      return [{ type: 'ProductCreated', data: { productId: command.productId, at, ...fields } }];
    }
    case 'UpdateProduct': {
      const product = state.products.get(command.productId) ?? fail(CatalogErrors.productNotFound, { id: command.productId });
      const { salesUnitPrice: _, firstSalesDiscount: __, ...rest } = command.changes;
      checkProduct({ ...product, ...rest }, organisation, rest);
      const changes: ProductChanges = { ...rest, ...decimals(command.changes) };
      return [{ type: 'ProductUpdated', data: { productId: command.productId, code: product.code, changes, at } }];
    }
    case 'DeleteProduct': {
      const product = state.products.get(command.productId) ?? fail(CatalogErrors.productNotFound, { id: command.productId });
      const list = priceListUsingProduct(state.priceLists, command.productId);
      if (list) fail(CatalogErrors.productInPriceList, { code: product.code, list });
      return [{ type: 'ProductDeleted', data: { productId: command.productId, code: product.code, at } }];
    }
  }
}

const kept = (p: KeptProduct): KeptProduct => ({
  code: p.code, category: p.category, stockManaged: p.stockManaged, allowNegativeStock: p.allowNegativeStock,
  salesAccountingAccountId: p.salesAccountingAccountId ?? null, purchaseAccountId: p.purchaseAccountId ?? null,
  name: p.name, salesUnitPrice: p.salesUnitPrice ?? '0.00', firstSalesDiscount: p.firstSalesDiscount ?? '0.00', lineDescription: p.lineDescription ?? null,
  taxTreatmentId: p.taxTreatmentId ?? null, taxGroupId: p.taxGroupId ?? null, obsolete: p.obsolete === true, salesDeliveryNoteBlockingEnabled: p.salesDeliveryNoteBlockingEnabled === true,
  salesInvoiceBlockingEnabled: p.salesInvoiceBlockingEnabled === true, salesOrderBlockingEnabled: p.salesOrderBlockingEnabled === true,
});

/** The code of a product whose sales or purchase account this is, if any (a deletion guard asks). */
export function productUsingAccount(state: CatalogState, accountId: string): string | undefined {
  for (const p of state.products.values()) if (p.salesAccountingAccountId === accountId || p.purchaseAccountId === accountId) return p.code;
  return undefined;
}

/**
 * Folds one stored event. An event the state cannot have produced (its decider refuses the same
 * command) means the store or our code is broken: it fails loudly instead of being skipped.
 */
export function evolveCatalog(state: CatalogState, event: CatalogEvent): CatalogState {
  const type = event.type;
  if ((PRICE_LIST_EVENT_TYPES as readonly string[]).includes(type)) return (evolvePriceLists(state.priceLists, event as PriceListEvent), state);
  switch (event.type) {
    case 'ProductCreated': {
      const d = event.data;
      assert(!state.products.has(d.productId), `${type} of product ${d.productId}, which exists already`);
      assert(!state.productIdByCode.has(d.code), `${type} of product ${d.productId} with code ${d.code}, which another product has`);
      state.products.set(d.productId, kept(d));
      state.productIdByCode.set(d.code, d.productId);
      return state;
    }
    case 'ProductUpdated': {
      const d = event.data;
      const product = state.products.get(d.productId);
      assert(product?.code === d.code, `${type} of product ${d.productId} with code ${d.code}, which does not exist`);
      state.products.set(d.productId, kept({ ...product, ...d.changes, code: d.code }));
      return state;
    }
    case 'ProductDeleted': {
      const d = event.data;
      assert(state.products.get(d.productId)?.code === d.code, `${type} of product ${d.productId} with code ${d.code}, which does not exist`);
      state.products.delete(d.productId);
      state.productIdByCode.delete(d.code);
      return state;
    }
    default:
      return unknownEvent('Catalog', event);
  }
}
