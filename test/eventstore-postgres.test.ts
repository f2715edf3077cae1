import t from 'tap';
import { PostgresEventStore } from '../eventstore/postgres/store.ts';
import { START } from '../eventstore/port.ts';
import { freshDatabase } from './helpers/database.ts';
import { event, eventStoreContract } from './helpers/eventstore-contract.ts';

const db = await freshDatabase(t);
const stores: PostgresEventStore[] = [];
t.teardown(() => Promise.all(stores.map((s) => s.close())));
const open = async () => {
  const store = await PostgresEventStore.open(db.pool, db.url);
  stores.push(store);
  return store;
};

eventStoreContract(t, open);

t.test('a reader never passes a transaction that is still in flight', async (t) => {
  const store = await open();
  // Transaction A takes its id first and stays open; B commits after it with a later row.
  const slow = await db.pool.connect();
  await slow.query('BEGIN');
  await slow.query(
    `INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata)
     VALUES ('Slow-1', 0, gen_random_uuid(), 'Slow', '{}', '{"schemaVersion":1}')`,
  );
  await store.append('Fast-1', [event('Fast')], 'no_stream');
  const head = await store.headPosition();
  const visible = await store.readAll(START, { maxCount: 100, filter: { categories: ['Fast', 'Slow'] } });
  t.equal(visible.length, 0, 'the later commit is held back while the earlier transaction runs');
  await slow.query('COMMIT');
  slow.release();
  const after = await store.readAll(START, { maxCount: 100, filter: { categories: ['Fast', 'Slow'] } });
  t.same(after.map((e) => e.type), ['Slow', 'Fast'], 'both, in transaction order, once A commits');
  t.ok(head, 'head read while A was open');
});

t.test('events cannot be updated or deleted', async (t) => {
  await open();
  await t.rejects(db.pool.query(`UPDATE es_events SET event_type = 'x'`), /append-only/);
  await t.rejects(db.pool.query(`DELETE FROM es_events`), /append-only/);
});
