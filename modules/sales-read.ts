/**
 * TEMPORARY (branch h-rm): the sales read side registered on its own so its tests run before modules/sales.ts
 * (the write side's) exists. The lead merges this into modules/sales.ts and deletes this file.
 */
import { SALES_ENUMS } from '../domain/sales/enums.ts';
import { SALES_EVENTS } from '../eventqueue/sales/events.ts';
import { SALES_PROJECTIONS } from '../projections/sales/projections.ts';
import { SALES_RESOURCES } from '../projections/sales/read-models.ts';
import { defineModule } from './module.ts';

export const salesRead = defineModule({
  name: 'sales',
  aggregates: [], // the write side's SalesAggregate, with SALES_EVENT_TYPES
  enums: SALES_ENUMS,
  mutations: [],
  resources: SALES_RESOURCES,
  projections: SALES_PROJECTIONS,
  events: SALES_EVENTS,
  errors: {},
  grants: {},
});
