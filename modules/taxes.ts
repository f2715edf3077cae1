/** Taxes: the country's taxes, tax treatments and tax groups, installed with the organisation (reference data). */
import { TAX_ENUMS } from '../domain/taxes/enums.ts';
import { TAX_MESSAGES } from '../domain/taxes/errors.ts';
import { PROJECTIONS } from '../projections/taxes/projections.ts';
import { TAX_RESOURCES } from '../projections/taxes/read-models.ts';
import { defineModule } from './module.ts';

export const taxes = defineModule({
  name: 'taxes',
  // No aggregate nor mutation yet: the rows are the catalogue's (an organisation's own US/CA rates would be its first).
  aggregates: [],
  enums: TAX_ENUMS,
  mutations: [],
  resources: TAX_RESOURCES,
  projections: PROJECTIONS,
  events: {},
  errors: TAX_MESSAGES,
  grants: {},
});
