/**
 * Commands decide from the write side only: a posting loads its organisation once (counted on the real
 * PostgreSQL store, through a decorator that only counts), and an entry's deletion finds the entry's
 * exercise in the ledgers, not in a read model that may not hold it yet.
 */
import t from 'tap';
import { testCommands, type TestCommands } from './helpers/commands.ts';
import { AggregateStore } from '../commands/aggregate-store.ts';
import type { EventStore } from '../eventstore/port.ts';
import { AccountingErrors } from '../domain/accounting/errors.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { commands, mutate, store, daemon } = api.service;
const organisationId = api.organisationId;
const ctx = { organisationId };
const year = new Date().getUTCFullYear();
const organisationStream = AggregateStore.streamId('Organisation', organisationId);

/** The real store, counting the reads of the organisation's stream. */
function countingStore(): { store: EventStore; organisationReads: () => number } {
  let reads = 0;
  const counting: EventStore = Object.create(store, {
    readStream: { value: (id: string, o?: object) => ((reads += id === organisationStream ? 1 : 0), store.readStream(id, o)) },
  });
  return { store: counting, organisationReads: () => reads };
}

const lines = [{ subAccountCode: '5720000', debitAmount: '10.00' }, { subAccountCode: '7000000', creditAmount: '10.00' }];

t.test('a posting loads the organisation once, from a cold cache and a warm one, by codes and by ids', async (t) => {
  const org = await commands.organisation(organisationId);
  const byIds = {
    date: `${year}-02-01`, journalTypeId: org.journalTypeIdByCode.get('GEN')!,
    accountingEntryLines: [{ subAccountId: org.accountIdByCode.get('5720000')!, debitAmount: '3.00' }, { subAccountId: org.accountIdByCode.get('7000000')!, creditAmount: '3.00' }],
  };
  const byCodes = { date: `${year}-02-01`, journalTypeCode: 'GEN', accountingEntryLines: lines };
  for (const [name, post] of [
    ['by codes', (c: TestCommands) => c.createAccountingEntryUsingCodes(ctx, byCodes)],
    ['by ids', (c: TestCommands) => c.createAccountingEntryUsingIds(ctx, byIds)],
  ] as const) {
    const counted = countingStore();
    const process = testCommands(new AggregateStore(counted.store), commands.locks, api.service.db.pool);
    await post(process);
    t.equal(counted.organisationReads(), 1, `${name}, cold: one read of the organisation's stream`);
    await post(process);
    t.equal(counted.organisationReads(), 2, `${name}, warm: one more`);
  }
});

t.test('an entry is deleted in whichever exercise holds it, also in an older one', async (t) => {
  await mutate.createAccountingExercise(ctx, { startDate: `${year - 1}-01-01`, endDate: `${year - 1}-12-31` });
  const older = await mutate.createAccountingEntryUsingCodes(ctx, { date: `${year - 1}-05-05`, journalTypeCode: 'GEN', accountingEntryLines: lines });
  const deleted = await mutate.deleteAccountingEntry(ctx, { id: older.id });
  t.equal(deleted.id, older.id);
  const again = await mutate.deleteAccountingEntry(ctx, { id: older.id }).catch((e) => e);
  t.equal(again.code, AccountingErrors.entryNotFound, 'then it is not found');
});

t.test("an entry just posted is deleted before any read model holds it (the read models don't decide)", async (t) => {
  await daemon.stop(); // (last test: the read models stay behind from here)
  const posted = await mutate.createAccountingEntryUsingCodes(ctx, { date: `${year}-03-03`, journalTypeCode: 'GEN', accountingEntryLines: lines });
  const r = await api.gql(`mutation($id: UUID!) { deleteAccountingEntry(input: { id: $id }) { id } }`, { id: posted.id });
  // (The answer may say the read models are behind: they are stopped.)
  const codes = (r.errors ?? []).map((e: { extensions?: { code?: string } }) => e.extensions?.code);
  t.notOk(codes.includes(AccountingErrors.entryNotFound), `found, though no read model has the entry (${codes.join(', ') || 'no error'})`);
  const { rows } = await api.service.db.pool.query(`SELECT count(*)::int AS n FROM es_events WHERE event_type = 'AccountingEntryDeleted' AND data::jsonb->>'entryId' = $1`, [posted.id]);
  t.equal(rows[0].n, 1, 'the deletion is recorded');
});
