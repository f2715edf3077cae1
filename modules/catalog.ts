/** The product catalogue: goods and services sold and bought, and the sales tariffs and discount groups that price them. */
import { CatalogAggregate } from '../commands/catalog/aggregates.ts';
import { CATALOG_MUTATIONS } from '../commands/catalog/mutations.ts';
import { CATALOG_ENUMS } from '../domain/catalog/enums.ts';
import { CATALOG_MESSAGES } from '../domain/catalog/errors.ts';
import { CATALOG_EVENT_TYPES } from '../domain/catalog/products.ts';
import { PROJECTIONS } from '../projections/catalog/projections.ts';
import { CATALOG_RESOURCES } from '../projections/catalog/resources.ts';
import { CATALOG_EVENTS } from '../eventqueue/catalog/events.ts';
import { defineModule } from './module.ts';

export const catalog = defineModule({
  name: 'catalog',
  aggregates: [{ ...CatalogAggregate, eventTypes: CATALOG_EVENT_TYPES }],
  enums: CATALOG_ENUMS,
  mutations: CATALOG_MUTATIONS,
  resources: CATALOG_RESOURCES,
  projections: PROJECTIONS,
  events: CATALOG_EVENTS,
  errors: CATALOG_MESSAGES,
  grants: { 'active/product': ['admin', 'accountant'] },
});
