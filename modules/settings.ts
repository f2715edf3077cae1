/** Shared settings: business and job areas, payment means, methods and terms, the country's document types. */
import { SettingsAggregate } from '../commands/settings/aggregates.ts';
import { SETTINGS_MUTATIONS } from '../commands/settings/mutations.ts';
import { SETTINGS_ENUMS } from '../domain/settings/enums.ts';
import { SETTINGS_MESSAGES } from '../domain/settings/errors.ts';
import { SETTINGS_EVENT_TYPES } from '../domain/settings/settings.ts';
import { PROJECTIONS } from '../projections/settings/projections.ts';
import { SETTINGS_RESOURCES } from '../projections/settings/read-models.ts';
import { SETTINGS_EVENTS } from '../eventqueue/settings/events.ts';
import { defineModule } from './module.ts';

export const settings = defineModule({
  name: 'settings',
  aggregates: [{ ...SettingsAggregate, eventTypes: SETTINGS_EVENT_TYPES }],
  enums: SETTINGS_ENUMS,
  mutations: SETTINGS_MUTATIONS,
  resources: SETTINGS_RESOURCES,
  projections: PROJECTIONS,
  events: SETTINGS_EVENTS,
  errors: SETTINGS_MESSAGES,
  grants: { 'active/shared-settings': ['admin', 'accountant'] },
});
