/**
 * Sage's productPriceById answer (ComputedSalesPriceGLDto): a product's price and first discount for a
 * customer, a date and a quantity (pricing.ts, with the customer's tariff and discount group unless the
 * query names others), and the tax a sales line of it would be charged: the line's treatment and rates as
 * the sales documents compute them (domain/sales/line-tax.ts, domain/taxes/calculate.ts). Pure.
 */
import type { OrganisationCountry } from '../enums.ts';
import { fail } from '../errors.ts';
import { lineTreatment } from '../sales/line-tax.ts';
import { calculateDocumentTaxes } from '../taxes/calculate.ts';
import { taxGroupIdOf, taxIdOf, taxTreatmentIdOf } from '../taxes/catalogue/index.ts';
import { STOCKLESS_CATEGORIES } from './enums.ts';
import { CatalogErrors } from './errors.ts';
import type { PriceListKind } from './price-lists.ts';
import { salesPriceOf, type SalesPrice } from './pricing.ts';
import type { CatalogState } from './products.ts';

/** What the price of a customer's line depends on (null: no customer, as for a lead). */
export interface PricedCustomer {
  country: string | null;
  vatNumber: string | null;
  hasEquivalenceSurcharge: boolean;
  salesTariffId: string | null;
  salesDiscountGroupId: string | null;
}

export interface ProductPriceQuery {
  productId: string;
  documentDate: string;
  quantity: string;
  salesTariffId?: string | null;
  salesDiscountGroupId?: string | null;
}

export interface ProductPriceFacts {
  organisationId: string;
  country: OrganisationCountry;
  catalog: CatalogState;
  customer: PricedCustomer | null;
}

export interface ComputedSalesPrice extends SalesPrice {
  taxGroupId: string;
  taxId: string;
  taxTreatmentId: string;
  taxPercentage: string;
  equivalenceSurchargePercentage: string;
}

/** A list the query names must be the organisation's; the customer's, if gone since, is not applied. */
function listNamed(catalog: CatalogState, kind: PriceListKind, named: string | null | undefined, customers: string | null | undefined) {
  if (named) return catalog.priceLists.lists[kind].get(named) ?? fail(CatalogErrors.priceListNotFound, { kind, id: named });
  return customers ? catalog.priceLists.lists[kind].get(customers) ?? null : null;
}

/** null when the organisation has no such product (as a by-id read of another organisation's). */
export function computedSalesPrice(q: ProductPriceQuery, facts: ProductPriceFacts): ComputedSalesPrice | null {
  const product = facts.catalog.products.get(q.productId);
  if (!product) return null;
  const customer = facts.customer;
  const tariff = listNamed(facts.catalog, 'salesTariff', q.salesTariffId, customer?.salesTariffId);
  const discountGroup = listNamed(facts.catalog, 'salesDiscount', q.salesDiscountGroupId, customer?.salesDiscountGroupId);
  const priced = salesPriceOf({ product, productId: q.productId, quantity: q.quantity, documentDate: q.documentDate, tariff, discountGroup });
  const isService = STOCKLESS_CATEGORIES.includes(product.category);
  const taxFacts = { organisationId: facts.organisationId, country: facts.country, customerCountry: customer?.country ?? null, vatNumber: customer?.vatNumber ?? null, customerHasVatNumber: Boolean(customer?.vatNumber) };
  const taxTreatment = lineTreatment(taxFacts, { taxTreatmentId: product.taxTreatmentId, taxGroupId: product.taxGroupId, isService, keptTreatmentCode: null });
  const [line] = calculateDocumentTaxes({
    country: facts.country, hasEquivalenceSurcharge: customer?.hasEquivalenceSurcharge ?? false,
    lines: [{ quantity: q.quantity, unitPrice: priced.price.value, discountPercent: priced.firstDiscount.value, taxTreatment, isService }],
  }).lines;
  return {
    ...priced,
    taxGroupId: taxGroupIdOf(facts.organisationId, taxTreatment.tax.group),
    taxId: taxIdOf(facts.organisationId, taxTreatment.tax.code),
    taxTreatmentId: taxTreatmentIdOf(facts.organisationId, taxTreatment.treatment.code),
    taxPercentage: line.vatPercentage,
    equivalenceSurchargePercentage: line.equivalenceSurchargePercentage,
  };
}
