/** Sales documents: quotes, orders, delivery notes and invoices, on the organisation's Sales stream. */
import { SALES_KPIS } from '../api/graphql/sales-kpis.ts';
import { SalesAggregate } from '../commands/sales/aggregates.ts';
import { SALES_MUTATIONS, SALES_RESOURCE } from '../commands/sales/mutations.ts';
import { SALES_ENUMS } from '../domain/sales/enums.ts';
import { SALES_MESSAGES } from '../domain/sales/errors.ts';
import { SALES_EVENT_TYPES } from '../domain/sales/events.ts';
import { SALES_EVENTS } from '../eventqueue/sales/events.ts';
import { SALES_PROJECTIONS } from '../projections/sales/projections.ts';
import { SALES_RESOURCES } from '../projections/sales/read-models.ts';
import { defineModule } from './module.ts';

const WRITERS = ['admin', 'accountant'] as const;

export const sales = defineModule({
  name: 'sales',
  aggregates: [{ ...SalesAggregate, eventTypes: SALES_EVENT_TYPES }],
  // RequestedAction is the parties' enum (one GraphQL enum for every sub-collection update).
  enums: { ...SALES_ENUMS, SalesDocumentCollection: ['LINES'] },
  mutations: SALES_MUTATIONS,
  resources: SALES_RESOURCES,
  projections: SALES_PROJECTIONS,
  events: SALES_EVENTS,
  errors: SALES_MESSAGES,
  queries: [SALES_KPIS],
  grants: {
    ...Object.fromEntries(['sales-offer', 'sales-order', 'sales-delivery-note', 'sales-invoice'].map((a) => [SALES_RESOURCE(a), WRITERS])),
    // the invoice lifecycle's (closeSalesInvoice, postSalesInvoice) and salesOpenItemSettlement's resources (spec §4.1; the latter as the accounting module grants it).
    'active/common': WRITERS,
    'active/accounting/accounting-entry': WRITERS,
  },
});
