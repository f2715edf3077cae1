/**
 * A snapshot folds events as they were read when it was taken: one taken before an upcaster existed holds
 * what the old shape folded to, and must not be loaded as the current state once the upcaster reads them anew.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { testCommands } from './helpers/commands.ts';
import { LedgerAggregate } from '../commands/accounting/aggregates.ts';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { OrganisationLocks } from '../commands/organisation-locks.ts';
import { PostgresSnapshotStore } from '../commands/snapshots.ts';
import { LEDGER_SNAPSHOT_VERSION, ledgerSnapshot } from '../domain/accounting/ledger-snapshot.ts';
import { PostgresEventStore } from '../eventstore/postgres/store.ts';
import { freshDatabase } from './helpers/database.ts';

const db = await freshDatabase(t);
const store = await PostgresEventStore.open(db.pool, db.url);
const snapshots = await PostgresSnapshotStore.open(db.pool);
const locks = new OrganisationLocks(db.url);
t.teardown(() => Promise.all([store.close(), locks.close()]));

t.test('a snapshot taken before an upcaster was added is not loaded: the events are folded again through it', async (t) => {
  const commands = testCommands(new AggregateStore(store), locks, db.pool);
  const { id: organisationId } = await commands.createOrganisation({}, { name: 'Upcast S.L.', country: 'ES' });
  const ctx = { organisationId };
  const { id: exerciseId } = await commands.createAccountingExercise(ctx, { startDate: '2026-01-01', endDate: '2026-12-31' });
  const template = await commands.createAccountingEntryUsingCodes(ctx, {
    date: '2026-03-10', journalTypeCode: 'GEN',
    accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '12.50' }, { subAccountCode: '7000000', creditAmount: '12.50' }],
  });
  const streamId = AggregateStore.streamId(LedgerAggregate.category, exerciseId);

  // An entry as a version before AccountingEntryPosted 2 stored it (a line without a party had thirdCode ''),
  // straight into es_events at the stream's next revision; then the snapshot such a version took of its
  // ledger: '' folded in as a party the ledger uses.
  const [posted] = (await store.readStream(streamId)).filter((e) => e.data.entryId === template.id);
  const entry = { id: randomUUID() };
  const oldData = { ...posted.data, entryId: entry.id, number: (posted.data.number as number) + 1, lines: (posted.data.lines as object[]).map((l, i) => ({ ...l, lineId: randomUUID(), thirdCode: i === 0 ? '' : null })) };
  await db.pool.query(
    `WITH moved AS (UPDATE es_streams SET revision = revision + 1 WHERE stream_id = $1 RETURNING revision)
     INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata)
     SELECT $1, revision, $2, 'AccountingEntryPosted', $3, $4 FROM moved`,
    [streamId, randomUUID(), JSON.stringify(oldData), JSON.stringify({ ...posted.metadata, causationId: randomUUID(), schemaVersion: 1 })],
  );
  const replayed = await new AggregateStore(store).load(LedgerAggregate, exerciseId);
  t.same(replayed.state.entries.get(entry.id)?.thirdCodes, [], 'read through the upcaster, the entry uses no party');
  const [head] = await store.readStream(streamId, { fromRevision: replayed.revision!, maxCount: 1 });
  const oldFold = replayed.state; // (this store's own copy)
  oldFold.entries.get(entry.id)!.thirdCodes = [''];
  await snapshots.save(streamId, { revision: replayed.revision!, eventId: head.id, version: LEDGER_SNAPSHOT_VERSION, body: JSON.stringify(ledgerSnapshot(oldFold)) });

  const loaded = await new AggregateStore(store, snapshots, { minEvents: 1_000, onError: () => {} }).load(LedgerAggregate, exerciseId);
  t.same(loaded.state.entries.get(entry.id)?.thirdCodes, [], "the old snapshot's fold is not loaded (was: '' as a party in use)");
  t.notOk(loaded.state.thirdCodeUsage.has(''), 'no empty party counted');
});
