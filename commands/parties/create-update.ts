/** Creating and updating a customer, supplier or employee. */
import type { z } from 'zod';
import type { PartyKind } from '../../domain/parties/fields.ts';
import { defined, type CommandHandler, type DecisionContext } from '../handler.ts';
import { decideSealed, partyCommand } from './decision.ts';
import { toPartyInput } from './party-input.ts';

type Loose = Record<string, any>;

/**
 * The new party's id, drawn once per command: without an idempotency key ids are random, and a decision
 * run again after a conflict must seal with the subject key it already made, not leave that key orphaned.
 */
const drawnIds = new WeakMap<DecisionContext, string>();
function newPartyId(kind: PartyKind, c: DecisionContext): string {
  const id = drawnIds.get(c) ?? c.newId(kind);
  drawnIds.set(c, id);
  return id;
}

/** Answers the party's id and its code (generated when the client gave none). */
export const createParty = (kind: PartyKind, schema: z.ZodType): CommandHandler => partyCommand(
  schema as z.ZodType<Loose>,
  ({ code, ...values }, state, c) => decideSealed({
    type: 'CreateParty', kind, partyId: newPartyId(kind, c), code: code ?? null, input: toPartyInput(kind, values, c.newId), now: c.now,
  }, state, c),
  ([created]) => ({ id: created.data.partyId, code: created.data.code }),
);

/** Only the fields the client sent change; a nested list sent replaces the party's whole list. */
export const updateParty = (kind: PartyKind, schema: z.ZodType): CommandHandler => partyCommand(
  schema as z.ZodType<Loose>,
  ({ id, ...values }, state, c) => decideSealed({ type: 'UpdateParty', kind, partyId: id, input: toPartyInput(kind, defined(values), c.newId), now: c.now }, state, c),
  (_, input) => ({ id: input.id as string }),
);
