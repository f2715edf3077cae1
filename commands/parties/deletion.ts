/**
 * Deleting a party: refused while a live entry of any exercise names it (by code or id). Every ledger is
 * held meanwhile (commands/accounting/all-ledgers.ts), so no entry naming it lands before the deletion.
 */
import { thirdReferenceKey } from '../../domain/accounting/ledger.ts';
import type { PartyKind } from '../../domain/parties/fields.ts';
import { withAllLedgers } from '../accounting/all-ledgers.ts';
import { IdInput } from '../accounting/inputs.ts';
import { answerInputId, parse, type CommandHandler } from '../handler.ts';
import { decideSealed, partyCommand } from './decision.ts';

export const deleteParty = (kind: PartyKind): CommandHandler => async (services, ctx, raw) => {
  // Refused before any lock is taken.
  const input = parse(IdInput, raw);
  return withAllLedgers(services, ctx, (ledgers) => {
    const usedByEntries = (codeOrId: string) => ledgers.some((l) => l.thirdCodeUsage.has(thirdReferenceKey(codeOrId)));
    const deletion = partyCommand(
      IdInput,
      ({ id }, state, c) => decideSealed({ type: 'DeleteParty', kind, partyId: id, now: c.now }, state, c, { usedByEntries }),
      answerInputId,
    );
    return deletion(services, ctx, input);
  });
};
