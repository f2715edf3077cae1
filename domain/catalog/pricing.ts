/**
 * A sales line's unit price and first discount, and where each came from: what the client sent (INPUT),
 * else the tariff's or discount group's line for the product valid on the document's date, at the stretch
 * of the quantity (TARIFF, DISCOUNT_GROUP), else the product's (PRODUCT). A tariff prices by its type:
 * PRICE, the value is the unit price; INCREMENT, the product's salesUnitPrice plus the value in percent;
 * NONE, the product's price. MARGIN tariffs are refused when written (no cost price is kept). The
 * customer's own discount is not here: a document compounds it with the line's (domain/sales/amounts.ts).
 * Pure.
 */
import { Decimal } from '../money.ts';
import type { PriceSource, SalesTariffType } from './enums.ts';
import type { PriceList, PriceListLine } from './price-lists.ts';
import { CATALOG_LIMITS, type KeptProduct } from './products.ts';

export interface ComputedPrice {
  code: string | null;
  name: string | null;
  source: PriceSource;
  value: string;
  /** The tariff type that priced it (ComputedUnitPriceGLDto.indicator); null for a discount. */
  indicator: SalesTariffType | null;
}

export interface SalesPriceQuery {
  product: { code: string } & Pick<KeptProduct, 'name' | 'salesUnitPrice' | 'firstSalesDiscount'>;
  productId: string;
  /** The line's quantity as decimal text; a stretch is chosen by its absolute value (credit notes are negative). */
  quantity: string;
  /** YYYY-MM-DD (a longer ISO text is cut to its date). */
  documentDate: string;
  tariff?: PriceList | null;
  discountGroup?: PriceList | null;
  inputUnitPrice?: string | null;
  inputFirstDiscount?: string | null;
}

export interface SalesPrice {
  price: ComputedPrice;
  firstDiscount: ComputedPrice;
}

const within = (date: string, p: { startDate: string | null; endDate: string | null }) =>
  (p.startDate === null || p.startDate <= date) && (p.endDate === null || date <= p.endDate);

/** The list's value for the product on the date and at the quantity, or null when the list has none. */
export function listValueOf(list: PriceList | null | undefined, productId: string, date: string, quantity: Decimal): string | null {
  if (!list?.enabled || !within(date, list)) return null;
  const line: PriceListLine | undefined = list.lines.find((l) => l.enabled && l.productId === productId && within(date, l));
  if (!line) return null;
  const stretch = line.stretchs.find((s) => quantity.gte(s.fromUnits) && quantity.lte(s.toUnits));
  return stretch?.value ?? line.value;
}

/** A price in its stored form: at most the catalogue's decimals, at least two. */
function priceText(value: Decimal): string {
  const rounded = value.toDecimalPlaces(CATALOG_LIMITS.priceDecimals, Decimal.ROUND_HALF_UP);
  return rounded.toFixed(Math.max(2, rounded.decimalPlaces()));
}

function tariffPrice(tariff: PriceList, value: string, productPrice: string): string | null {
  switch (tariff.type) {
    case 'PRICE': return priceText(new Decimal(value));
    case 'INCREMENT': return priceText(new Decimal(productPrice).times(new Decimal(100).plus(value)).div(100));
    default: return null;
  }
}

export function salesPriceOf(q: SalesPriceQuery): SalesPrice {
  const date = q.documentDate.slice(0, 10);
  const quantity = new Decimal(q.quantity).abs();
  const fromProduct = (value: string): Omit<ComputedPrice, 'indicator'> => ({ code: q.product.code, name: q.product.name, source: 'PRODUCT', value });
  const fromList = (list: PriceList, source: PriceSource, value: string) => ({ code: list.code, name: list.name, source, value });
  const input = (value: string): Omit<ComputedPrice, 'indicator'> => ({ code: null, name: null, source: 'INPUT', value });

  const tariffValue = q.tariff ? listValueOf(q.tariff, q.productId, date, quantity) : null;
  const tariffed = q.tariff && tariffValue !== null ? tariffPrice(q.tariff, tariffValue, q.product.salesUnitPrice) : null;
  const price = q.inputUnitPrice != null ? { ...input(q.inputUnitPrice), indicator: null }
    : tariffed !== null ? { ...fromList(q.tariff!, 'TARIFF', tariffed), indicator: q.tariff!.type }
    : { ...fromProduct(q.product.salesUnitPrice), indicator: null };

  const discountValue = q.discountGroup ? listValueOf(q.discountGroup, q.productId, date, quantity) : null;
  const firstDiscount = q.inputFirstDiscount != null ? input(q.inputFirstDiscount)
    : discountValue !== null ? fromList(q.discountGroup!, 'DISCOUNT_GROUP', discountValue)
    : fromProduct(q.product.firstSalesDiscount);
  return { price, firstDiscount: { ...firstDiscount, indicator: null } };
}
