/**
 * The catalogue's enumerations, each written once: the GraphQL enum (modules/catalog.ts), the inputs'
 * validation (commands/catalog/inputs.ts) and the read model take them from here.
 */

/** Sage's product categories (products.category); NOT_SPECIFIED when the client names none. */
export const ProductCategory = ['NOT_SPECIFIED', 'CONCEPT', 'FEE', 'PRODUCT', 'PRODUCT_AND_SERVICE', 'SERVICE'] as const;
export type ProductCategory = (typeof ProductCategory)[number];

/** Categories of what is not goods: no stock is counted for them. */
export const STOCKLESS_CATEGORIES: readonly ProductCategory[] = ['CONCEPT', 'FEE', 'SERVICE'];

/** By GraphQL name. */
export const CATALOG_ENUMS = { ProductCategory } as const;
