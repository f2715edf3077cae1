/** The sales tax rate mutations (US/CA organisations set their own rates): under the shared settings' grants. */
import { mutation, type MutationSpec } from '../mutation.ts';
import * as handle from './handlers.ts';
import * as input from './inputs.ts';

const SHARED = 'active/shared-settings';

export const TAX_MUTATIONS: MutationSpec[] = [
  mutation('create', 'Tax', input.TaxCreateInput, 'CORE', ['add-shared-settings', SHARED, 'add'], handle.createTax),
  mutation('update', 'Tax', input.TaxUpdateInput, 'CORE', ['update-shared-settings', SHARED, 'update'], handle.updateTax),
  mutation('delete', 'Tax', input.TaxDeleteInput, 'CORE', ['delete-shared-settings', SHARED, 'delete'], handle.deleteTax),
];
