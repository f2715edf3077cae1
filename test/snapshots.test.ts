/**
 * Ledger snapshots against a real PostgreSQL: a process loading a ledger cold starts from its newest
 * snapshot and reads only the events after it, and what it decides is what a full replay would decide.
 */
import t, { type Test } from 'tap';
import { AccountingCommands, LedgerAggregate } from '../commands/accounting.ts';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { OrganisationLocks } from '../commands/organisation-locks.ts';
import { PostgresSnapshotStore } from '../commands/snapshots.ts';
import { ledgerSnapshot } from '../domain/ledger-snapshot.ts';
import type { LedgerState } from '../domain/ledger.ts';
import { PostgresEventStore } from '../eventstore/postgres/store.ts';
import type { EventStore } from '../eventstore/port.ts';
import { freshDatabase } from './helpers/database.ts';

const db = await freshDatabase(t);
const store = await PostgresEventStore.open(db.pool, db.url);
const snapshots = await PostgresSnapshotStore.open(db.pool);
const locks = new OrganisationLocks(db.url);
t.teardown(() => Promise.all([store.close(), locks.close()]));

// Snapshots every 5 events (and 20% of the stream), so a short history gets several.
const EVERY = { minEvents: 5, fraction: 0.2 };
const commandsWith = (aggregates: AggregateStore) => new AccountingCommands(aggregates, locks);
const first = commandsWith(new AggregateStore(store, snapshots, EVERY));
const { id: organisationId } = await first.createOrganisation({}, { name: 'Snapshot S.L.', country: 'ES' });
const ctx = { organisationId };
const { id: exerciseId } = await first.createAccountingExercise(ctx, { startDate: '2026-01-01', endDate: '2026-12-31' });
const post = (c: AccountingCommands, month: number) => c.createAccountingEntryUsingCodes(ctx, {
  date: `2026-${String(month).padStart(2, '0')}-10`, journalTypeCode: 'GEN',
  accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '12.50' }, { subAccountCode: '7000000', creditAmount: '12.50' }],
});
const streamId = AggregateStore.streamId(LedgerAggregate.category, exerciseId);
const stored = async () => (await db.pool.query(`SELECT revision::int AS revision, version FROM aggregate_snapshots WHERE stream_id = $1`, [streamId])).rows[0];

/** The ledger as a fresh process would load it, and how many events it read to get there. */
async function coldLoad(withSnapshots: boolean): Promise<{ state: LedgerState; revision: bigint | null; eventsRead: number }> {
  let eventsRead = 0;
  const counting: EventStore = Object.create(store, {
    readStream: { value: async (id: string, o: object) => { const page = await store.readStream(id, o); eventsRead += page.length; return page; } },
  });
  const loaded = await new AggregateStore(counting, withSnapshots ? snapshots : undefined, EVERY).load(LedgerAggregate, exerciseId);
  return { state: loaded.state, revision: loaded.revision, eventsRead };
}
const sameLedger = (t: Test, a: LedgerState, b: LedgerState, message: string) => t.same(ledgerSnapshot(a), ledgerSnapshot(b), message);

t.test('a cold load starts from the newest snapshot and ends where a full replay ends', async (t) => {
  const posted = [];
  for (let i = 0; i < 30; i++) posted.push(await post(first, (i % 6) + 1));
  for (const entry of posted.filter((_, i) => i % 4 === 0)) await first.deleteAccountingEntry(ctx, { id: entry.id }, async () => exerciseId);
  const snapshot = await stored();
  t.ok(snapshot && snapshot.revision >= 20, `a snapshot was taken (at revision ${snapshot?.revision})`);

  const replayed = await coldLoad(false);
  const fromSnapshot = await coldLoad(true);
  t.equal(fromSnapshot.revision, replayed.revision, 'both reach the head of the stream');
  t.equal(replayed.eventsRead, Number(replayed.revision) + 1, 'the full replay reads every event');
  t.equal(fromSnapshot.eventsRead, Number(fromSnapshot.revision) - snapshot.revision, 'the snapshot load reads only the events after the snapshot');
  sameLedger(t, fromSnapshot.state, replayed.state, 'the same ledger either way');
});

t.test('a process started from a snapshot numbers and guards as a full replay would', async (t) => {
  const second = commandsWith(new AggregateStore(store, snapshots, EVERY));
  const before = (await coldLoad(false)).state.entryOrder.length;
  const entry = await post(second, 7);
  t.equal(entry.number, before + 1, 'the next number follows the last live entry');
  await second.closeAccountingPeriod(ctx, { id: (await second.organisation(organisationId)).exercises.get(exerciseId)!.periods.find((p) => p.month === 'JULY')!.periodId });
  const refused = await post(commandsWith(new AggregateStore(store, snapshots, EVERY)), 7).catch((e) => e);
  t.match(refused?.code, /periodClosed|closed/i, 'a third process, also from a snapshot, sees the period closed');
  sameLedger(t, (await coldLoad(true)).state, (await coldLoad(false)).state, 'still the same ledger either way');
});

t.test('a snapshot of another layout version is ignored, then replaced', async (t) => {
  await db.pool.query(`UPDATE aggregate_snapshots SET version = 999 WHERE stream_id = $1`, [streamId]);
  const loaded = await coldLoad(true);
  t.equal(loaded.eventsRead, Number(loaded.revision) + 1, 'loaded from the first event');
  sameLedger(t, loaded.state, (await coldLoad(false)).state, 'the same ledger');
  t.equal((await stored()).version, LedgerAggregate.snapshot!.version, 'that load wrote a snapshot of the current layout');
});
