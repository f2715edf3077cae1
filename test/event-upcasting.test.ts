/**
 * Events that evolve: an AccountingEntryPosted stored in its first shape (schemaVersion 1, a line without a
 * third party as thirdCode '') is read in the current one (version 2, null) wherever events are read: the
 * store's reads, the live projection daemon, a rebuild on worker threads, the ledger's fold. The stored
 * event itself stays as it was written.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { PROJECTIONS } from '../service/start.ts';
import { LedgerAggregate } from '../commands/accounting/aggregates.ts';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { exerciseForDate } from '../domain/accounting/organisation.ts';
import { START, comparePositions, type GlobalPosition } from '../eventstore/port.ts';
import { eventSchemaVersion, upcastChains } from '../eventstore/upcasters.ts';
import { rebuildProjection } from '../projections/engine/rebuild.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { commands, mutate, store, daemon, db } = api.service;
const ctx = { organisationId: api.organisationId };
const date = `${new Date().getUTCFullYear()}-04-04`;
const exercise = exerciseForDate(await commands.organisation(api.organisationId), date)!;
const ledgerStream = AggregateStore.streamId(LedgerAggregate.category, exercise.id);

// An entry posted today, as the template of one posted before 3d5a33d, when an empty third code was kept as ''.
const template = await mutate.createAccountingEntryUsingCodes(ctx, {
  date, journalTypeCode: 'GEN', accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '7.00' }, { subAccountCode: '7000000', creditAmount: '7.00' }],
});
const [posted] = (await store.readStream(ledgerStream)).filter((e) => e.data.entryId === template.id);
const oldEntryId = randomUUID();
const oldData = {
  ...posted.data, entryId: oldEntryId, number: (posted.data.number as number) + 1,
  lines: (posted.data.lines as object[]).map((l, i) => ({ ...l, lineId: randomUUID(), thirdCode: i === 0 ? '' : null })),
};
const oldEventId = randomUUID();
/** Written as a store of the first shape holds it: straight into es_events, at the stream's next revision. */
const { rows: [inserted] } = await db.pool.query(
  `WITH moved AS (UPDATE es_streams SET revision = revision + 1 WHERE stream_id = $1 RETURNING revision)
   INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata)
   SELECT $1, revision, $2, 'AccountingEntryPosted', $3, $4 FROM moved
   RETURNING transaction_id::text AS commit, global_position::text AS prepare`,
  [ledgerStream, oldEventId, JSON.stringify(oldData), JSON.stringify({ ...posted.metadata, causationId: randomUUID(), schemaVersion: 1 })],
);
const oldPosition: GlobalPosition = { commit: BigInt(inserted.commit), prepare: BigInt(inserted.prepare) };
const currentShape = { ...oldData, lines: oldData.lines.map((l) => ({ ...l, thirdCode: null })) };
const thirdCodes = async () => (await db.pool.query(`SELECT third_code FROM accounting_entry_lines WHERE accounting_entry_id = $1 ORDER BY line_order`, [oldEntryId])).rows.map((r) => r.third_code);

t.test('appends record each type at its current version', async (t) => {
  t.equal(eventSchemaVersion('AccountingEntryPosted'), 3);
  t.equal(posted.metadata.schemaVersion, 3, 'a posting made now: 3');
  const { rows } = await db.pool.query(`SELECT DISTINCT metadata::jsonb->'schemaVersion' AS v FROM es_events WHERE event_type = 'AccountingExerciseCreated'`);
  t.same(rows.map((r) => r.v), [1], 'a type whose shape never changed: 1');
});

t.test('the store reads the version-1 event as version 2: readStream, readAll, findEvent', async (t) => {
  const [fromStream] = (await store.readStream(ledgerStream)).filter((e) => e.id === oldEventId);
  t.same(fromStream.data, currentShape, 'readStream: the line without a third party has thirdCode null');
  t.equal(fromStream.metadata.schemaVersion, 3);
  // (readAll waits for transactions running anywhere in the cluster, other test files' too)
  for (let tries = 0; tries < 1000 && comparePositions(await store.headPosition(), oldPosition) < 0; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
  const [fromAll] = (await store.readAll(START, { maxCount: 5000, filter: { eventTypes: ['AccountingEntryPosted'] } })).filter((e) => e.id === oldEventId);
  t.same([fromAll.data, fromAll.metadata.schemaVersion], [currentShape, 3], 'readAll (what subscriptions read)');
  const found = await store.findEvent!(oldEventId);
  t.same([found?.data, found?.metadata.schemaVersion], [currentShape, 3], 'findEvent');
});

t.test('the live daemon projects it in the current shape', async (t) => {
  t.ok(await daemon.waitFor(oldPosition), 'projected');
  t.same(await thirdCodes(), [null, null], 'no line has an empty third party');
});

t.test('a rebuild on worker threads projects it in the current shape', async (t) => {
  const entries = PROJECTIONS.find((p) => p.name === 'entries')!;
  const warnings: string[] = [];
  const warned = (w: Error) => w.name === 'RebuildWarning' && warnings.push(w.message);
  process.on('warning', warned);
  await rebuildProjection(db.pool, store, entries, undefined, { batchSize: 3, workers: 2 });
  await new Promise((resolve) => setImmediate(resolve)); // (warnings are emitted on the next tick)
  process.off('warning', warned);
  t.same(warnings, [], 'the worker threads decoded the events');
  t.same(await thirdCodes(), [null, null]);
});

t.test('the ledger folds it in the current shape, and it can be deleted', async (t) => {
  const { state } = await new AggregateStore(store).load(LedgerAggregate, exercise.id);
  t.same(state.entries.get(oldEntryId)?.thirdCodes, [], 'no third party on the entry');
  t.notOk(state.thirdCodeUsage.has(''), "'' is no third party in use");
  const deleted = await mutate.deleteAccountingEntry(ctx, { id: oldEntryId });
  t.equal(deleted.id, oldEntryId);
});

t.test('the stored event is never rewritten', async (t) => {
  const { rows } = await db.pool.query(`SELECT data::jsonb AS data, metadata::jsonb->'schemaVersion' AS v FROM es_events WHERE event_id = $1`, [oldEventId]);
  t.same([rows[0].data, rows[0].v], [oldData, 1]);
});

t.test('upcasters of a type are numbered from 1 without a gap', async (t) => {
  const step = (from: number) => ({ type: 'X', from, upcast: (d: Record<string, unknown>) => d });
  t.equal(upcastChains([step(1), step(2)]).get('X')?.current, 3);
  t.throws(() => upcastChains([step(2)]), /expected one from version 1/);
  t.throws(() => upcastChains([step(1), step(1)]), /expected one from version 2/);
});
