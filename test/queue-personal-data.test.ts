/**
 * What the trigger event queue hands out of a party's personal data, against the real service: a message whose
 * sealed part its key does not open goes out without it (personalDataUnavailable) and stops neither the pull
 * queue's page nor a webhook batch; an erasure while a leased event waits in its webhook lane is honoured by the
 * send; and a message's metadata never carries the request fingerprint (a hash of the whole input).
 */
import { randomBytes } from 'node:crypto';
import t, { type Test } from 'tap';
import { createTrigger, deleteTrigger } from '../eventqueue/triggers.ts';
import { MUTATIONS } from '../modules/index.ts';
import { receiver, until, type Answer } from './helpers/receiver.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t, { webhookAllowLoopback: true, eventLeaseSeconds: 1 });
const { db, store, fanout, webhooks } = api.service;
db.pool.on('error', () => {}); // the helper's DROP DATABASE ... WITH (FORCE) can hit pooled connections still closing
webhooks.configure({ pollIntervalMs: 50, backoffMs: [100], jitter: 0, maxPauseMs: 100 });
const organisationId = api.organisationId;
const auth = { Authorization: `Bearer ${api.token}`, 'X-Site': organisationId };

const QUEUE = `${api.base}/ia/api/v1/services/delivery/event`;
const queueAuth = { Authorization: `Bearer ${api.token}` };
const decode = (b64: string) => JSON.parse(Buffer.from(b64, 'base64').toString());
const listPage = () => fetch(`${QUEUE}/list?size=1000`, { headers: queueAuth });
const ack = (ackId: string) => fetch(`${QUEUE}/ack`, { method: 'POST', headers: { ...queueAuth, 'Content-Type': 'application/json' }, body: JSON.stringify({ ackId }) });
const caughtUp = async (t: Test) => t.ok(await fanout.waitFor(await store.committedHead!()), 'the fan-out caught up');

await createTrigger(db.pool, { organisationId, type: 'event-queue', clientId: api.clientId });

/** A webhook trigger on customers' creations, deleted when the test ends (its receiver closes then). */
async function customerHook(t: Test, answer: (n: number) => Answer | Promise<Answer>) {
  const hook = await receiver(t, (_, n) => answer(n));
  const trigger = await createTrigger(db.pool, { organisationId, type: 'http-post', url: hook.url, events: ['customer/after.create'] }, { allowLoopback: true });
  t.teardown(() => deleteTrigger(db.pool, organisationId, trigger.id));
  return { hook, trigger };
}

async function run(name: string, input: object, headers: Record<string, string> = auth): Promise<string> {
  const spec = MUTATIONS.find((m) => m.name === name)!;
  const r = await api.gql(`mutation($v: ${spec.input}!) { ${name}(input: $v) { id } }`, { v: input }, headers);
  if (r.errors) throw new Error(`${name}: ${JSON.stringify(r.errors)}`);
  return r.data[name].id;
}
const createCustomer = (input: object, headers?: Record<string, string>) => run('createCustomer', input, headers);

const SECRETS = ['Zacarías Ordóñez', 'Calle del Secreto 42', 'zacarias.ordonez@example.org', '12345678Z'];
const holdsSecret = (text: string) => SECRETS.filter((s) => text.includes(s));
const secretCustomer = {
  socialName: SECRETS[0], vatNumber: SECRETS[3], countryAcronym: 'ES',
  addresses: [{ firstLine: SECRETS[1], city: 'Toledo', countryIsoCodeAlpha2: 'ES', isMainAddress: true }],
  contacts: [{ name: 'Zacarías', isDefault: true, emails: [{ emailAddress: SECRETS[2] }] }],
};
/** The id of the event that created the party (a webhook's `webhook-id`, a queue message's `eventId`). */
async function createdEvent(partyId: string): Promise<string> {
  const { rows } = await db.pool.query(`SELECT event_id FROM es_events WHERE event_type = 'CustomerCreated' AND data->>'partyId' = $1`, [partyId]);
  return rows[0].event_id;
}
const eventOf = (r: { headers: Record<string, string> }) => r.headers['webhook-id'];

t.test('an envelope its key does not open: that message without its personal part, the page and the batch intact', async (t) => {
  let ready = false; // deliveries fail until the key is damaged, so every webhook attempt renders it damaged
  const { hook, trigger } = await customerHook(t, () => (ready ? { status: 204 } : { status: 503 }));
  const intact = await createCustomer({ socialName: 'Cliente Íntegro S.L.' });
  const damaged = await createCustomer(secretCustomer);
  const { rows: [original] } = await db.pool.query(`SELECT key FROM subject_keys WHERE subject_id = $1 AND key IS NOT NULL`, [damaged]);
  t.ok(original, 'the customer has its key');
  await db.pool.query(`UPDATE subject_keys SET key = $2 WHERE subject_id = $1`, [damaged, randomBytes(original.key.length)]);
  // Put back when the test ends, so the tests after it read a sound queue whatever this one found.
  t.teardown(() => db.pool.query(`UPDATE subject_keys SET key = $2 WHERE subject_id = $1`, [damaged, original.key]));
  await caughtUp(t);

  const events = [await createdEvent(damaged), await createdEvent(intact)];

  const res = await listPage();
  if (t.equal(res.status, 200, 'the page is answered')) {
    const page = (await res.json())['ia::result'] as { ackId: string; events: any[] };
    const [bad, good] = events.map((id) => page.events.find((e) => e.eventId === id));
    t.ok(bad, 'the damaged message is listed');
    const text = Buffer.from(bad.payload, 'base64').toString();
    t.same(holdsSecret(text), [], 'with no personal value');
    t.notMatch(text, /A256GCM/, 'and no sealed envelope');
    t.equal(decode(bad.payload).personalDataUnavailable, true, 'saying its personal data is unavailable');
    t.notOk(decode(bad.payload).personalDataErased, 'not that it was erased');
    t.equal(decode(good.payload).data.fields.socialName, 'Cliente Íntegro S.L.', 'the other message of the page keeps its personal fields');
    await ack(page.ackId);
  }

  ready = true;
  webhooks.wake(trigger.id);
  await until('both customers delivered', () => events.every((id) => hook.delivered().some((r) => eventOf(r) === id)));
  const sent = (id: string) => hook.delivered().find((r) => eventOf(r) === id)!.body;
  t.match(sent(events[1]), /Cliente Íntegro S\.L\./, 'the intact customer is delivered with its personal fields');
  t.same(holdsSecret(sent(events[0])), [], 'the damaged one is delivered with no personal value');
  t.notMatch(sent(events[0]), /A256GCM/, 'and no sealed envelope');
  t.equal(JSON.parse(sent(events[0])).personalDataUnavailable, true);
});

t.test('a customer erased while its leased event waits in the webhook lane is sent with no personal value', async (t) => {
  const concurrency = webhooks.options.perTriggerConcurrency;
  webhooks.configure({ perTriggerConcurrency: 1 }); // the second event waits, leased, behind the first
  t.teardown(() => webhooks.configure({ perTriggerConcurrency: concurrency }));
  let answerFirst: (a: Answer) => void = () => {};
  const firstAnswered = new Promise<Answer>((resolve) => (answerFirst = resolve));
  const { hook, trigger } = await customerHook(t, (n) => (n === 0 ? firstAnswered : { status: 204 }));
  t.teardown(() => answerFirst({ status: 204 }));

  await createCustomer({ socialName: 'Cliente Primero S.L.' });
  await until('the first delivery, held open', () => hook.requests.length === 1);
  const erased = await createCustomer(secretCustomer);
  await caughtUp(t);
  await until('the erased customer leased, waiting in its lane', async () => {
    const { rows } = await db.pool.query(`SELECT leased_until > now() AS leased FROM event_queue WHERE trigger_id = $1 AND record_key = $2`, [trigger.id, erased]);
    return rows[0]?.leased === true;
  });
  t.equal(hook.requests.length, 1, 'not sent yet');

  await run('applyGdprCustomer', { id: erased });
  answerFirst({ status: 204 });
  await until('the erased customer delivered', () => hook.delivered().length === 2);
  const body = hook.delivered()[1].body;
  t.equal(JSON.parse(body).data.partyId, erased, "the erased customer's event, sent from the lease it waited on");
  t.same(holdsSecret(body), [], 'the delivery carries no personal value');
  t.notMatch(body, /A256GCM/, 'and no sealed envelope');
  t.equal(JSON.parse(body).personalDataErased, true, 'saying it was erased');
});

t.test("a mutation sent with an Idempotency-Key: its queued message's metadata has no request fingerprint", async (t) => {
  const { hook } = await customerHook(t, () => ({ status: 204 }));
  const id = await createCustomer({ socialName: 'Cliente Repetido S.L.' }, { ...auth, 'Idempotency-Key': 'queue-fingerprint-1' });
  await caughtUp(t);
  const eventId = await createdEvent(id);
  const stored = await db.pool.query(`SELECT metadata FROM es_events WHERE event_id = $1`, [eventId]);
  t.type(stored.rows[0].metadata.requestFingerprint, 'string', 'the stored event keeps the fingerprint (idempotency needs it)');

  const page = (await (await listPage()).json())['ia::result'] as { ackId: string; events: any[] };
  const message = page.events.find((e) => e.eventId === eventId);
  t.ok(message, 'the message is queued');
  const metadata = decode(message.payload).metadata;
  t.equal(metadata.organisationId, organisationId, 'with its metadata');
  t.notOk('requestFingerprint' in metadata, 'but no request fingerprint in the pull queue');
  await ack(page.ackId);

  await until('the webhook delivery', () => hook.delivered().some((r) => eventOf(r) === eventId));
  const delivered = JSON.parse(hook.delivered().find((r) => eventOf(r) === eventId)!.body);
  t.equal(delivered.metadata.organisationId, organisationId);
  t.notOk('requestFingerprint' in delivered.metadata, 'nor in the webhook delivery');
});

t.test('a message queued before fingerprints were left out goes out without its fingerprint too', async (t) => {
  const id = await createCustomer({ socialName: 'Cliente Antiguo S.L.' });
  await caughtUp(t);
  const eventId = await createdEvent(id);
  // As an older version stored it: the fingerprint inside the queued payload's metadata.
  const { rowCount } = await db.pool.query(`UPDATE event_queue SET payload = jsonb_set(payload, '{metadata,requestFingerprint}', '"old-fingerprint"') WHERE event_id = $1`, [eventId]);
  t.ok(rowCount, 'stored with a fingerprint');
  const page = (await (await listPage()).json())['ia::result'] as { ackId: string; events: any[] };
  const message = page.events.find((e) => e.eventId === eventId);
  t.ok(message, 'the message is queued');
  t.notOk('requestFingerprint' in decode(message.payload).metadata, 'no fingerprint in the pull queue');
  await ack(page.ackId);
});

t.test('a message queued before its event type changed shape goes out in the current shape, as the store reads it', async (t) => {
  const id = await createCustomer({ socialName: 'Cliente de Antes S.L.', customerType: 'BUSINESS' });
  await caughtUp(t);
  const eventId = await createdEvent(id);
  // As the version before Sage's values queued it: our first values, at the type's first schema version.
  const { rowCount } = await db.pool.query(
    `UPDATE event_queue SET payload = jsonb_set(jsonb_set(jsonb_set(payload, '{data,fields,customerType}', '"COMPANY"'), '{data,fields,status}', '"ACTIVE"'), '{metadata,schemaVersion}', '1')
     WHERE event_id = $1`, [eventId]);
  t.ok(rowCount, 'stored in the old shape');
  const page = (await (await listPage()).json())['ia::result'] as { ackId: string; events: any[] };
  const payload = decode(page.events.find((e) => e.eventId === eventId).payload);
  t.match(payload.data.fields, { customerType: 'BUSINESS', status: 'ENABLED', socialName: 'Cliente de Antes S.L.' }, "Sage's values, the personal part merged as before");
  t.equal(payload.metadata.schemaVersion, (await store.readStream(payload.streamId)).find((e) => e.id === eventId)!.metadata.schemaVersion, 'at the version the store reads');
  await ack(page.ackId);
});

t.test('a payload that cannot be rendered (the key lookup fails) counts nothing against the trigger and is sent later', async (t) => {
  let failing = true;
  // A short webhook lease (its rows wait at most leaseMs - 5 s in a lane), so the row comes back within the test.
  const { leaseMs, attemptTimeoutMs } = webhooks.options;
  webhooks.configure({ leaseMs: 6_500, attemptTimeoutMs: 1_000 });
  t.teardown(() => webhooks.configure({ leaseMs, attemptTimeoutMs }));
  const { hook, trigger } = await customerHook(t, () => ({ status: 204 }));
  const realQuery = db.pool.query.bind(db.pool);
  // The database failing the key lookup only (as a saturated pool would), everything else real.
  (db.pool as any).query = (sql: unknown, ...rest: unknown[]) =>
    failing && String(sql).includes('subject_id = ANY') ? Promise.reject(new Error('timeout exceeded when trying to connect')) : (realQuery as any)(sql, ...rest);
  t.teardown(() => { (db.pool as any).query = realQuery; });
  const id = await createCustomer({ socialName: 'Cliente Paciente S.L.' });
  await caughtUp(t);
  const eventId = await createdEvent(id);
  await until('the row leased', async () => (await realQuery(`SELECT leased_until FROM event_queue WHERE event_id = $1 AND trigger_id = $2`, [eventId, trigger.id])).rows[0]?.leased_until);
  await new Promise((r) => setTimeout(r, 500)); // its attempt to render has failed by now
  const { rows: [state] } = await realQuery(`SELECT consecutive_failures FROM triggers WHERE id = $1`, [trigger.id]);
  t.equal(state.consecutive_failures, 0, 'no failure recorded against the trigger');
  const { rows: logged } = await realQuery(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE trigger_id = $1`, [trigger.id]);
  t.equal(logged[0].n, 0, 'and no delivery logged');
  t.equal(hook.delivered().length, 0, 'nothing sent meanwhile');
  failing = false;
  await until('the delivery once the lookup works', () => hook.delivered().some((r) => eventOf(r) === eventId));
  t.pass('sent after its lease lapsed');
});
