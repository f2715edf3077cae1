/**
 * A trigger's queue starts where the trigger does (the store's head at its creation, or a `from` the
 * caller gives), whenever the fan-out gets to the events: one created while the fan-out is stopped gets
 * exactly the events after its creation, not the organisation's history.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { comparePositions } from '../eventstore/port.ts';
import { fanoutProjection } from '../eventqueue/fanout.ts';
import { ProjectionDaemon } from '../projections/engine/daemon.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { db, store, mutate } = api.service;
const headers = { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId, 'Content-Type': 'application/json' };
const createTrigger = async (body: object) => {
  const res = await fetch(`${api.base}/triggers`, { method: 'POST', headers, body: JSON.stringify({ type: 'event-queue', client_id: api.clientId, ...body }) });
  return { status: res.status, body: await res.json() };
};
const queued = async (trigger: string) =>
  (await db.pool.query(`SELECT record_id FROM event_queue WHERE trigger_id = $1 ORDER BY commit_pos, prepare_pos`, [trigger])).rows.map((r) => r.record_id as string);
const account = (code: string) => mutate.createAccountingAccount({ organisationId: api.organisationId }, { code, name: `Cuenta ${code}` });

t.test('a trigger created while the fan-out is stopped gets exactly the events after its creation', async (t) => {
  await api.service.fanout.stop();
  await account('5720601');
  const now = await createTrigger({ events: ['accountingAccount/after.create'] });
  t.equal(now.status, 201);
  await account('5720602');
  const later = await account('5720603');

  const fanout = new ProjectionDaemon(db.pool, store, [fanoutProjection]);
  t.teardown(() => fanout.stop());
  await fanout.start();
  t.ok(await fanout.waitFor(later.position));
  t.same(await queued(now.body.id), ['5720602', '5720603'], 'from its creation on, not the history');
  const listed = await fetch(`${api.base}/triggers/${now.body.id}`, { headers }).then((r) => r.json());
  t.match(listed.starts_after, /^\d+\/\d+$/, 'its start is shown');
});

t.test('a caller may start a trigger at the beginning or at a position; anything else is refused', async (t) => {
  // One queue per client and organisation: these use clients of their own.
  const client = async (name: string) => (await api.service.identity.createClient(name, 'http://127.0.0.1:9/cb', false)).client_id;
  const all = await createTrigger({ client_id: await client('history'), from: 'beginning', events: ['accountingAccount/after.create'] });
  t.equal(all.status, 201);
  const head = await store.headPosition();
  const last = await account('5720604');
  const at = await createTrigger({ client_id: await client('from a position'), from: `${head.commit}/${head.prepare}`, events: ['accountingAccount/after.create'] });
  t.equal(at.status, 201);
  const fanout = new ProjectionDaemon(db.pool, store, [fanoutProjection]);
  t.teardown(() => fanout.stop());
  await fanout.start();
  t.ok(await fanout.waitFor(last.position));
  const history = await queued(all.body.id);
  t.ok(history.includes('4300001') && history.includes('5720604'), `the whole history (${history.length} accounts)`);
  t.same(await queued(at.body.id), ['5720604'], 'after the given position');
  const bad = await createTrigger({ client_id: await client('bad'), from: 'yesterday' });
  t.equal(bad.status, 422);
  t.match(JSON.stringify(bad.body), /from/);
});

t.test("a trigger created 'now' gets an event whose transaction was in flight then and committed after, never one committed before", async (t) => {
  const client = (await api.service.identity.createClient('in flight', 'http://127.0.0.1:9/cb', false)).client_id;
  // An append still running when the trigger is made: its transaction id is below those committed meanwhile.
  const { rows: [template] } = await db.pool.query(`SELECT data::text AS data, metadata::text AS metadata FROM es_events WHERE event_type = 'AccountingAccountCreated' AND metadata->>'organisationId' = $1 LIMIT 1`, [api.organisationId]);
  const inFlight = await db.pool.connect();
  t.teardown(() => inFlight.release());
  await inFlight.query('BEGIN');
  await inFlight.query(`SELECT pg_current_xact_id()`);
  const before = await account('5720611'); // committed before the trigger, in a later transaction than the one in flight
  const created = await createTrigger({ client_id: client, events: ['accountingAccount/after.create'] });
  t.equal(created.status, 201);
  await inFlight.query(`INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata) VALUES ($1, 0, gen_random_uuid(), 'AccountingAccountCreated', $2::json, $3::json)`, [
    `InFlight-${randomUUID()}`, JSON.stringify({ ...JSON.parse(template.data), accountId: randomUUID(), code: '5720612', name: 'In flight' }), template.metadata,
  ]);
  await inFlight.query('COMMIT');
  const after = await account('5720613');
  t.ok(comparePositions(before.position!, after.position!) < 0);
  const fanout = new ProjectionDaemon(db.pool, store, [fanoutProjection]); // (the service's was stopped above)
  t.teardown(() => fanout.stop());
  await fanout.start();
  t.ok(await fanout.waitFor(after.position));
  t.same(await queued(created.body.id), ['5720612', '5720613'], 'the events committed after its creation, the one in flight included');
});
