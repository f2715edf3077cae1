/** The aggregates of parties, shared settings and the product catalogue: one stream each per organisation. */
import { evolveParties, initialPartiesState, type PartiesState, type PartyEvent } from '../../domain/parties/parties.ts';
import { evolveCatalog, initialCatalogState, type CatalogState, type ProductEvent } from '../../domain/catalog/products.ts';
import { evolveSettings, initialSettingsState, type SettingsEvent, type SettingsState } from '../../domain/settings/settings.ts';
import type { Aggregate } from '../aggregate-store.ts';

export const PartiesAggregate: Aggregate<PartiesState, PartyEvent> = { category: 'Parties', initialState: initialPartiesState, evolve: evolveParties };
export const SettingsAggregate: Aggregate<SettingsState, SettingsEvent> = { category: 'SharedSettings', initialState: initialSettingsState, evolve: evolveSettings };
export const CatalogAggregate: Aggregate<CatalogState, ProductEvent> = { category: 'Catalog', initialState: initialCatalogState, evolve: evolveCatalog };
