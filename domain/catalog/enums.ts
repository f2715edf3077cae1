/**
 * The catalogue's enumerations, each written once: the GraphQL enum (modules/catalog.ts), the inputs'
 * validation (commands/catalog/inputs.ts) and the read model take them from here.
 */

/** Sage's product categories (products.category); NOT_SPECIFIED when the client names none. */
export const ProductCategory = ['NOT_SPECIFIED', 'CONCEPT', 'FEE', 'PRODUCT', 'PRODUCT_AND_SERVICE', 'SERVICE'] as const;
export type ProductCategory = (typeof ProductCategory)[number];

/** Categories of what is not goods: no stock is counted for them. */
export const STOCKLESS_CATEGORIES: readonly ProductCategory[] = ['CONCEPT', 'FEE', 'SERVICE'];

/**
 * How a sales tariff's line sets a price (salesTariffs.type): PRICE, its indicatorValue is the unit price;
 * INCREMENT, a percentage added to the product's salesUnitPrice; MARGIN, a margin over the cost price;
 * NONE, the product's price.
 */
export const SalesTariffType = ['NONE', 'INCREMENT', 'MARGIN', 'PRICE'] as const;
export type SalesTariffType = (typeof SalesTariffType)[number];

/** Where a computed price or discount came from (ComputedUnitPriceGLDto.source, ComputedDiscountGLDto.source). */
export const PriceSource = ['INPUT', 'TARIFF', 'DISCOUNT_GROUP', 'PRODUCT'] as const;
export type PriceSource = (typeof PriceSource)[number];

/** By GraphQL name. */
export const CATALOG_ENUMS = { ProductCategory, SalesTariffType } as const;
