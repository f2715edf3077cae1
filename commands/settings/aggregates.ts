/** The shared settings' aggregate: one stream per organisation. */
import { evolveSettings, initialSettingsState, type SettingsEvent, type SettingsState } from '../../domain/settings/settings.ts';
import type { Aggregate } from '../aggregate-store.ts';

export const SettingsAggregate: Aggregate<SettingsState, SettingsEvent> = { category: 'SharedSettings', initialState: initialSettingsState, evolve: evolveSettings };
