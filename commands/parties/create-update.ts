/** Creating and updating a customer, supplier or employee. */
import type { z } from 'zod';
import type { PartyKind } from '../../domain/parties/fields.ts';
import { Errors, Reasons, fail } from '../../domain/errors.ts';
import { requireParty } from '../../domain/parties/parties.ts';
import { referringToChart } from '../accounting/chart.ts';
import { defined, type CommandHandler } from '../handler.ts';
import { currentItems } from './current-items.ts';
import { decideSealed, partyCommand } from './decision.ts';
import { toPartyInput } from './party-input.ts';

type Loose = Record<string, any>;

/**
 * Answers the party's id and its code (generated when the client gave none). Its default accounts are not
 * deleted between its check and its append (referringToChart), nor are an update's.
 */
export const createParty = (kind: PartyKind, schema: z.ZodType): CommandHandler => referringToChart(partyCommand(
  schema as z.ZodType<Loose>,
  ({ code, ...values }, state, c) => decideSealed({
    type: 'CreateParty', kind, partyId: c.newId(kind), code: code ?? null, input: toPartyInput(kind, values, c.newId), now: c.now,
  }, state, c),
  ([created]) => ({ id: created.data.partyId, code: created.data.code }),
));

/**
 * Only the fields the client sent change; nested lists are patched item by item (sub-collections.ts),
 * from the lists as they stand. The root's requestedAction can only be MODIFY on an update.
 */
export const updateParty = (kind: PartyKind, schema: z.ZodType): CommandHandler => referringToChart(partyCommand(
  schema as z.ZodType<Loose>,
  async ({ id, code, ...values }, state, c) => {
    if (values.requestedAction != null && values.requestedAction !== 'MODIFY') {
      fail(Errors.invalidInput, { field: 'requestedAction', value: values.requestedAction, reason: Reasons.badValue });
    }
    const patchesLists = values.addresses != null || values.contacts != null || values.replaceAll?.length > 0;
    const current = patchesLists ? await currentItems(c, requireParty(state, kind, id)) : undefined;
    const input = toPartyInput(kind, defined(values), c.newId, current);
    return decideSealed({ type: 'UpdateParty', kind, partyId: id, code: code ?? null, input, now: c.now }, state, c);
  },
  (_, input) => ({ id: input.id as string }),
));
