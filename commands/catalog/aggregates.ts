/** The product catalogue's aggregate: one stream per organisation. */
import { evolveCatalog, initialCatalogState, type CatalogEvent, type CatalogState } from '../../domain/catalog/products.ts';
import type { Aggregate } from '../aggregate-store.ts';

export const CatalogAggregate: Aggregate<CatalogState, CatalogEvent> = { category: 'Catalog', initialState: initialCatalogState, evolve: evolveCatalog };
