/**
 * A queued account message carries the interface's fields only: not the account's internal nature, nor the
 * markers the upcasters set on events stored with our first values (eventqueue/accounting/events.ts).
 */
import t from 'tap';
import { createTrigger } from '../eventqueue/triggers.ts';
import { until } from './helpers/receiver.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { db, store, fanout, mutate } = api.service;
db.pool.on('error', () => {}); // the helper's DROP DATABASE ... WITH (FORCE) can hit pooled connections still closing
const organisationId = api.organisationId;
const ctx = { organisationId };
const QUEUE = `${api.base}/ia/api/v1/services/delivery/event`;
const queueAuth = { Authorization: `Bearer ${api.token}` };
const decode = (b64: string) => JSON.parse(Buffer.from(b64, 'base64').toString());
const INTERNAL = ['nature', 'plainSubAccountType', 'offBalanceByCountry'];

await createTrigger(db.pool, { organisationId, type: 'event-queue', clientId: api.clientId });

const eventIdsOf = async (accountId: string) =>
  (await db.pool.query(`SELECT event_id, event_type FROM es_events WHERE data->>'accountId' = $1 ORDER BY global_position`, [accountId])).rows;

t.test('account messages: no nature, no upcaster markers', async (t) => {
  const { id } = await mutate.createAccountingAccount(ctx, { code: '6290931', name: 'Gasto', accountType: 'INCOME_STATEMENT', subAccountType: 'CHARGE' });
  await mutate.updateAccountingAccount(ctx, { id, subAccountType: 'COST' });
  await mutate.updateAccountingAccount(ctx, { id, name: 'Gasto 2' });
  await mutate.updateAccountingAccount(ctx, { id, name: 'Gasto 3' });
  t.ok(await fanout.waitFor(await store.headPosition()), 'the fan-out caught up');
  const [created, updated, oldGeneral, oldOffBalance] = await eventIdsOf(id);
  const stored = (await db.pool.query(`SELECT data FROM es_events WHERE event_id = $1`, [created.event_id])).rows[0].data;
  t.equal(stored.nature, 'EXPENSE', 'the stored event holds the nature');
  // As the version before Sage's values queued them: our first GENERAL and OFF_BALANCE, at schema version 1.
  const asBefore = (eventId: string, changes: object) => until(`the queued ${eventId}`, async () => (await db.pool.query(
    `UPDATE event_queue SET payload = jsonb_set(jsonb_set(payload, '{data,changes}', $2::jsonb), '{metadata,schemaVersion}', '1') WHERE event_id = $1`,
    [eventId, JSON.stringify(changes)])).rowCount);
  await asBefore(oldGeneral.event_id, { subAccountType: 'GENERAL' });
  await asBefore(oldOffBalance.event_id, { accountType: 'OFF_BALANCE' });

  await until('every message queued', async () => (await db.pool.query(`SELECT count(*)::int AS n FROM event_queue WHERE event_id = ANY($1)`, [[created, updated].map((e) => e.event_id)])).rows[0].n === 2);
  const page = (await (await fetch(`${QUEUE}/list?size=1000`, { headers: queueAuth })).json())['ia::result'] as { ackId: string; events: any[] };
  const payloadOf = (eventId: string) => decode(page.events.find((e) => e.eventId === eventId).payload);
  const createdData = payloadOf(created.event_id).data;
  t.match(createdData, { accountId: id, code: '6290931', accountType: 'INCOME_STATEMENT', subAccountType: 'CHARGE' }, "the created message keeps Sage's fields");
  t.same(INTERNAL.filter((f) => f in createdData), [], 'the created message has no internal field');
  for (const [name, event, kept] of [['an update', updated, { subAccountType: 'COST' }], ['an old GENERAL update', oldGeneral, {}], ['an old OFF_BALANCE update', oldOffBalance, { accountType: 'UNDEFINED' }]] as const) {
    const changes = payloadOf(event.event_id).data.changes;
    t.match(changes, kept, `${name}: its public changes`);
    t.same(INTERNAL.filter((f) => f in changes), [], `${name}: no internal field`);
  }
  await fetch(`${QUEUE}/ack`, { method: 'POST', headers: { ...queueAuth, 'Content-Type': 'application/json' }, body: JSON.stringify({ ackId: page.ackId }) });
});
