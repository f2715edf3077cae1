/**
 * Taxes: the country's taxes, tax treatments and tax groups, installed with the organisation (reference data),
 * and a US/CA organisation's own sales tax rates (the Taxes aggregate).
 */
import { TaxesAggregate } from '../commands/taxes/aggregates.ts';
import { TAX_MUTATIONS } from '../commands/taxes/mutations.ts';
import { TAX_ENUMS } from '../domain/taxes/enums.ts';
import { TAX_MESSAGES } from '../domain/taxes/errors.ts';
import { TAXES_EVENT_TYPES } from '../domain/taxes/sales-tax-rates.ts';
import { TAX_EVENTS } from '../eventqueue/taxes/events.ts';
import { PROJECTIONS } from '../projections/taxes/projections.ts';
import { TAX_RESOURCES } from '../projections/taxes/read-models.ts';
import { defineModule } from './module.ts';

export const taxes = defineModule({
  name: 'taxes',
  aggregates: [{ ...TaxesAggregate, eventTypes: TAXES_EVENT_TYPES }],
  enums: TAX_ENUMS,
  mutations: TAX_MUTATIONS,
  resources: TAX_RESOURCES,
  projections: PROJECTIONS,
  events: TAX_EVENTS,
  errors: TAX_MESSAGES,
  // Its rates are shared settings of the organisation (createTax and the rest name active/shared-settings).
  grants: { 'active/shared-settings': ['admin', 'accountant'] },
});
