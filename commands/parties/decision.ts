/**
 * What every party command shares: the organisation's Parties stream, decided with the organisation and
 * the shared settings as facts, every event's personal part sealed before it is appended.
 */
import type { z } from 'zod';
import { decideParties, type PartiesState, type PartyCommand, type PartyEvent, type PartyFacts } from '../../domain/parties/parties.ts';
import { command, type CommandHandler, type CommandResult, type DecisionContext } from '../handler.ts';
import { SettingsAggregate } from '../settings/aggregates.ts';
import { CatalogAggregate } from '../catalog/aggregates.ts';
import { PartiesAggregate } from './aggregates.ts';
import { sealed } from './sealing.ts';

export interface PartyFactsAndEffects {
  /** The deletion guard's answer (no party is in use otherwise). */
  usedByEntries?: PartyFacts['usedByEntries'];
  /** Runs once the command is decided, before its events are appended (erasure destroys the key there). */
  afterDecide?: () => Promise<void>;
}

/** Decides `party` against the parties' state and seals the events it records. */
export async function decideSealed(party: PartyCommand, state: PartiesState, c: DecisionContext, more: PartyFactsAndEffects = {}): Promise<PartyEvent[]> {
  const organisationId = c.ctx.organisationId;
  const organisation = await c.organisation();
  const [settings, catalog] = await Promise.all([c.held(SettingsAggregate), c.held(CatalogAggregate)]);
  const priceListExists = (kind: 'salesTariff' | 'salesDiscount', id: string) => catalog.priceLists.lists[kind].has(id);
  const events = decideParties(party, state, { organisation, settings, usedByEntries: more.usedByEntries ?? (() => false), priceListExists });
  await more.afterDecide?.();
  return Promise.all(events.map((e) => sealed(c.services.keys, organisationId, e)));
}

/**
 * A party command: the settings' and the catalogue's streams are held too, so a business area cannot be
 * deleted while a party starts using it, nor a tariff appear or go between its check and the append.
 */
export function partyCommand<I>(
  input: z.ZodType<I>,
  decide: (input: I, state: PartiesState, c: DecisionContext) => Promise<PartyEvent[]>,
  answer: (events: PartyEvent[], input: I) => Omit<CommandResult, 'position'>,
): CommandHandler {
  return command({ input, aggregate: PartiesAggregate, alsoHold: [SettingsAggregate, CatalogAggregate], decide, answer });
}
