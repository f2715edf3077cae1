/**
 * The Catalog aggregate: an organisation's products (goods and services) with their unit price, tax
 * treatment, the accounts sales and purchases of them post to, and stock keeping. One stream per
 * organisation: `Catalog-<id>` (codes are unique). The chart is the Organisation aggregate's, passed in
 * as a fact. Pure decider.
 */
import type { ProductType } from './enums.ts';
import { CODE_LENGTH, checkCode } from '../codes.ts';
import { Errors, Reasons, assert, fail, unknownEvent } from '../errors.ts';
import { AccountingErrors } from '../accounting/errors.ts';
import { CatalogErrors } from './errors.ts';
import { Decimal, MAX_AMOUNT } from '../money.ts';
import { isPostingAccount, type OrganisationState } from '../accounting/organisation.ts';

export interface ProductFields {
  code: string;
  name: string;
  description: string | null;
  type: ProductType;
  /** Net unit price in the organisation's currency; up to six decimals (prices of small units). */
  unitPrice: string;
  taxTreatmentId: string | null;
  salesAccountId: string | null;
  purchaseAccountId: string | null;
  /** Stock is counted for this product (goods only). */
  stockManaged: boolean;
  /** Sales may take stock below zero (only meaningful when stock is managed). */
  allowNegativeStock: boolean;
  disabled: boolean;
}

export type ProductEvent =
  | { type: 'ProductCreated'; data: { productId: string; at: string } & ProductFields }
  | { type: 'ProductDeleted'; data: { productId: string; code: string; at: string } };

export const PRODUCT_EVENT_TYPES = ['ProductCreated', 'ProductDeleted'] as const satisfies readonly ProductEvent['type'][];

export interface CatalogState {
  products: Map<string, { code: string }>;
  productIdByCode: Map<string, string>;
}

export const initialCatalogState = (): CatalogState => ({ products: new Map(), productIdByCode: new Map() });

export type CatalogCommand =
  | { type: 'CreateProduct'; productId: string; fields: Omit<ProductFields, 'unitPrice'> & { unitPrice: string | number | null }; now: string }
  | { type: 'DeleteProduct'; productId: string; now: string };

export const CATALOG_LIMITS = Object.freeze({ maxProducts: 500_000, priceDecimals: 6 });

function unitPrice(raw: string | number | null): string {
  const text = raw === null ? '0' : String(raw).trim();
  if (!/^\d{1,15}(\.\d{1,20})?$/.test(text)) fail(CatalogErrors.invalidProduct, { field: 'unitPrice', reason: Reasons.nonNegativeDecimal });
  const value = new Decimal(text);
  if (value.gt(MAX_AMOUNT) || value.decimalPlaces() > CATALOG_LIMITS.priceDecimals) {
    fail(CatalogErrors.invalidProduct, { field: 'unitPrice', reason: Reasons.maxDecimals, decimals: CATALOG_LIMITS.priceDecimals });
  }
  return value.toFixed(Math.max(2, value.decimalPlaces()));
}

function postingAccount(organisation: OrganisationState, id: string | null, field: string): void {
  if (!id) return;
  const account = organisation.accounts.get(id) ?? fail(AccountingErrors.accountNotFound, { id, field });
  if (account.deactivated) fail(AccountingErrors.accountDeactivated, { code: account.code, field });
  if (!isPostingAccount(account)) fail(AccountingErrors.accountNotPostable, { code: account.code, field });
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
      if (f.type === 'SERVICE' && f.stockManaged) fail(CatalogErrors.invalidProduct, { field: 'stockManaged', reason: Reasons.serviceNoStock });
      if (f.allowNegativeStock && !f.stockManaged) fail(CatalogErrors.invalidProduct, { field: 'allowNegativeStock', reason: Reasons.negativeStockNeedsStock });
      postingAccount(organisation, f.salesAccountId, 'salesAccountId');
      postingAccount(organisation, f.purchaseAccountId, 'purchaseAccountId');
      return [{ type: 'ProductCreated', data: { productId: command.productId, at, ...f, unitPrice: unitPrice(f.unitPrice) } }];
    }
    case 'DeleteProduct': {
      const product = state.products.get(command.productId) ?? fail(CatalogErrors.productNotFound, { id: command.productId });
      return [{ type: 'ProductDeleted', data: { productId: command.productId, code: product.code, at } }];
    }
  }
}

/**
 * Folds one stored event. An event the state cannot have produced (its decider refuses the same
 * command) means the store or our code is broken: it fails loudly instead of being skipped.
 */
export function evolveCatalog(state: CatalogState, event: ProductEvent): CatalogState {
  const type = event.type;
  switch (event.type) {
    case 'ProductCreated': {
      const d = event.data;
      assert(!state.products.has(d.productId), `${type} of product ${d.productId}, which exists already`);
      assert(!state.productIdByCode.has(d.code), `${type} of product ${d.productId} with code ${d.code}, which another product has`);
      state.products.set(d.productId, { code: d.code });
      state.productIdByCode.set(d.code, d.productId);
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
