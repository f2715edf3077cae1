/**
 * Projection of the SharedSettings events (and of OrganisationCreated, which installs the country's
 * document types) into their read models.
 */
import type { OrganisationEvent } from '../../domain/accounting/organisation.ts';
import { documentTypeId, documentTypesFor } from '../../domain/settings/document-types.ts';
import { SETTINGS_EVENT_TYPES, type SettingsEvent } from '../../domain/settings/settings.ts';
import type { RecordedEvent } from '../../eventstore/port.ts';
import { projectionsOf, type Projection } from '../engine/projection.ts';
import { BusinessArea, DocumentType, JobArea, PaymentMean, PaymentMethod, PaymentTerm, PaymentTermLine, SETTINGS_RESOURCES } from './read-models.ts';

const org = (e: RecordedEvent) => e.metadata.organisationId as string;

export const settingsProjection: Projection = {
  name: 'shared-settings',
  // 1: issue 17's values (payment term lines REMAINING_AMOUNT, DAY_OF_PAYMENT...), read through the upcasters.
  revision: 1,
  resources: SETTINGS_RESOURCES,
  eventTypes: ['OrganisationCreated', ...SETTINGS_EVENT_TYPES],
  apply(event, w, t) {
    const e = { type: event.type, data: event.data } as SettingsEvent | OrganisationEvent;
    const organisationId = org(event);
    switch (e.type) {
      case 'OrganisationCreated': {
        const d = e.data;
        for (const type of documentTypesFor(d.country)) {
          w.insert(DocumentType, t(DocumentType), { ...type, organisationId, id: documentTypeId(d.organisationId, type.code), creationDate: d.at, modificationDate: d.at });
        }
        return;
      }
      case 'BusinessAreaCreated':
        return w.insert(BusinessArea, t(BusinessArea), { organisationId, id: e.data.businessAreaId, name: e.data.name, creationDate: e.data.at, modificationDate: e.data.at });
      case 'BusinessAreaDeleted':
        return w.delete(BusinessArea, t(BusinessArea), { id: e.data.businessAreaId });
      case 'JobAreaCreated':
        return w.insert(JobArea, t(JobArea), { organisationId, id: e.data.jobAreaId, name: e.data.name, creationDate: e.data.at, modificationDate: e.data.at });
      case 'PaymentMeanCreated': {
        const { paymentMeanId, at, ...fields } = e.data;
        return w.insert(PaymentMean, t(PaymentMean), { ...fields, organisationId, id: paymentMeanId, creationDate: at, modificationDate: at });
      }
      case 'PaymentMeanDeleted':
        return w.delete(PaymentMean, t(PaymentMean), { id: e.data.paymentMeanId });
      case 'PaymentMethodCreated': {
        const { paymentMethodId, at, ...fields } = e.data;
        return w.insert(PaymentMethod, t(PaymentMethod), { ...fields, organisationId, id: paymentMethodId, creationDate: at, modificationDate: at });
      }
      case 'PaymentMethodUpdated':
        return w.update(PaymentMethod, t(PaymentMethod), { id: e.data.paymentMethodId }, { ...e.data.changes, modificationDate: e.data.at });
      case 'PaymentMethodDeleted':
        return w.delete(PaymentMethod, t(PaymentMethod), { id: e.data.paymentMethodId });
      case 'PaymentTermCreated': {
        const d = e.data;
        w.insert(PaymentTerm, t(PaymentTerm), { organisationId, id: d.paymentTermId, code: d.code, name: d.name, disabled: d.disabled, creationDate: d.at, modificationDate: d.at });
        for (const l of d.lines) {
          w.insert(PaymentTermLine, t(PaymentTermLine), { ...l, organisationId, id: l.lineId, paymentTermId: d.paymentTermId, payDaysList: l.payDays.join(','), creationDate: d.at, modificationDate: d.at });
        }
        return;
      }
      case 'PaymentTermDeleted':
        w.delete(PaymentTermLine, t(PaymentTermLine), { paymentTermId: e.data.paymentTermId });
        return w.delete(PaymentTerm, t(PaymentTerm), { id: e.data.paymentTermId });
    }
  },
};

export const PROJECTIONS = projectionsOf(import.meta.url, [settingsProjection]);
