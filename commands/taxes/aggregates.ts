/** The taxes' aggregate: an organisation's own sales tax rates, one stream per organisation. */
import { evolveTaxes, initialTaxesState, type TaxesEvent, type TaxesState } from '../../domain/taxes/sales-tax-rates.ts';
import type { Aggregate } from '../aggregate-store.ts';

export const TaxesAggregate: Aggregate<TaxesState, TaxesEvent> = { category: 'Taxes', initialState: initialTaxesState, evolve: evolveTaxes };
