/**
 * Webhook delivery end to end: a real service (loopback allowed) posting to real node:http receivers.
 * Signatures are checked with the `standardwebhooks` reference library, not with our own code.
 */
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { createTrigger, deleteTrigger, type TriggerOptions } from '../eventqueue/triggers.ts';
import { systemResolver } from '../eventqueue/webhooks/target.ts';
import { receiver, until, type Answer } from './helpers/receiver.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t, { webhookAllowLoopback: true });
const { db, mutate, fanout, webhooks, identity } = api.service;
// The helper's DROP DATABASE ... WITH (FORCE) can hit pooled connections still closing: not a test failure.
db.pool.on('error', () => {});
const FAST = { pollIntervalMs: 50, backoffMs: [150, 300, 600], jitter: 0, maxPauseMs: 150, attemptTimeoutMs: 2_000 };
webhooks.configure(FAST);
const year = new Date().getUTCFullYear();
const adminHeaders = { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId };

const post = async (amount: string) => {
  const r = await mutate.createAccountingEntryUsingCodes({ organisationId: api.organisationId }, {
    date: `${year}-06-06`, journalTypeCode: 'GEN', description: `hook ${amount}`,
    accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: amount }, { subAccountCode: '1000000', creditAmount: amount }],
  });
  await fanout.waitFor(r.position);
  return r;
};

const webhookTrigger = async (t: { teardown(fn: () => unknown): void }, url: string, check: TriggerOptions = { allowLoopback: true }) => {
  const created = await createTrigger(db.pool, { organisationId: api.organisationId, type: 'http-post', url, events: ['accountingEntry/after.create'] }, check);
  t.teardown(() => deleteTrigger(db.pool, api.organisationId, created.id));
  return created as { id: string; secret: string };
};
const depth = async (triggerId: string) => (await db.pool.query(`SELECT count(*)::int AS n FROM event_queue WHERE trigger_id = $1`, [triggerId])).rows[0].n as number;
const triggerRow = async (triggerId: string) => (await db.pool.query(`SELECT * FROM triggers WHERE id = $1`, [triggerId])).rows[0];
const deliveryLog = async (triggerId: string) => (await db.pool.query(`SELECT * FROM webhook_deliveries WHERE trigger_id = $1 ORDER BY id`, [triggerId])).rows;
const eventIdsOf = async (entries: Array<{ id: string }>) => {
  const { rows } = await db.pool.query(`SELECT event_id, data->>'entryId' AS entry FROM es_events WHERE event_type = 'AccountingEntryPosted' AND data->>'entryId' = ANY($1)`, [entries.map((e) => e.id)]);
  const byEntry = new Map(rows.map((r) => [r.entry, r.event_id]));
  return entries.map((e) => byEntry.get(e.id) as string);
};

t.test('deliveries carry Standard Webhooks headers that the reference library verifies', async (t) => {
  const hook = await receiver(t);
  const { id, secret } = await webhookTrigger(t, hook.url);
  t.match(secret, /^whsec_[A-Za-z0-9+/=]+$/);
  const posted = [await post('11.00'), await post('12.00'), await post('13.00')];
  await until('three deliveries', () => hook.delivered().length >= 3);
  const verifier = new Webhook(secret);
  const payloads = hook.requests.map((r) => verifier.verify(r.body, r.headers) as any);
  t.same(payloads.map((p) => p.data.entryId).sort(), posted.map((p) => p.id).sort(), 'every entry arrives, verified by standardwebhooks');
  for (const [i, r] of hook.requests.entries()) {
    t.equal(r.headers['webhook-id'], payloads[i].id, 'webhook-id is the event id');
    t.equal(r.headers['content-type'], 'application/json');
    t.ok(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000) < 30, 'timestamp in unix seconds, now');
    t.match(r.headers['webhook-signature'], /^v1,[A-Za-z0-9+/]+=*$/);
    t.equal(r.headers['webhook-event'], 'accountingEntry/after.create');
    t.equal(payloads[i].type, 'AccountingEntryPosted');
    t.equal(payloads[i].organisationId, api.organisationId);
  }
  t.same(new Set(hook.requests.map((r) => r.headers['webhook-id'])), new Set(await eventIdsOf(posted)));
  const tampered = hook.requests[0].body.replace('11.00', '99.00');
  t.throws(() => verifier.verify(tampered, hook.requests[0].headers), 'a changed body fails verification');
  t.throws(() => new Webhook(`whsec_${Buffer.from('another key, not ours').toString('base64')}`).verify(hook.requests[0].body, hook.requests[0].headers), 'another secret fails');
  await until('queue drained', async () => (await depth(id)) === 0);
  const log = await deliveryLog(id);
  t.equal(log.length, 3, 'one logged attempt per event');
  t.ok(log.every((l) => l.status_code === 204 && l.error === null && l.attempt === 1));
  t.equal(hook.requests[0].headers.host, `127.0.0.1:${hook.port}`);
  t.match(hook.requests[0].headers['user-agent'], /ledger-webhooks/);
});

t.test('a receiver that fails (500, 429 with Retry-After, 503) and recovers gets every event', async (t) => {
  const script: Answer[] = [
    { status: 500, body: 'database down' },
    { status: 429, headers: { 'retry-after': '1' } },
    { status: 503, body: 'maintenance' },
  ];
  const hook = await receiver(t, (_r, n) => script[n] ?? { status: 200, body: 'ok' });
  const { id } = await webhookTrigger(t, hook.url);
  const posted = [await post('21.00'), await post('22.00'), await post('23.00'), await post('24.00'), await post('25.00')];
  const wanted = new Set(await eventIdsOf(posted));
  await until('all five delivered', () => new Set(hook.delivered().map((r) => r.headers['webhook-id'])).size === 5);
  t.same(new Set(hook.delivered().map((r) => r.headers['webhook-id'])), wanted, 'every event eventually delivered');
  await until('queue drained', async () => (await depth(id)) === 0);
  const log = await deliveryLog(id);
  const failed = log.filter((l) => l.error !== null);
  t.same(failed.map((l) => l.status_code).sort(), [429, 500, 503], 'each failure logged with its status');
  t.match(failed.find((l) => l.status_code === 500)!.error, /HTTP 500: database down/);
  t.ok(log.filter((l) => l.error === null).length >= 5, 'and the successes');
  // Retry-After: 1 was honoured: that event's next request came at least ~1 s later.
  const throttled = hook.requests.find((r) => r.status === 429)!;
  const retry = hook.requests.find((r) => r !== throttled && r.at > throttled.at && r.headers['webhook-id'] === throttled.headers['webhook-id'])!;
  t.ok(retry.at - throttled.at >= 900, `retried after Retry-After (${retry.at - throttled.at} ms)`);
  const ofThrottled = log.filter((l) => l.event_id === throttled.headers['webhook-id']);
  t.same(ofThrottled.map((l) => l.attempt), ofThrottled.map((_, i) => i + 1), 'the delivery log numbers the attempts of an event');
  t.equal(ofThrottled.at(-1).error, null, 'the last one delivered');
  t.equal((await triggerRow(id)).consecutive_failures, 0, 'a success resets the failure run');
  t.equal((await triggerRow(id)).disabled_at, null);
});

t.test('attempts time out, and a long run of failures spanning the configured time disables the trigger', async (t) => {
  webhooks.configure({ attemptTimeoutMs: 300, disableAfterFailures: 3, disableAfterMs: 60 * 60_000 });
  t.teardown(() => webhooks.configure({ ...FAST, disableAfterFailures: 20, disableAfterMs: 24 * 3_600_000 }));
  const hook = await receiver(t, () => 'hang');
  const { id } = await webhookTrigger(t, hook.url);
  await post('31.00');
  await until('four timed-out attempts', async () => (await deliveryLog(id)).length >= 4);
  const log = await deliveryLog(id);
  t.ok(log.every((l) => /^timeout: no answer within 300 ms/.test(l.error) && l.status_code === null), 'timeouts are logged as such');
  t.same(log.slice(0, 4).map((l) => l.attempt), [1, 2, 3, 4]);
  let trigger = await triggerRow(id);
  t.ok(trigger.consecutive_failures >= 4);
  t.equal(trigger.disabled_at, null, 'not disabled: the failures do not span an hour yet');
  // Backdate the run: it now spans more than the hour.
  await db.pool.query(`UPDATE webhook_deliveries SET delivered_at = delivered_at - interval '2 hours' WHERE trigger_id = $1`, [id]);
  trigger = await until('disabled', async () => {
    const row = await triggerRow(id);
    return row.disabled_at ? row : undefined;
  });
  t.match(trigger.disabled_reason, /consecutive failed attempts since .*; last: timeout/);
  const attempts = hook.requests.length;
  await new Promise((r) => setTimeout(r, 600));
  t.equal(hook.requests.length, attempts, 'a disabled trigger gets no more requests');
  t.equal(await depth(id), 1, 'its event stays queued for a redrive');
});

t.test('410 Gone disables the trigger at once; a redrive re-enables it and delivers the queue', async (t) => {
  let gone = true;
  const hook = await receiver(t, () => (gone ? { status: 410 } : { status: 200 }));
  const { id } = await webhookTrigger(t, hook.url);
  const posted = [await post('41.00'), await post('42.00')];
  const trigger = await until('disabled', async () => {
    const row = await triggerRow(id);
    return row.disabled_at ? row : undefined;
  });
  t.equal(trigger.disabled_reason, 'the endpoint answered 410 Gone');
  await new Promise((r) => setTimeout(r, 400));
  const afterDisable = hook.requests.length;
  t.ok(afterDisable >= 1 && afterDisable <= 2, 'at most the attempts already in flight');
  await new Promise((r) => setTimeout(r, 400));
  t.equal(hook.requests.length, afterDisable, 'no request after the 410');
  t.equal(await depth(id), 2, 'both events kept');
  const rest = await fetch(`${api.base}/triggers/${id}`, { headers: adminHeaders });
  t.match((await rest.json()).disabled_reason, /410/);

  // Only an admin with full_access may redrive.
  const readonly = await identity.issueToken(api.organisationId, 'demo@example.com', api.clientId, 'readonly');
  const refused = await fetch(`${api.base}/triggers/${id}/redrive`, { method: 'POST', headers: { Authorization: `Bearer ${readonly.access_token}`, 'X-Site': api.organisationId } });
  t.equal(refused.status, 403);
  t.equal((await fetch(`${api.base}/triggers/00000000-0000-0000-0000-000000000000/redrive`, { method: 'POST', headers: adminHeaders })).status, 404);

  gone = false;
  const redrive = await fetch(`${api.base}/triggers/${id}/redrive`, { method: 'POST', headers: adminHeaders });
  t.equal(redrive.status, 200);
  t.same(await redrive.json(), { id, was_disabled: true, disabled_reason: 'the endpoint answered 410 Gone', requeued: 2, $path: `/triggers/${id}` });
  await until('both delivered', () => new Set(hook.delivered().map((r) => r.headers['webhook-id'])).size === 2);
  t.same(new Set(hook.delivered().map((r) => r.headers['webhook-id'])), new Set(await eventIdsOf(posted)));
  await until('queue drained', async () => (await depth(id)) === 0);
  const after = await triggerRow(id);
  t.equal(after.disabled_at, null);
  t.equal(after.consecutive_failures, 0);

  // The delivery log over REST: newest first, paged.
  const page = await (await fetch(`${api.base}/triggers/${id}/deliveries?items_per_page=2`, { headers: adminHeaders })).json();
  t.equal(page.$total, (await deliveryLog(id)).length);
  t.equal(page.$items.length, 2);
  t.ok(page.$items.every((d: any) => d.delivered && d.status_code === 200), 'newest first: the deliveries after the redrive');
  t.match(page.$next, `/triggers/${id}/deliveries?page=2&items_per_page=2`);
  const last = await (await fetch(`${api.base}/triggers/${id}/deliveries?page=99&items_per_page=2`, { headers: adminHeaders })).json();
  t.ok(last.$items.some((d: any) => d.status_code === 410 && d.delivered === false && /410/.test(d.error)), 'the oldest page holds the 410');
  t.equal((await fetch(`${api.base}/triggers/${id}/deliveries`, { headers: {} })).status, 401);
});

t.test('a redrive delivers the oldest event of a trigger first', async (t) => {
  webhooks.configure({ perTriggerConcurrency: 1 });
  t.teardown(() => webhooks.configure({ perTriggerConcurrency: 4 }));
  const hook = await receiver(t);
  const { id } = await webhookTrigger(t, hook.url);
  await db.pool.query(`UPDATE triggers SET disabled_at = now(), disabled_reason = 'test' WHERE id = $1`, [id]);
  const posted = [];
  for (let i = 0; i < 6; i++) posted.push(await post(`5${i}.00`));
  t.equal(await depth(id), 6);
  const redrive = await fetch(`${api.base}/triggers/${id}/redrive`, { method: 'POST', headers: adminHeaders });
  t.equal((await redrive.json()).requeued, 6);
  await until('six delivered', () => hook.delivered().length >= 6);
  t.same(hook.requests.map((r) => r.headers['webhook-id']), await eventIdsOf(posted), 'in commit order');
});

t.test('requests go to the address that was checked, under the URL host name', async (t) => {
  const hook = await receiver(t);
  const resolved: string[] = [];
  webhooks.configure({
    resolver: async (host) => {
      resolved.push(host);
      if (host === 'hooks.example.test') return [{ address: '127.0.0.1', family: 4 }];
      if (host === 'rebind.example.test') return [{ address: '127.0.0.1', family: 4 }, { address: '10.1.2.3', family: 4 }];
      return systemResolver(host);
    },
  });
  t.teardown(() => webhooks.configure({ resolver: undefined }));
  // When created, both names answered loopback only; rebind's answer changes before delivery (DNS rebinding).
  const atCreation: TriggerOptions = { allowLoopback: true, resolver: async () => [{ address: '127.0.0.1', family: 4 }] };
  const named = await webhookTrigger(t, `http://hooks.example.test:${hook.port}/in`, atCreation);
  const mixed = await webhookTrigger(t, `http://rebind.example.test:${hook.port}/in`, atCreation);
  await post('61.00');
  await until('delivered by name', () => hook.delivered().length >= 1);
  t.equal(hook.requests[0].headers.host, `hooks.example.test:${hook.port}`, 'Host names the URL host; the connection went to the vetted 127.0.0.1');
  await until('named queue drained', async () => (await depth(named.id)) === 0);
  const refused = await until('refusal logged', async () => (await deliveryLog(mixed.id))[0]);
  t.match(refused.error, /refused target: 10\.1\.2\.3 \(rebind\.example\.test resolves to it\) is in the private range/, 'one private address among several refuses the target');
  t.equal(refused.status_code, null);
  t.equal(hook.requests.length, 1, 'nothing was sent to the mixed target');
  t.ok(resolved.includes('hooks.example.test'));
});
