/**
 * A product line's unit price and first discount on a document: sent (INPUT), else salesPriceOf's (the
 * header's tariff and discount group, at the document's date and the line's quantity, else the product's),
 * the very rule productPriceById answers with. A price from the catalogue is in the organisation's
 * currency; on a document in another currency it is divided by the document's exchange rate (units of the
 * organisation's currency per unit of the document's) and rounded to the currency's decimals, halves away
 * from zero: 10.00 EUR at 0.9 is 11.11 USD. Each value records its source, so a change of the header's
 * currency, rate, date or lists prices again what came from the catalogue and never what was sent. Pure.
 */
import type { PriceSource } from '../catalog/enums.ts';
import type { PriceList } from '../catalog/price-lists.ts';
import { salesPriceOf } from '../catalog/pricing.ts';
import type { CatalogState, KeptProduct } from '../catalog/products.ts';
import { Decimal } from '../money.ts';
import { roundAmount } from '../taxes/rounding.ts';

/** The document's currency as its lines are priced in it. */
export interface DocumentCurrency {
  currencyCode: string;
  exchangeRate: string;
  /** The currency's decimals. */
  precision: number;
  /** Another currency than the organisation's: catalogue prices are converted. */
  foreign: boolean;
}

/** What a line's price depends on besides the line: the header's currency, date and lists. */
export interface DocumentPricing {
  currency: DocumentCurrency;
  documentDate: string;
  tariff: PriceList | null;
  discountGroup: PriceList | null;
}

/** A value with its source: kept as it is (a sent value, or one kept from before). */
export interface Sourced {
  value: string;
  source: PriceSource;
}

export interface LinePrice {
  unitPrice: string;
  unitPriceSource: PriceSource;
  firstDiscount: string;
  firstDiscountSource: PriceSource;
}

/** The header's lists as the organisation has them now (a list deleted since prices nothing). */
export function documentPricing(catalog: CatalogState, currency: DocumentCurrency, header: { documentDate: string; salesTariffId: string | null; salesDiscountGroupId: string | null }): DocumentPricing {
  const { lists } = catalog.priceLists;
  return {
    currency,
    documentDate: header.documentDate,
    tariff: header.salesTariffId ? lists.salesTariff.get(header.salesTariffId) ?? null : null,
    discountGroup: header.salesDiscountGroupId ? lists.salesDiscount.get(header.salesDiscountGroupId) ?? null : null,
  };
}

/** A catalogue price (organisation's currency) in the document's currency. */
function inDocumentCurrency(currency: DocumentCurrency, price: string): string {
  if (!currency.foreign) return price;
  return roundAmount(new Decimal(price).dividedBy(currency.exchangeRate), currency.precision).toFixed(currency.precision);
}

/**
 * The line's price and discount: `price` and `discount` are kept when given; what is not given is the
 * catalogue's for the product (none: a free line, 0).
 */
export function linePrice(p: DocumentPricing, product: { id: string; kept: KeptProduct } | null, quantity: string, price: Sourced | null, discount: Sourced | null): LinePrice {
  if (!product) {
    return { unitPrice: price?.value ?? '0', unitPriceSource: price?.source ?? 'INPUT', firstDiscount: discount?.value ?? '0', firstDiscountSource: discount?.source ?? 'INPUT' };
  }
  const computed = salesPriceOf({
    product: product.kept, productId: product.id, quantity, documentDate: p.documentDate, tariff: p.tariff, discountGroup: p.discountGroup,
  });
  return {
    unitPrice: price?.value ?? inDocumentCurrency(p.currency, computed.price.value),
    unitPriceSource: price?.source ?? computed.price.source,
    firstDiscount: discount?.value ?? computed.firstDiscount.value,
    firstDiscountSource: discount?.source ?? computed.firstDiscount.source,
  };
}

/** A recorded value kept unless it came from the catalogue (then priced again). */
export const keptIfSent = (value: string, source: PriceSource): Sourced | null => (source === 'INPUT' ? { value, source } : null);
