/** The aggregates of parties, shared settings and the product catalogue: one stream each per organisation. */
import { evolveParties, initialPartiesState, type PartiesState, type PartyEvent } from '../../domain/parties/parties.ts';
import type { Aggregate } from '../aggregate-store.ts';

export const PartiesAggregate: Aggregate<PartiesState, PartyEvent> = { category: 'Parties', initialState: initialPartiesState, evolve: evolveParties };
