/** Which shared-settings events reach trigger queues, and under which object and action. */
import type { SettingsEvent } from '../../domain/settings/settings.ts';
import type { EventCatalog } from '../event-catalog.ts';

export const SETTINGS_EVENTS: EventCatalog<SettingsEvent['type']> = {
  // Business and job areas have no code: their unique name is their business id.
  BusinessAreaCreated: (d) => ({ object: 'businessArea', event: 'after.create', key: d.businessAreaId, id: d.name }),
  BusinessAreaDeleted: (d) => ({ object: 'businessArea', event: 'after.delete', key: d.businessAreaId, id: d.name }),
  JobAreaCreated: (d) => ({ object: 'jobArea', event: 'after.create', key: d.jobAreaId, id: d.name }),
  PaymentMeanCreated: (d) => ({ object: 'paymentMean', event: 'after.create', key: d.paymentMeanId, id: d.code }),
  PaymentMeanDeleted: (d) => ({ object: 'paymentMean', event: 'after.delete', key: d.paymentMeanId, id: d.code }),
  PaymentTermCreated: (d) => ({ object: 'paymentTerm', event: 'after.create', key: d.paymentTermId, id: d.code }),
  PaymentTermDeleted: (d) => ({ object: 'paymentTerm', event: 'after.delete', key: d.paymentTermId, id: d.code }),
};
