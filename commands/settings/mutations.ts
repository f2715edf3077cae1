/** The shared-settings mutations: business and job areas, payment means and terms. */
import { mutation, type MutationSpec } from '../mutation.ts';
import type { CommandServices } from '../services.ts';
import { IdOnly, BusinessAreaCreateInput, JobAreaCreateInput, PaymentMeanCreateInput, PaymentTermCreateInput } from '../parties/inputs.ts';
import { SettingsCommands } from '../settings/handlers.ts';

const settings = (s: CommandServices) => new SettingsCommands(s);
const id = (entity: string, verb: string) => IdOnly(`${entity}${verb}GLDtoInput`);
const SHARED = 'active/shared-settings';

export const SETTINGS_MUTATIONS: MutationSpec[] = [
  mutation('create', 'BusinessArea', BusinessAreaCreateInput, 'CORE', ['add-shared-settings', SHARED, 'add'], (s, c, i) => settings(s).createBusinessArea(c, i)),
  mutation('delete', 'BusinessArea', id('BusinessArea', 'Delete'), 'CORE', ['delete-shared-settings', SHARED, 'delete'], (s, c, i) => settings(s).deleteBusinessArea(c, i)),
  mutation('create', 'JobArea', JobAreaCreateInput, 'CORE', ['add-shared-settings', SHARED, 'add'], (s, c, i) => settings(s).createJobArea(c, i)),
  mutation('create', 'PaymentMean', PaymentMeanCreateInput, 'CORE', ['add-shared-settings', SHARED, 'add'], (s, c, i) => settings(s).createPaymentMean(c, i)),
  mutation('delete', 'PaymentMean', id('PaymentMean', 'Delete'), 'CORE', ['delete-shared-settings', SHARED, 'delete'], (s, c, i) => settings(s).deletePaymentMean(c, i)),
  mutation('create', 'PaymentTerm', PaymentTermCreateInput, 'CORE', ['add-shared-settings', SHARED, 'add'], (s, c, i) => settings(s).createPaymentTerm(c, i)),
  mutation('delete', 'PaymentTerm', id('PaymentTerm', 'Delete'), 'CORE', ['delete-shared-settings', SHARED, 'delete'], (s, c, i) => settings(s).deletePaymentTerm(c, i)),
];
