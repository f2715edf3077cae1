/**
 * GDPR erasure: decided first (the party exists, of this kind, not yet erased), then the subject's key is
 * destroyed, then the event appended. Should the append fail, the data is already unreadable and a retry
 * completes the record (destroying is idempotent).
 */
import type { PartyKind } from '../../domain/parties/fields.ts';
import { IdInput } from '../accounting/inputs.ts';
import { answerInputId, type CommandHandler } from '../handler.ts';
import { decideSealed, partyCommand } from './decision.ts';

export const applyGdpr = (kind: PartyKind): CommandHandler => partyCommand(
  IdInput,
  ({ id }, state, c) => decideSealed({ type: 'ApplyGdpr', kind, partyId: id, now: c.now }, state, c, {
    afterDecide: () => c.services.keys.destroy(c.ctx.organisationId, id),
  }),
  answerInputId,
);
