/** The product catalogue: goods and services sold and bought. */
import { CatalogAggregate } from '../commands/catalog/aggregates.ts';
import { CATALOG_MUTATIONS } from '../commands/catalog/mutations.ts';
import { PRODUCT_EVENT_TYPES } from '../domain/catalog/products.ts';
import * as enums from '../domain/enums.ts';
import { catalogProjection } from '../projections/settings/projections.ts';
import { CATALOG_RESOURCES } from '../projections/settings/read-models.ts';
import { CATALOG_EVENTS } from '../eventqueue/catalog/events.ts';
import { defineModule } from './module.ts';

export const catalog = defineModule({
  name: 'catalog',
  aggregates: [{ ...CatalogAggregate, eventTypes: PRODUCT_EVENT_TYPES }],
  enums: { ProductType: enums.ProductType },
  mutations: CATALOG_MUTATIONS,
  resources: CATALOG_RESOURCES,
  projections: [catalogProjection],
  events: CATALOG_EVENTS,
  errors: {},
  grants: { 'active/product': ['admin', 'accountant'] },
});
