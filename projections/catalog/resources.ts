/** The catalogue's read models: products, sales tariffs and discount groups. */
import type { Resource } from '../engine/resource.ts';
import { PRICE_LIST_RESOURCES } from './price-list-models.ts';
import { PRODUCT_RESOURCES } from './read-models.ts';

export const CATALOG_RESOURCES: Resource[] = [...PRODUCT_RESOURCES, ...PRICE_LIST_RESOURCES];
