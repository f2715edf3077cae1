/** The shared-settings mutations: business and job areas, payment means, methods and terms. */
import { mutation, type MutationSpec } from '../mutation.ts';
import * as handle from './handlers.ts';
import * as input from './inputs.ts';

const SHARED = 'active/shared-settings';
const ADD = ['add-shared-settings', SHARED, 'add'] as const;
const UPDATE = ['update-shared-settings', SHARED, 'update'] as const;
const DELETE = ['delete-shared-settings', SHARED, 'delete'] as const;

export const SETTINGS_MUTATIONS: MutationSpec[] = [
  mutation('create', 'BusinessArea', input.BusinessAreaCreateInput, 'CORE', [...ADD], handle.createBusinessArea),
  mutation('delete', 'BusinessArea', input.BusinessAreaDeleteInput, 'CORE', [...DELETE], handle.deleteBusinessArea),
  mutation('create', 'JobArea', input.JobAreaCreateInput, 'CORE', [...ADD], handle.createJobArea),
  mutation('create', 'PaymentMean', input.PaymentMeanCreateInput, 'CORE', [...ADD], handle.createPaymentMean),
  mutation('delete', 'PaymentMean', input.PaymentMeanDeleteInput, 'CORE', [...DELETE], handle.deletePaymentMean),
  mutation('create', 'PaymentMethod', input.PaymentMethodCreateInput, 'CORE', [...ADD], handle.createPaymentMethod),
  mutation('update', 'PaymentMethod', input.PaymentMethodUpdateInput, 'CORE', [...UPDATE], handle.updatePaymentMethod),
  mutation('delete', 'PaymentMethod', input.PaymentMethodDeleteInput, 'CORE', [...DELETE], handle.deletePaymentMethod),
  mutation('create', 'PaymentTerm', input.PaymentTermCreateInput, 'CORE', [...ADD], handle.createPaymentTerm),
  mutation('delete', 'PaymentTerm', input.PaymentTermDeleteInput, 'CORE', [...DELETE], handle.deletePaymentTerm),
];
