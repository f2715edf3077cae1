/**
 * Deleting a party: refused while a live entry of any exercise names it (by code or id), or a live sales
 * document names it as its customer. Every ledger is held meanwhile (commands/accounting/all-ledgers.ts), so no
 * entry naming it lands before the deletion. The Sales stream is read before any lock (a posting holds it while
 * it waits for the organisation's lock): once the Parties stream is held no document naming the party can be
 * created in this process, so the state this process caches then (else the one read before) is the latest.
 */
import { thirdReferenceKey } from '../../domain/accounting/ledger.ts';
import type { PartyKind } from '../../domain/parties/fields.ts';
import type { SalesState } from '../../domain/sales/state.ts';
import { documentsNameCustomer } from '../../domain/sales/usage.ts';
import { SalesAggregate } from '../sales/aggregates.ts';
import { withAllLedgers } from '../accounting/all-ledgers.ts';
import { IdInput } from '../accounting/inputs.ts';
import { answerInputId, parse, type CommandHandler } from '../handler.ts';
import { decideSealed, partyCommand } from './decision.ts';

export const deleteParty = (kind: PartyKind): CommandHandler => async (services, ctx, raw) => {
  // Refused before any lock is taken.
  const input = parse(IdInput, raw);
  const salesBefore = (await services.aggregates.load(SalesAggregate, ctx.organisationId)).state;
  return withAllLedgers(services, ctx, (ledgers) => {
    const usedBySales = (id: string) => documentsNameCustomer(services.aggregates.cached<SalesState>(SalesAggregate, ctx.organisationId) ?? salesBefore, id);
    const usedByEntries = (codeOrId: string) => ledgers.some((l) => l.thirdCodeUsage.has(thirdReferenceKey(codeOrId))) || usedBySales(codeOrId);
    const deletion = partyCommand(
      IdInput,
      ({ id }, state, c) => decideSealed({ type: 'DeleteParty', kind, partyId: id, now: c.now }, state, c, { usedByEntries }),
      answerInputId,
    );
    return deletion(services, ctx, input);
  });
};
