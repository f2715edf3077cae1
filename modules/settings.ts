/** Shared settings: business and job areas, payment means and terms, the country's document types. */
import { SettingsAggregate } from '../commands/settings/aggregates.ts';
import { SETTINGS_MUTATIONS } from '../commands/settings/mutations.ts';
import * as enums from '../domain/enums.ts';
import { SETTINGS_EVENT_TYPES } from '../domain/settings/settings.ts';
import { settingsProjection } from '../projections/settings/projections.ts';
import { SETTINGS_RESOURCES } from '../projections/settings/read-models.ts';
import { SETTINGS_EVENTS } from '../eventqueue/settings/events.ts';
import { defineModule } from './module.ts';

export const settings = defineModule({
  name: 'settings',
  aggregates: [{ ...SettingsAggregate, eventTypes: SETTINGS_EVENT_TYPES }],
  enums: {
    PaymentTermLineCondition: enums.PaymentTermLineCondition,
    PaymentTermLineType: enums.PaymentTermLineType,
    PaymentMethodType: enums.PaymentMethodType,
  },
  mutations: SETTINGS_MUTATIONS,
  resources: SETTINGS_RESOURCES,
  projections: [settingsProjection],
  events: SETTINGS_EVENTS,
  errors: {},
  grants: { 'active/shared-settings': ['admin', 'accountant'] },
});
