/** Creating and updating a customer, supplier or employee. */
import type { z } from 'zod';
import type { PartyKind } from '../../domain/parties/fields.ts';
import { defined, type CommandHandler } from '../handler.ts';
import { decideSealed, partyCommand } from './decision.ts';
import { toPartyInput } from './party-input.ts';

type Loose = Record<string, any>;

/** Answers the party's id and its code (generated when the client gave none). */
export const createParty = (kind: PartyKind, schema: z.ZodType): CommandHandler => partyCommand(
  schema as z.ZodType<Loose>,
  ({ code, ...values }, state, c) => decideSealed({
    type: 'CreateParty', kind, partyId: c.newId(kind), code: code ?? null, input: toPartyInput(kind, values, c.newId), now: c.now,
  }, state, c),
  ([created]) => ({ id: created.data.partyId, code: created.data.code }),
);

/** Only the fields the client sent change; a nested list sent replaces the party's whole list. */
export const updateParty = (kind: PartyKind, schema: z.ZodType): CommandHandler => partyCommand(
  schema as z.ZodType<Loose>,
  ({ id, ...values }, state, c) => decideSealed({ type: 'UpdateParty', kind, partyId: id, input: toPartyInput(kind, defined(values), c.newId), now: c.now }, state, c),
  (_, input) => ({ id: input.id as string }),
);
