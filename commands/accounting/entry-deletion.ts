/** An entry's deletion, found and decided from the write side only (never from a read model). */
import { AccountingErrors } from '../../domain/accounting/errors.ts';
import type { OrganisationState } from '../../domain/accounting/organisation.ts';
import { fail } from '../../domain/errors.ts';
import { parse, type CommandHandler } from '../handler.ts';
import type { CommandServices } from '../services.ts';
import { LedgerAggregate } from './aggregates.ts';
import { IdInput } from './inputs.ts';
import { ledgerCommand } from './ledger-command.ts';
import { undoSettlementOf } from '../sales/settlement-undo.ts';
import { unlessPostingEntry } from '../sales/posting-entry-guard.ts';

export const deleteAccountingEntry: CommandHandler = async (services, ctx, raw) => {
  const { id } = parse(IdInput, raw);
  // A retry is answered before looking the entry up: the first attempt deleted it.
  const replay = await services.aggregates.recorded(ctx);
  if (replay) return { id, position: replay.position };
  // Under the organisation's shared lock first, as postings take it, then the Sales stream's (organisation-locks.ts).
  return services.locks.shared(ctx.organisationId, async () => {
    // Twice at most: an entry that became a settlement's between the two checks is undone on the second pass.
    for (let pass = 0; pass < 2; pass++) {
      // Read under the lock: lock dates change under it held alone, so the deletion is decided with the dates as they stand.
      const org = await services.organisation(ctx.organisationId);
      // A settlement's payment entry: deleting it undoes the settlement (the Sales stream decides both).
      const undone = await undoSettlementOf(services, ctx, org, id);
      if (undone) return undone;
      // The entry that posted a sales invoice or credit note stays (a credit note corrects it).
      const deleted = await unlessPostingEntry(services, ctx, id, async () => {
        const exerciseId = (await exerciseOfEntry(services, org, id)) ?? fail(AccountingErrors.entryNotFound, { id });
        const r = await ledgerCommand(services, ctx, org, exerciseId, { type: 'DeleteAccountingEntry', entryId: id, now: services.now() });
        return { id, position: r.position };
      });
      if (deleted) return deleted;
    }
    throw new Error(`invariant violated: the entry ${id} is a settlement's, yet no standing settlement names it`);
  });
};

/**
 * The exercise whose ledger holds the entry: the organisation's exercises, newest first (where entries are
 * deleted), each ledger loaded until one holds it. An entry never moves between ledgers, and the one found
 * is loaded already for the deletion (the aggregate cache keeps it); a read model could still lack an entry
 * just posted, or hold one another process has just deleted.
 */
async function exerciseOfEntry(services: CommandServices, org: OrganisationState, entryId: string): Promise<string | undefined> {
  const newestFirst = [...org.exercises.values()].sort((a, b) => (a.startDate < b.startDate ? 1 : -1));
  for (const exercise of newestFirst) {
    const { state } = await services.aggregates.load(LedgerAggregate, exercise.id);
    if (state.entries.has(entryId)) return exercise.id;
  }
  return undefined;
}
