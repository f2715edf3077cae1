/**
 * A trigger's queue starts where the trigger does (the store's head at its creation, or a `from` the
 * caller gives), whenever the fan-out gets to the events: one created while the fan-out is stopped gets
 * exactly the events after its creation, not the organisation's history.
 */
import t from 'tap';
import { fanoutProjection } from '../eventqueue/fanout.ts';
import { ProjectionDaemon } from '../projections/daemon.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { db, store, commands } = api.service;
const headers = { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId, 'Content-Type': 'application/json' };
const createTrigger = async (body: object) => {
  const res = await fetch(`${api.base}/triggers`, { method: 'POST', headers, body: JSON.stringify({ type: 'event-queue', client_id: api.clientId, ...body }) });
  return { status: res.status, body: await res.json() };
};
const queued = async (trigger: string) =>
  (await db.pool.query(`SELECT record_id FROM event_queue WHERE trigger_id = $1 ORDER BY commit_pos, prepare_pos`, [trigger])).rows.map((r) => r.record_id as string);
const account = (code: string) => commands.createAccountingAccount({ organisationId: api.organisationId }, { code, name: `Cuenta ${code}` });

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
