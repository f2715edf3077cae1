/**
 * Ledger snapshots against a real PostgreSQL: a load that read many events leaves a snapshot; a process
 * loading the ledger cold then starts from it and reads only the events after it, and decides as a
 * full replay would. Snapshots that do not fit the stream or the layout are not used.
 */
import t, { type Test } from 'tap';
import { testCommands, type TestCommands } from './helpers/commands.ts';
import { LedgerAggregate } from '../commands/accounting/aggregates.ts';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { OrganisationLocks } from '../commands/organisation-locks.ts';
import { PostgresSnapshotStore } from '../commands/snapshots.ts';
import { ledgerSnapshot } from '../domain/accounting/ledger-snapshot.ts';
import type { LedgerState } from '../domain/accounting/ledger.ts';
import { PostgresEventStore } from '../eventstore/postgres/store.ts';
import { foldedStateVersion } from '../eventstore/upcasters.ts';
import type { EventStore } from '../eventstore/port.ts';
import { freshDatabase } from './helpers/database.ts';

const db = await freshDatabase(t);
const store = await PostgresEventStore.open(db.pool, db.url);
const snapshots = await PostgresSnapshotStore.open(db.pool);
const locks = new OrganisationLocks(db.url);
t.teardown(() => Promise.all([store.close(), locks.close()]));

// A load reading 5 events or more leaves a snapshot, so a short history is enough.
const errors: string[] = [];
const OPTIONS = { minEvents: 5, onError: (error: unknown) => errors.push(String(error)) };
const withSnapshots = () => new AggregateStore(store, snapshots, OPTIONS);
const commands = testCommands(withSnapshots(), locks, db.pool);
const { id: organisationId } = await commands.createOrganisation({}, { name: 'Snapshot S.L.', country: 'ES' });
const ctx = { organisationId };
const { id: exerciseId } = await commands.createAccountingExercise(ctx, { startDate: '2026-01-01', endDate: '2026-12-31' });
const post = (c: TestCommands, month: number) => c.createAccountingEntryUsingCodes(ctx, {
  date: `2026-${String(month).padStart(2, '0')}-10`, journalTypeCode: 'GEN',
  accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '12.50' }, { subAccountCode: '7000000', creditAmount: '12.50' }],
});
const streamId = AggregateStore.streamId(LedgerAggregate.category, exerciseId);
const stored = async () => (await db.pool.query(`SELECT revision::int AS revision, version FROM aggregate_snapshots WHERE stream_id = $1`, [streamId])).rows[0];

/** The ledger as a fresh process loads it, how many events it read, once its snapshot (if any) is saved. */
async function coldLoad(useSnapshots: boolean): Promise<{ state: LedgerState; revision: bigint | null; eventsRead: number }> {
  let eventsRead = 0;
  const counting: EventStore = Object.create(store, {
    readStream: { value: async (id: string, o: object) => { const page = await store.readStream(id, o); eventsRead += page.length; return page; } },
  });
  const aggregates = useSnapshots ? new AggregateStore(counting, snapshots, OPTIONS) : new AggregateStore(counting);
  const loaded = await aggregates.load(LedgerAggregate, exerciseId);
  await aggregates.snapshotsSaved();
  return { state: loaded.state, revision: loaded.revision, eventsRead };
}
const sameLedger = (t: Test, a: LedgerState, b: LedgerState, message: string) => t.same(ledgerSnapshot(a), ledgerSnapshot(b), message);

t.test('a long load leaves a snapshot; the next cold load reads only what came after it', async (t) => {
  const posted = [];
  for (let i = 0; i < 30; i++) posted.push(await post(commands, (i % 6) + 1));
  for (const entry of posted.filter((_, i) => i % 4 === 0)) await commands.deleteAccountingEntry(ctx, { id: entry.id });
  t.equal(await stored(), undefined, 'appends take no snapshot');

  const first = await coldLoad(true);
  t.equal(first.eventsRead, Number(first.revision) + 1, 'the first cold load reads every event');
  t.equal((await stored())?.revision, Number(first.revision), 'and leaves a snapshot at the head');

  for (let i = 0; i < 3; i++) await post(commands, 7);
  const replayed = await coldLoad(false);
  const fromSnapshot = await coldLoad(true);
  t.equal(fromSnapshot.revision, replayed.revision, 'both reach the head of the stream');
  t.equal(fromSnapshot.eventsRead, 1 + 3, "the snapshot's own event (checked) and the 3 after it");
  sameLedger(t, fromSnapshot.state, replayed.state, 'the same ledger either way');
  t.same(errors, [], 'no snapshot errors');
});

t.test('a process started from a snapshot numbers and guards as a full replay would', async (t) => {
  const secondStore = withSnapshots();
  const second = testCommands(secondStore, locks, db.pool);
  const before = (await coldLoad(false)).state.entryOrder.length;
  const entry = await post(second, 8);
  t.equal(entry.number, before + 1, 'the next number follows the last live entry');
  const august = (await second.organisation(organisationId)).exercises.get(exerciseId)!.periods.find((p) => p.month === 'AUGUST')!;
  await second.closeAccountingPeriod(ctx, { id: august.periodId });
  await secondStore.snapshotsSaved();
  const third = withSnapshots();
  const refused = await post(testCommands(third, locks, db.pool), 8).catch((e) => e);
  await third.snapshotsSaved(); // its load read enough events to leave a snapshot
  t.match(refused?.code, /closed/i, 'a third process, also from the snapshot, sees the period closed');
  sameLedger(t, (await coldLoad(true)).state, (await coldLoad(false)).state, 'still the same ledger either way');
});

t.test('a store failing to confirm a snapshot costs a full replay, not the snapshot', async (t) => {
  await coldLoad(true);
  const before = await stored();
  const flaky: EventStore = Object.create(store, {
    readStream: { value: async (id: string, o: { maxCount?: number }) => { if (o.maxCount === 1) throw new Error('store unavailable'); return store.readStream(id, o); } },
  });
  errors.length = 0;
  const aggregates = new AggregateStore(flaky, snapshots, OPTIONS);
  const loaded = await aggregates.load(LedgerAggregate, exerciseId);
  await aggregates.snapshotsSaved();
  sameLedger(t, loaded.state, (await coldLoad(false)).state, 'replayed from the first event');
  t.match(errors.join(), /store unavailable/, 'reported');
  t.same(await stored(), before, 'the snapshot is kept');
});

t.test('a snapshot that does not fit the stream or the layout is not used, and is replaced', async (t) => {
  await coldLoad(true); // a snapshot at the head
  await db.pool.query(`UPDATE aggregate_snapshots SET event_id = gen_random_uuid() WHERE stream_id = $1`, [streamId]); // as after restoring another store
  errors.length = 0;
  const mismatched = await coldLoad(true);
  t.equal(mismatched.eventsRead, 1 + Number(mismatched.revision) + 1, 'checked, then loaded from the first event');
  t.match(errors.join(), /does not match/, 'reported');
  sameLedger(t, mismatched.state, (await coldLoad(false)).state, 'the same ledger');
  t.equal((await coldLoad(true)).eventsRead, 1, 'the load replaced it with a snapshot that fits');

  await db.pool.query(`UPDATE aggregate_snapshots SET version = 0 WHERE stream_id = $1`, [streamId]);
  const older = await coldLoad(true);
  t.equal(older.eventsRead, Number(older.revision) + 1, 'an older layout is ignored');
  t.equal((await stored()).version, foldedStateVersion(LedgerAggregate.snapshot!.version), 'and replaced by the current one');
});

t.test('a process shutting down snapshots what it appended past its last snapshot', async (t) => {
  errors.length = 0;
  const aggregates = withSnapshots();
  const running = testCommands(aggregates, locks, db.pool);
  await post(running, 9); // loads the ledger (from its snapshot, if it has one), then appends
  await aggregates.snapshotsSaved();
  const before = await stored();
  t.equal(await aggregates.snapshotLongTails(), 0, 'nothing to take after one entry');
  for (let i = 0; i < OPTIONS.minEvents; i++) await post(running, 10);
  t.same(await stored(), before, 'appends took no snapshot');
  t.equal(await aggregates.snapshotLongTails(), 1, `one after ${OPTIONS.minEvents} more entries: the ledger's (the organisation's has no snapshot form)`);
  const cold = await coldLoad(true);
  t.equal((await stored())?.revision, Number(cold.revision), 'the snapshot is at the head the process left');
  t.equal(cold.eventsRead, 1, "so a cold start reads only the snapshot's own event (checked)");
  sameLedger(t, cold.state, (await coldLoad(false)).state, 'and has the ledger a full replay has');
  t.equal(await aggregates.snapshotLongTails(), 0, 'a second shutdown snapshot has nothing to add');
  t.same(errors, [], 'no snapshot errors');
});
