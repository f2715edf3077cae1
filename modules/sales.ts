/** Sales documents: quotes, orders, delivery notes and invoices, on the organisation's Sales stream. */
import { SalesAggregate } from '../commands/sales/aggregates.ts';
import { SALES_MUTATIONS, SALES_RESOURCE } from '../commands/sales/mutations.ts';
import { SALES_ENUMS } from '../domain/sales/enums.ts';
import { SALES_MESSAGES } from '../domain/sales/errors.ts';
import { SALES_EVENT_TYPES } from '../domain/sales/events.ts';
import { defineModule } from './module.ts';

const WRITERS = ['admin', 'accountant'] as const;

export const sales = defineModule({
  name: 'sales',
  aggregates: [{ ...SalesAggregate, eventTypes: SALES_EVENT_TYPES }],
  // RequestedAction is the parties' enum (one GraphQL enum for every sub-collection update).
  enums: { ...SALES_ENUMS, SalesDocumentCollection: ['LINES'] },
  mutations: SALES_MUTATIONS,
  // The read models and the queue catalog are the read side's (projections/sales, eventqueue/sales/events.ts):
  // merged in from its branch; empty here.
  resources: [],
  projections: [],
  events: {},
  errors: SALES_MESSAGES,
  grants: Object.fromEntries(['sales-offer', 'sales-order', 'sales-delivery-note', 'sales-invoice'].map((a) => [SALES_RESOURCE(a), WRITERS])),
});
