import t from 'tap';
import { PostgresEventStore } from '../eventstore/postgres/store.ts';
import { LIMITS, START, comparePositions } from '../eventstore/port.ts';
import { recordedSlicesFromBatch } from '../eventstore/stored-batch.ts';
import { COPY_BATCH_COLUMNS, decodeCopySlices } from '../eventstore/postgres/copy-batch.ts';
import { to as copyTo } from 'pg-copy-streams';
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
  // Transaction A takes its id first and stays open; B commits after it with a later row. A is another
  // organisation's: one organisation's appends wait on each other at its hash chain's head (chain.ts).
  const slow = await db.pool.connect();
  await slow.query('BEGIN');
  await slow.query(
    `INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata)
     VALUES ('Slow-1', 0, gen_random_uuid(), 'Slow', '{}', json_build_object('schemaVersion', 1, 'organisationId', gen_random_uuid()))`,
  );
  await store.append('Fast-1', [event('Fast')], 'no_stream');
  const head = await store.headPosition();
  const visible = await store.readAll(START, { maxCount: 100, filter: { categories: ['Fast', 'Slow'] } });
  t.equal(visible.length, 0, 'the later commit is held back while the earlier transaction runs');
  await slow.query('COMMIT');
  slow.release();
  // Visible once every older transaction of the cluster is done: test files running beside this one on the
  // same server hold the horizon back for a while (readAll reads below the oldest running transaction).
  let after = await store.readAll(START, { maxCount: 100, filter: { categories: ['Fast', 'Slow'] } });
  for (let waited = 0; after.length < 2 && waited < 30_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    after = await store.readAll(START, { maxCount: 100, filter: { categories: ['Fast', 'Slow'] } });
  }
  t.same(after.map((e) => e.type), ['Slow', 'Fast'], 'both, in transaction order, once A commits');
  t.ok(head, 'head read while A was open');
});

t.test('events cannot be updated or deleted', async (t) => {
  await open();
  await t.rejects(db.pool.query(`UPDATE es_events SET event_type = 'x'`), /append-only/);
  await t.rejects(db.pool.query(`DELETE FROM es_events`), /append-only/);
});

t.test('events are kept exactly as written, and a store created with jsonb columns is converted', async (t) => {
  const old = await freshDatabase(t);
  // The first schema of this store: data and metadata as jsonb.
  await old.pool.query(`CREATE TABLE es_streams (stream_id text PRIMARY KEY, revision bigint NOT NULL);
    CREATE TABLE es_events (global_position bigint GENERATED ALWAYS AS IDENTITY, transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
      stream_id text NOT NULL, stream_revision bigint NOT NULL, event_id uuid NOT NULL, event_type text NOT NULL, data jsonb NOT NULL,
      metadata jsonb NOT NULL, recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(), PRIMARY KEY (transaction_id, global_position),
      UNIQUE (stream_id, stream_revision), UNIQUE (event_id));
    INSERT INTO es_streams VALUES ('Old-1', 0);
    INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata)
      VALUES ('Old-1', 0, gen_random_uuid(), 'Old', '{"amount": "1.50", "b": 1}', '{"schemaVersion": 1}');`);
  const store = await PostgresEventStore.open(old.pool, old.url);
  stores.push(store);
  const { rows } = await old.pool.query(`SELECT data_type FROM information_schema.columns WHERE table_name = 'es_events' AND column_name IN ('data', 'metadata')`);
  t.same(rows.map((r) => r.data_type), ['json', 'json'], 'converted to json');
  const [before] = await store.readStream('Old-1');
  t.same(before.data, { amount: '1.50', b: 1 }, 'the old event reads the same');
  await store.append('Old-1', [{ ...event('New'), data: { z: 1, a: 'é\n' } }], 0n);
  const { rows: raw } = await old.pool.query(`SELECT data::text AS text FROM es_events WHERE event_type = 'New'`);
  t.equal(raw[0].text, JSON.stringify({ z: 1, a: 'é\n' }), 'new events are stored byte for byte as serialised, key order kept');
});

t.test('an event holding a NUL character is refused before it is stored (no read model could take it)', async (t) => {
  const store = await open();
  await t.rejects(store.append('Nul-1', [{ ...event('Nul'), data: { text: 'a\u0000b' } }], 'no_stream'), /NUL character/);
  t.same(await store.readStream('Nul-1'), [], 'nothing appended');
  await store.append('Nul-1', [{ ...event('Nul'), data: { text: 'C:\\u0000 typed out' } }], 'no_stream');
  t.equal((await store.readStream('Nul-1'))[0].data.text, 'C:\\u0000 typed out', 'a backslash-u typed out is just text');
});

t.test('an append of as many events as allowed keeps their order, and its retry is idempotent', async (t) => {
  const store = await open();
  const events = Array.from({ length: LIMITS.maxEventsPerAppend }, (_, i) => ({ ...event('Many'), data: { i } }));
  const first = await store.append('Many-1', events, 'no_stream');
  t.equal(first.nextExpectedRevision, BigInt(events.length - 1));
  t.same(await store.append('Many-1', events, 'no_stream'), first, 'the retry returns what the append did, appending nothing');
  const read = await store.readStream('Many-1', { maxCount: 5000 });
  t.same(read.map((e) => e.data.i), events.map((_, i) => i), 'every event, in the order given');
  t.same(read.map((e) => e.revision), events.map((_, i) => BigInt(i)), 'numbered from 0');
  t.ok(read.every((e, i) => i === 0 || comparePositions(read[i - 1].position, e.position) < 0), 'in global order too');
});

t.test('a stored batch (binary COPY, what rebuild workers decode) holds exactly what readAll gives', async (t) => {
  const store = await open();
  await store.append('Batch-1', [event('Stored'), { ...event('Stored'), data: { text: "it's \"quoted\" ümlaut €\n", n: 1.5, nested: { list: [1, null] } } }], 'no_stream');
  await store.append('Batch-2', [event('Stored'), event('Other')], 'no_stream');
  for (const [filter, appended] of [[{ eventTypes: ['Stored', "O'Brien"] }, 3], [{ categories: ['Batch'] }, 4]] as const) {
    // Both reads wait for transactions still running anywhere in the cluster (other test files' too): read until both see all.
    let [read, stored] = [await store.readAll(START, { maxCount: 100, filter }), await store.readAllStored(START, { maxCount: 100, filter })];
    for (let tries = 0; (read.length !== appended || stored?.count !== appended) && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      [read, stored] = [await store.readAll(START, { maxCount: 100, filter }), await store.readAllStored(START, { maxCount: 100, filter })];
    }
    t.ok(stored, 'a batch');
    t.equal(stored!.count, read.length, `as many events (${read.length})`);
    t.same(stored!.last, read[read.length - 1].position, 'the last position');
    t.strictSame([...recordedSlicesFromBatch(stored!, stored!.count)], [read], 'the same events, field for field (and type for type), in one slice');
    for (const size of [1, 2, 3, 100]) {
      const slices = [...recordedSlicesFromBatch(stored!, size)];
      t.strictSame(slices.flat(), read, `in slices of ${size}: the same events, in order`);
      t.same(slices.map((s) => s.length), read.map((_, i) => i).filter((i) => i % size === 0).map((i) => Math.min(size, read.length - i)), `in slices of ${size}: full slices, then the rest`);
    }
  }
  const limited = await store.readAllStored(START, { maxCount: 1, filter: { categories: ['Batch'] } });
  t.equal(limited?.count, 1, 'maxCount holds');
  t.equal(await store.readAllStored(await store.headPosition(), { maxCount: 10 }), undefined, 'none after the head');

  // A store made when es_events held jsonb: its binary form is a version byte, then the text.
  const asJsonb = COPY_BATCH_COLUMNS.replace('data, metadata', 'data::jsonb, metadata::jsonb');
  t.not(asJsonb, COPY_BATCH_COLUMNS, 'the columns read JSON as stored');
  const client = await db.pool.connect();
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of client.query(copyTo(`COPY (SELECT ${asJsonb} FROM es_events WHERE stream_id = 'Batch-1' ORDER BY stream_revision) TO STDOUT (FORMAT binary)`))) chunks.push(chunk);
  } finally {
    client.release();
  }
  t.strictSame([...decodeCopySlices(Buffer.concat(chunks), 100)].flat(), await store.readStream('Batch-1'), 'jsonb columns decode to the same events');
});
