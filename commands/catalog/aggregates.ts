/** The product catalogue's aggregate: one stream per organisation. */
import { evolveCatalog, initialCatalogState, type CatalogState, type ProductEvent } from '../../domain/catalog/products.ts';
import type { Aggregate } from '../aggregate-store.ts';

export const CatalogAggregate: Aggregate<CatalogState, ProductEvent> = { category: 'Catalog', initialState: initialCatalogState, evolve: evolveCatalog };
