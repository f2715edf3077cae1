/** Which shared-settings events reach trigger queues, and under which object and action. */
import type { SettingsEvent } from '../../domain/settings/settings.ts';
import type { EventCatalog } from '../event-catalog.ts';

export const SETTINGS_EVENTS: EventCatalog<SettingsEvent['type']> = {
  // Business and job areas have no code: their unique name is their business id.
  BusinessAreaCreated: (d) => ({ object: 'businessArea', event: 'after.create', key: d.businessAreaId, id: d.name }),
  BusinessAreaDeleted: (d) => ({ object: 'businessArea', event: 'after.delete', key: d.businessAreaId, id: d.name }),
  JobAreaCreated: (d) => ({ object: 'jobArea', event: 'after.create', key: d.jobAreaId, id: d.name }),
  // Payment means and terms are named by their code where they have one (all made before issue 17 do, and
  // an old deletion carries nothing else), else by their unique description or name; payment methods by
  // their unique reference name. A creation and its deletion thus carry the same name.
  PaymentMeanCreated: (d) => ({ object: 'paymentMean', event: 'after.create', key: d.paymentMeanId, id: d.code ?? d.description }),
  PaymentMeanDeleted: (d) => ({ object: 'paymentMean', event: 'after.delete', key: d.paymentMeanId, id: d.code ?? d.description }),
  PaymentMethodCreated: (d) => ({ object: 'paymentMethod', event: 'after.create', key: d.paymentMethodId, id: d.referenceName }),
  PaymentMethodUpdated: (d) => ({ object: 'paymentMethod', event: 'after.update', key: d.paymentMethodId, id: d.referenceName }),
  PaymentMethodDeleted: (d) => ({ object: 'paymentMethod', event: 'after.delete', key: d.paymentMethodId, id: d.referenceName }),
  PaymentTermCreated: (d) => ({ object: 'paymentTerm', event: 'after.create', key: d.paymentTermId, id: d.code ?? d.name }),
  PaymentTermDeleted: (d) => ({ object: 'paymentTerm', event: 'after.delete', key: d.paymentTermId, id: d.code ?? d.name }),
};
