/**
 * Deletion guards read every ledger of the organisation: a chart account, a journal type or a party may go
 * only while no live entry of any exercise uses it. The organisation's lock is held alone (no posting starts
 * in any process) and every ledger's stream lock, so no entry lands between the check and the deletion.
 */
import type { LedgerState } from '../../domain/accounting/ledger.ts';
import { AggregateStore, type CommandContext } from '../aggregate-store.ts';
import type { CommandServices } from '../services.ts';
import { LedgerAggregate } from './aggregates.ts';

export function withAllLedgers<T>(services: CommandServices, ctx: CommandContext, fn: (ledgers: LedgerState[]) => Promise<T>): Promise<T> {
  return services.locks.exclusive(ctx.organisationId, async () => {
    const org = await services.organisation(ctx.organisationId);
    const ids = [...org.exercises.keys()];
    const lockNames = ids.map((id) => AggregateStore.streamId(LedgerAggregate.category, id));
    return services.aggregates.withLocks(lockNames, async () => fn(await Promise.all(ids.map(async (id) => (await services.aggregates.loadHeld(LedgerAggregate, id)).state))));
  });
}
