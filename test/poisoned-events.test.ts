/**
 * Events an older version stored and no store should have taken (a lone surrogate `\ud800`, a NUL), and
 * an event a projection cannot apply, sit in es_events of organisation A. Organisation B's read models,
 * queue and later events go on; A's text is stored as U+FFFD; A's failing event parks A (for that
 * projection only, its later events held behind it, visible in /health, /metrics and the CLI); a restart
 * on the same database listens; a retry after the fix delivers A's held events once, in order.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import t from 'tap';
import { seedDemo } from '../service/demo.ts';
import { startService, type Service } from '../service/start.ts';
import { fanoutProjection } from '../eventqueue/fanout.ts';
import { createTrigger } from '../eventqueue/triggers.ts';
import { loadConfig } from '../platform/config.ts';
import { listParked, retryParked } from '../projections/engine/parked.ts';
import { freshDatabase } from './helpers/database.ts';

const db = await freshDatabase(t);
const config = { ...loadConfig({}), databaseUrl: db.url, port: 0, logLevel: 'error' };
const services: Service[] = [];
t.teardown(async () => {
  for (const s of services) await s.close().catch(() => {});
});
async function start(): Promise<{ service: Service; base: string }> {
  const service = await startService(config, { db: { url: db.url, pool: db.pool, close: async () => {} }, logger: false });
  services.push(service);
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  return { service, base: `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}` };
}

let { service, base } = await start();
const demo = await seedDemo(service);
const A = demo.organisationId;
const B = (await service.commands.createOrganisation({}, { name: 'Otra Empresa S.L.', country: 'ES' })).id;
const clientB = await service.identity.createClient('B consumer', 'http://127.0.0.1:9/cb', false);
const queueA = await createTrigger(db.pool, { organisationId: A, type: 'event-queue', clientId: demo.client.client_id });
const queueB = await createTrigger(db.pool, { organisationId: B, type: 'event-queue', clientId: clientB.client_id });

const queued = async (trigger: string) =>
  (await db.pool.query(`SELECT record_id, payload FROM event_queue WHERE trigger_id = $1 ORDER BY commit_pos, prepare_pos`, [trigger])).rows as { record_id: string; payload: any }[];
const account = async (organisationId: string, code: string) =>
  (await db.pool.query(`SELECT name FROM accounting_accounts WHERE organisation_id = $1 AND code = $2`, [organisationId, code])).rows[0]?.name as string | undefined;

// What an older version appended: an account of A, as its events are shaped, with the given fields.
const { rows: [template] } = await db.pool.query(`SELECT data::text AS data, metadata::text AS metadata FROM es_events WHERE event_type = 'AccountingAccountCreated' AND metadata->>'organisationId' = $1 LIMIT 1`, [A]);
async function storedByAnOlderVersion(fields: Record<string, unknown>): Promise<void> {
  const data = JSON.stringify({ ...JSON.parse(template.data), accountId: randomUUID(), ...fields });
  await db.pool.query(`INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata) VALUES ($1, 0, gen_random_uuid(), 'AccountingAccountCreated', $2::json, $3::json)`, [
    `Legacy-${randomUUID()}`, data, template.metadata,
  ]);
}

const bAccount = (code: string) => service.mutate.createAccountingAccount({ organisationId: B }, { code, name: `Banco ${code}` });

// The fan-out cannot store A's POISON (a check standing for any error an event meets), the read models
// cannot store its account id: two projections, each with an event it cannot apply.
await db.pool.query(`ALTER TABLE event_queue ADD CONSTRAINT test_refuses_poison CHECK (record_id <> 'POISON')`);
await storedByAnOlderVersion({ code: '5720901', name: 'evil \ud800' });
await storedByAnOlderVersion({ code: '5720902', name: 'nul \u0000 here' });
await storedByAnOlderVersion({ code: 'POISON', accountId: 'not-a-uuid' });

t.test("A's bad events stop neither B's read models nor B's queue; A's are parked, visibly", async (t) => {
  const b1 = await bAccount('5720551');
  t.ok(await service.fanout.waitFor(b1.position), 'the fan-out passes A’s events');
  t.ok(await service.daemon.waitFor(b1.position), 'the read models pass A’s events');
  t.equal(await account(B, '5720551'), 'Banco 5720551', "B's read model has B's account");
  t.same((await queued(queueB.id)).map((r) => r.record_id), ['5720551'], "B's queue has B's event");

  t.equal(await account(A, '5720901'), 'evil \ufffd', 'a lone surrogate is stored as U+FFFD in the read model');
  t.equal(await account(A, '5720902'), 'nul \ufffd here', 'and so is a NUL');
  const inA = await queued(queueA.id);
  t.same(inA.map((r) => r.record_id), ['5720901', '5720902'], "A's queue has the two accounts before the failing event");
  t.equal(inA[0].payload.data.name, 'evil \ufffd', 'the payload holds U+FFFD where jsonb refused the escape');

  // A's next account: recorded, but held behind A's parked event, and the mutation says so.
  const res = await fetch(`${base}/graphql`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${demo.token.access_token}`, 'X-Site': A },
    body: JSON.stringify({ query: `mutation { createAccountingAccount(input: { code: "5720556", name: "After" }) { id } }` }),
  }).then((r) => r.json());
  t.equal(res.errors?.[0]?.extensions?.code, 'READ_MODELS_BEHIND', `a clear error: ${res.errors?.[0]?.message}`);
  t.equal(res.errors?.[0]?.extensions?.reason, 'parked');
  t.match(res.errors?.[0]?.extensions?.recorded?.id, /^[0-9a-f-]{36}$/, 'naming what was recorded');
  t.equal(await account(A, '5720556'), undefined, "A's later event is held, not applied out of order");

  // A write the parked projection never sees is visible at once, and answered as usual.
  const area = await fetch(`${base}/graphql`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${demo.token.access_token}`, 'X-Site': A },
    body: JSON.stringify({ query: `mutation { createBusinessArea(input: { name: "Ventas A" }) { id } }` }),
  }).then((r) => r.json());
  t.same(area.errors, undefined, `a business area of A is not held by the chart's parking: ${area.errors?.[0]?.message}`);
  t.match(area.data?.createBusinessArea?.id, /^[0-9a-f-]{36}$/);

  const parked = await listParked(db.pool);
  t.same(parked.map((p) => [p.projection, p.organisationId]).sort(), [['chart', A], ['fanout', A]], 'A is parked in the chart and the fan-out, nowhere else');
  t.match(parked.find((p) => p.projection === 'chart')!.error, /uuid/);
  t.match(parked.find((p) => p.projection === 'fanout')!.error, /test_refuses_poison/);

  const b2 = await bAccount('5720552');
  t.ok(await service.fanout.waitFor(b2.position));
  t.same((await queued(queueB.id)).map((r) => r.record_id), ['5720551', '5720552'], 'B goes on');
  t.same((await queued(queueA.id)).map((r) => r.record_id), ['5720901', '5720902'], "A's later events wait in order behind the parked one");

  const health = await fetch(`${base}/health`).then(async (r) => ({ status: r.status, body: await r.json() }));
  t.equal(health.status, 200, 'the service serves');
  t.equal(health.body.status, 'degraded', '/health says a projection holds events');
  t.same(health.body.fanout.parked, { fanout: [A] });
  const metrics = await fetch(`${base}/metrics`).then((r) => r.text());
  t.match(metrics, new RegExp(`ledger_projection_parked_events\\{projection="fanout",organisation="${A}"\\} [2-9]`), '/metrics counts the held events');
});

t.test('a restart on the same database listens, and the CLI shows what is parked', async (t) => {
  await service.close();
  ({ service, base } = await start());
  const health = await fetch(`${base}/health`).then((r) => r.json());
  t.equal(health.status, 'degraded', 'up, and saying why it is not ok');
  const b3 = await bAccount('5720553');
  t.ok(await service.fanout.waitFor(b3.position));
  t.ok(await service.daemon.waitFor(b3.position));
  t.equal(await account(B, '5720553'), 'Banco 5720553');

  const env = { ...process.env, DATABASE_URL: db.url, DEMO: '0', LOG_LEVEL: 'error' };
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'cli/ledger.ts', 'projections', 'status', '--json'], { env, cwd: process.cwd() });
  const status = JSON.parse(stdout);
  t.same(status.parked.map((p: any) => p.projection).sort(), ['chart', 'fanout']);
  t.ok(status.projections.some((p: any) => p.name === 'fanout'), 'the fan-out is listed with the read models');
});

t.test('after the fix, a retry delivers the held events once, in order; an event still failing stays parked', async (t) => {
  await db.pool.query(`ALTER TABLE event_queue DROP CONSTRAINT test_refuses_poison`);
  const [fanout] = await retryParked(db.pool, service.store, [fanoutProjection]);
  t.equal(fanout.error, undefined);
  t.equal(fanout.applied, 3, 'the parked event and the two held behind it (an account, a business area)');
  const health = await fetch(`${base}/health`).then((r) => r.json());
  t.same(health.fanout.parked, {}, '/health shows the retry at once, before the fan-out applies another batch');
  t.same((await queued(queueA.id)).map((r) => r.record_id), ['5720901', '5720902', 'POISON', '5720556', 'Ventas A'], "A's queue, complete and in order");
  const b4 = await bAccount('5720554');
  const a5 = await service.mutate.createAccountingAccount({ organisationId: A }, { code: '5720557', name: 'Later' });
  t.ok(await service.fanout.waitFor(a5.position));
  // The read models too: A's account is held behind the chart's parked event (counted there), before what follows reads it.
  t.ok(await service.daemon.waitFor(a5.position));
  t.same((await queued(queueA.id)).map((r) => r.record_id), ['5720901', '5720902', 'POISON', '5720556', 'Ventas A', '5720557'], 'A is live again, nothing twice');
  t.same((await queued(queueB.id)).map((r) => r.record_id), ['5720551', '5720552', '5720553', '5720554']);
  t.ok(b4);

  const [chart] = await retryParked(db.pool, service.store, service.daemon.projections, { projection: 'chart' });
  t.match(chart.error, /uuid/, 'the account id is still no uuid');
  const still = (await listParked(db.pool)).find((p) => p.projection === 'chart')!;
  t.equal(still.attempts, 2, 'the retry is recorded');
  t.equal(await account(A, '5720556'), undefined, 'and nothing of it applied');
  t.equal(still.heldEvents, 2, "A's two later accounts are held behind it");
});

t.test('a lost connection parks nothing and blocks no start: the daemon says so and starts again from its checkpoints with a backoff', async (t) => {
  const parkedBefore = await listParked(db.pool);
  // The fan-out's connection dies whenever it queues this account (as when the server restarts under it).
  await db.pool.query(`CREATE FUNCTION test_lose_connection() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.record_id = '5720570' THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF; RETURN NEW; END $$;
    CREATE TRIGGER test_lose_connection BEFORE INSERT ON event_queue FOR EACH ROW EXECUTE FUNCTION test_lose_connection();`);
  const b = await bAccount('5720570');
  for (let waited = 0; service.fanout.health().state !== 'retrying' && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  t.equal(service.fanout.health().state, 'retrying', 'the fan-out is retrying');
  await service.close();
  const restarted = Date.now();
  ({ service, base } = await start());
  t.ok(Date.now() - restarted < 15_000, 'a restart listens though the fan-out cannot catch up');
  const health = await fetch(`${base}/health`).then(async (r) => ({ status: r.status, body: await r.json() }));
  t.equal(health.status, 503, '/health says it');
  t.equal(health.body.status, 'unavailable');
  t.ok(health.body.fanout.error, 'with the error');
  await db.pool.query(`DROP TRIGGER test_lose_connection ON event_queue; DROP FUNCTION test_lose_connection()`);
  t.notOk(await service.fanout.waitFor(b.position), 'a wait meanwhile answers at once, rather than hang');
  for (let waited = 0; service.fanout.health().state !== 'live' && waited < 40_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
  t.ok(await service.fanout.waitFor(b.position), 'it goes on by itself once the database is back');
  t.ok((await queued(queueB.id)).some((r) => r.record_id === '5720570'), "B's event is queued");
  t.same(await listParked(db.pool), parkedBefore, 'nothing was parked for it');
  t.equal(service.fanout.health().state, 'live');
});

t.test('a fault of the schema (a column gone) parks nobody: the fan-out retries until it is back, then goes on by itself', async (t) => {
  const parkedBefore = await listParked(db.pool);
  await db.pool.query(`ALTER TABLE event_queue RENAME COLUMN payload TO test_payload_gone`);
  const b = await bAccount('5720580');
  for (let waited = 0; !service.fanout.health().setAside?.fanout && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  t.equal(service.fanout.health().setAside?.fanout?.reason, 'stopped', 'the fan-out is stopped (on its own), for every organisation alike, and tried again by itself');
  t.same(await listParked(db.pool), parkedBefore, 'B is not parked for what would fail any event');
  await db.pool.query(`ALTER TABLE event_queue RENAME COLUMN test_payload_gone TO payload`);
  for (let waited = 0; service.fanout.health().setAside && waited < 40_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
  t.ok(await service.fanout.waitFor(b.position), 'it goes on once the column is back');
  t.ok((await queued(queueB.id)).some((r) => r.record_id === '5720580'), "B's event is queued");
  t.same(await listParked(db.pool), parkedBefore);
});
