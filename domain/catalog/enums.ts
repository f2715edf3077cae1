/**
 * The catalogue's enumerations, each written once: the GraphQL enum (modules/catalog.ts), the inputs'
 * validation (commands/catalog/inputs.ts) and the read model take them from here.
 */

export const ProductType = ['GOODS', 'SERVICE'] as const;
export type ProductType = (typeof ProductType)[number];

/** By GraphQL name. */
export const CATALOG_ENUMS = { ProductType } as const;
