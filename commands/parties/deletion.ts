/**
 * Deleting a party: refused while a live entry of any exercise names it (by code or id), or a live sales
 * document names it as its customer. Every ledger is held meanwhile (commands/accounting/all-ledgers.ts), so no
 * entry naming it lands before the deletion, and the organisation's lock alone: the commands that make a sales
 * document name a customer share it (commands/sales/mutations.ts), so the Sales stream read under it is the latest
 * in every process. Read with its stream's lock taken and let go: no command holds Sales while waiting on a
 * ledger without the organisation's shared lock (postings and settlements take it first).
 */
import { thirdReferenceKey } from '../../domain/accounting/ledger.ts';
import type { PartyKind } from '../../domain/parties/fields.ts';
import { documentsNameCustomer } from '../../domain/sales/usage.ts';
import { SalesAggregate } from '../sales/aggregates.ts';
import { withAllLedgers } from '../accounting/all-ledgers.ts';
import { IdInput } from '../accounting/inputs.ts';
import { answerInputId, parse, type CommandHandler } from '../handler.ts';
import { decideSealed, partyCommand } from './decision.ts';

export const deleteParty = (kind: PartyKind): CommandHandler => async (services, ctx, raw) => {
  // Refused before any lock is taken.
  const input = parse(IdInput, raw);
  return withAllLedgers(services, ctx, async (ledgers) => {
    const { state: sales } = await services.aggregates.load(SalesAggregate, ctx.organisationId);
    const usedBySales = (id: string) => documentsNameCustomer(sales, id);
    const usedByEntries = (codeOrId: string) => ledgers.some((l) => l.thirdCodeUsage.has(thirdReferenceKey(codeOrId))) || usedBySales(codeOrId);
    const deletion = partyCommand(
      IdInput,
      ({ id }, state, c) => decideSealed({ type: 'DeleteParty', kind, partyId: id, now: c.now }, state, c, { usedByEntries }),
      answerInputId,
    );
    return deletion(services, ctx, input);
  });
};
