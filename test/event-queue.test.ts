import t from 'tap';
import { sweepExpired } from '../eventqueue/queue.ts';
import { createTrigger } from '../eventqueue/triggers.ts';
import { runningService } from './helpers/service.ts';

const LEASE = 1;
const api = await runningService(t, { eventLeaseSeconds: LEASE });
const { db, identity, commands, mutate, fanout } = api.service;
const BASE = '/ia/api/v1/services/delivery/event';
const year = new Date().getUTCFullYear();
const auth = { Authorization: `Bearer ${api.token}` };
const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = auth) => {
  const res = await fetch(`${api.base}${BASE}${path}`, { method, headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json() };
};
const decode = (b64: string) => JSON.parse(Buffer.from(b64, 'base64').toString());
const post = async (amount: string) => {
  const r = await mutate.createAccountingEntryUsingCodes({ organisationId: api.organisationId }, { date: `${year}-05-05`, journalTypeCode: 'GEN', description: `q ${amount}`, accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: amount }, { subAccountCode: '1000000', creditAmount: amount }] });
  await fanout.waitFor(r.position);
  return r;
};

await createTrigger(db.pool, { organisationId: api.organisationId, type: 'event-queue', clientId: api.clientId, events: ['accountingEntry/after.create', 'accountingEntry/after.delete'] });
const posted = [await post('1.00'), await post('2.00'), await post('3.00')];

t.test('count, list and ack as the spec shows them', async (t) => {
  const count = await call('GET', '/count');
  t.same(count.body, { 'ia::result': { count: 3 }, 'ia::meta': { totalCount: 1, totalSuccess: 1, totalError: 0 } });
  const list = await call('GET', '/list?size=2');
  t.equal(list.status, 200);
  const { events, ackId } = list.body['ia::result'];
  t.equal(events.length, 2);
  t.same(list.body['ia::meta'], { totalCount: 2, totalSuccess: 2, totalError: 0 });
  t.match(ackId, /^[0-9a-f-]{36}$/);
  const [first] = events;
  t.equal(first.eventType, 'pull');
  t.equal(first.contentType, 'application/json');
  t.same(decode(first.clientContext), { object: 'accountingEntry', event: 'after.create', key: posted[0].id, id: String(posted[0].number) });
  const payload = decode(first.payload);
  t.equal(payload.type, 'AccountingEntryPosted');
  t.equal(payload.id, first.eventId, 'eventId is the domain event id');
  t.equal(payload.data.entryId, posted[0].id, 'commit order: the first entry first');
  const ack = await call('POST', '/ack', { ackId });
  t.same(ack.body, { 'ia::result': { ackId, status: 'success' }, 'ia::meta': { totalCount: 1, totalSuccess: 1, totalError: 0 } });
  t.equal((await call('GET', '/count')).body['ia::result'].count, 1);
  const again = await call('POST', '/ack', { ackId });
  t.equal(again.body['ia::result'].status, 'alreadyAcknowledged');
});

t.test('an unacknowledged batch comes back after its lease with a new ackId; an acknowledged one never does', async (t) => {
  const first = (await call('GET', '/list')).body['ia::result'];
  t.equal(first.events.length, 1);
  t.same((await call('GET', '/list')).body['ia::result'].events, [], 'leased events are not listed twice');
  await new Promise((r) => setTimeout(r, LEASE * 1000 + 300));
  const second = (await call('GET', '/list')).body['ia::result'];
  t.same(second.events.map((e: any) => e.eventId), first.events.map((e: any) => e.eventId), 'the same event again');
  t.not(second.ackId, first.ackId, 'in a new batch');
  const stale = await call('POST', '/ack', { ackId: first.ackId });
  t.equal(stale.status, 410);
  t.equal(stale.body['ia::result'].status, 'expired');
  t.equal(stale.body['ia::meta'].totalError, 1);
  t.equal((await call('POST', '/ack', { ackId: second.ackId })).body['ia::result'].status, 'success');
  await new Promise((r) => setTimeout(r, LEASE * 1000 + 300));
  t.equal((await call('GET', '/count')).body['ia::result'].count, 0, 'acknowledged events are gone for good');
});

t.test('concurrent consumers never hold the same event in two live batches', async (t) => {
  for (let i = 0; i < 30; i++) await post(`${i + 10}.00`);
  const batches = await Promise.all(Array.from({ length: 6 }, () => call('GET', '/list?size=7')));
  const ids = batches.flatMap((b) => b.body['ia::result'].events.map((e: any) => e.eventId));
  t.equal(ids.length, 30, 'all 30 handed out');
  t.equal(new Set(ids).size, ids.length, 'none twice');
  for (const b of batches) if (b.body['ia::result'].ackId) await call('POST', '/ack', { ackId: b.body['ia::result'].ackId });
  t.equal((await call('GET', '/count')).body['ia::result'].count, 0);
});

t.test('clear errors: unknown ackId, bad size, no token', async (t) => {
  const unknown = await call('POST', '/ack', { ackId: '00000000-0000-0000-0000-000000000000' });
  t.equal(unknown.status, 404);
  t.equal(unknown.body['ia::result'].status, 'notFound');
  t.equal(unknown.body['ia::meta'].totalError, 1);
  t.equal((await call('GET', '/list?size=1001')).status, 400);
  t.equal((await call('GET', '/list?size=0')).status, 400);
  t.equal((await call('POST', '/ack', {})).status, 400);
  t.equal((await call('GET', '/count', undefined, {})).status, 401);
});

t.test('every query and body field is validated: 400 in the queue format, never a database error', async (t) => {
  const refused = (answer: { status: number; body: any }, message: RegExp, what: string) => {
    t.equal(answer.status, 400, what);
    t.match(answer.body, { 'ia::result': { status: 'error', message }, 'ia::meta': { totalCount: 1, totalSuccess: 0, totalError: 1 } }, what);
    t.notMatch(JSON.stringify(answer.body), /syntax for type|invalid input|statusCode/, `${what}: no database or framework text`);
  };
  refused(await call('POST', '/ack', { ackId: '-'.repeat(36) }), /ackId: must be the UUID ackId/, '36 dashes');
  refused(await call('POST', '/ack', { ackId: 'g'.repeat(36) }), /ackId/, 'not hex');
  refused(await call('POST', '/ack', { ackId: 42 }), /ackId/, 'not a string');
  refused(await call('POST', '/ack', { ackId: '00000000-0000-0000-0000-000000000000', force: true }), /unknown field\(s\) force/, 'an unknown field');
  refused(await call('POST', '/ack', ['x']), /Body must be/, 'not an object');
  const broken = await fetch(`${api.base}${BASE}/ack`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{"ackId":' });
  refused({ status: broken.status, body: await broken.json() }, /JSON/, 'JSON that does not parse');
  for (const size of ['1e2', '1.5', '', '-1', '10000000000000000000000']) refused(await call('GET', `/list?size=${size}`), /size/, `size=${size}`);
  refused(await call('GET', '/list?size=1&size=2'), /size/, 'size twice');
  refused(await call('GET', '/list?sise=5'), /unknown field\(s\) sise/, 'a misspelt parameter');
  refused(await call('GET', '/count?x=1'), /unknown field\(s\) x/, 'count takes no parameters');
});

t.test('a readonly token counts and lists, but only full_access acknowledges (deletes)', async (t) => {
  await post('8.00');
  const readonly = await identity.issueToken(api.organisationId, 'demo@example.com', api.clientId, 'readonly');
  const headers = { Authorization: `Bearer ${readonly.access_token}` };
  const count = (await call('GET', '/count', undefined, headers)).body['ia::result'].count;
  t.ok(count >= 1, 'readonly counts');
  const { ackId, events } = (await call('GET', '/list', undefined, headers)).body['ia::result'];
  t.ok(events.length >= 1 && ackId, 'readonly lists');
  const refused = await call('POST', '/ack', { ackId }, headers);
  t.equal(refused.status, 403);
  t.match(refused.body, { 'ia::result': { status: 'error', message: /full_access/ }, 'ia::meta': { totalError: 1 } });
  t.equal((await call('GET', '/count', undefined, headers)).body['ia::result'].count, count, 'nothing deleted');
  t.equal((await call('POST', '/ack', { ackId })).body['ia::result'].status, 'success', 'a full_access token of the same client acknowledges');
});

t.test("a queue holds only its client's events of its organisation, filtered", async (t) => {
  const other = await identity.createClient('Other app', 'http://127.0.0.1:9/cb', false);
  const token = await identity.issueToken(api.organisationId, 'demo@example.com', other.client_id, 'readonly');
  const headers = { Authorization: `Bearer ${token.access_token}` };
  t.equal((await call('GET', '/count', undefined, headers)).body['ia::result'].count, 0, 'no trigger, no queue');
  await createTrigger(db.pool, { organisationId: api.organisationId, type: 'event-queue', clientId: other.client_id, events: ['accountingAccount/after.create'] });
  await post('5.00');
  const account = await mutate.createAccountingAccount({ organisationId: api.organisationId }, { code: '6290101', name: 'Queued account' });
  await fanout.waitFor(account.position);
  const list = (await call('GET', '/list', undefined, headers)).body['ia::result'];
  t.same(list.events.map((e: any) => decode(e.clientContext).object), ['accountingAccount'], 'only what its filter names');
  const otherOrg = await commands.createOrganisation({}, { name: 'Elsewhere', country: 'FR' });
  await fanout.waitFor(otherOrg.position);
  t.equal((await call('GET', '/count', undefined, headers)).body['ia::result'].count, 1, "another organisation's events never arrive");
});

t.test('events older than the retention are dropped and counted', async (t) => {
  await post('6.00');
  await db.pool.query(`UPDATE event_queue SET enqueued_at = now() - interval '8 days'`);
  const dropped = await sweepExpired(db.pool, 7);
  t.ok(dropped >= 1);
  const { rows } = await db.pool.query(`SELECT sum(dropped)::int AS n FROM event_queue_drops`);
  t.equal(rows[0].n, dropped);
  t.equal((await call('GET', '/count')).body['ia::result'].count, 0);
});

t.test('a fan-out redone after a crash adds nothing twice', async (t) => {
  await post('7.00');
  const before = (await db.pool.query(`SELECT count(*)::int AS n FROM event_queue`)).rows[0].n;
  // Simulate a crash after the rows were written but before the checkpoint moved: rewind it.
  await fanout.stop();
  await db.pool.query(`UPDATE projection_checkpoints SET commit_pos = '0', prepare_pos = 0 WHERE name = 'fanout'`);
  const { ProjectionDaemon } = await import('../projections/engine/daemon.ts');
  const { fanoutProjection } = await import('../eventqueue/fanout.ts');
  const again = new ProjectionDaemon(db.pool, api.service.store, [fanoutProjection]);
  await again.start();
  await again.stop();
  const after = (await db.pool.query(`SELECT count(*)::int AS n FROM event_queue`)).rows[0].n;
  t.ok(after >= before, 'nothing lost');
  const dupes = (await db.pool.query(`SELECT count(*)::int AS n FROM (SELECT trigger_id, event_id FROM event_queue GROUP BY 1, 2 HAVING count(*) > 1) d`)).rows[0].n;
  t.equal(dupes, 0, 'each event at most once per queue');
});
