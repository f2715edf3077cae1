/** The Sales aggregate: one stream per organisation, `Sales-<organisationId>` (domain/sales/events.ts). */
import type { SalesEvent } from '../../domain/sales/events.ts';
import { evolveSales, initialSalesState, type SalesState } from '../../domain/sales/state.ts';
import type { Aggregate } from '../aggregate-store.ts';

export const SalesAggregate: Aggregate<SalesState, SalesEvent> = { category: 'Sales', initialState: initialSalesState, evolve: evolveSales };
