/**
 * A queued account message carries the interface's fields only: not the account's internal nature, nor the
 * markers the upcasters set on events stored with our first values (eventqueue/accounting/events.ts), which it
 * renders as the read model resolves them: the organisation's off-balance statement, the plain sub-type of the
 * account's nature.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { publicPayloads } from '../eventqueue/public-payload.ts';
import { freshDatabase } from './helpers/database.ts';
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

/** Sage's off-balance statement by country, as the read model shows an old OFF_BALANCE account. */
const OFF_BALANCE_STATEMENT: Record<string, string> = { ES: 'ECPN', FR: 'SPECIAL', DE: 'STATISTICAL' };
const { rows: [{ country }] } = await db.pool.query(`SELECT country FROM organisations WHERE id = $1`, [organisationId]);

t.test('account messages: no nature, upcaster markers resolved as the read model does', async (t) => {
  t.ok(OFF_BALANCE_STATEMENT[country], `an organisation whose country has an off-balance statement (${country})`);
  const { id } = await mutate.createAccountingAccount(ctx, { code: '6290931', name: 'Gasto', accountType: 'INCOME_STATEMENT', subAccountType: 'CHARGE' });
  await mutate.updateAccountingAccount(ctx, { id, subAccountType: 'COST' });
  await mutate.updateAccountingAccount(ctx, { id, name: 'Gasto 2' });
  await mutate.updateAccountingAccount(ctx, { id, name: 'Gasto 3' });
  const offBalance = await mutate.createAccountingAccount(ctx, { code: '9100931', name: 'Orden', accountType: 'INCOME_STATEMENT', subAccountType: 'CHARGE' });
  t.ok(await fanout.waitFor(await store.committedHead!()), 'the fan-out caught up');
  const [created, updated, oldGeneral, oldOffBalance] = await eventIdsOf(id);
  const [oldOffBalanceCreated] = await eventIdsOf(offBalance.id);
  const stored = (await db.pool.query(`SELECT data FROM es_events WHERE event_id = $1`, [created.event_id])).rows[0].data;
  t.equal(stored.nature, 'EXPENSE', 'the stored event holds the nature');
  // As the version before Sage's values queued them: our first GENERAL and OFF_BALANCE, at schema version 1.
  const asBefore = (eventId: string, path: string, value: object | string) => until(`the queued ${eventId}`, async () => (await db.pool.query(
    `UPDATE event_queue SET payload = jsonb_set(jsonb_set(payload, $3::text[], $2::jsonb), '{metadata,schemaVersion}', '1') WHERE event_id = $1`,
    [eventId, JSON.stringify(value), path])).rowCount);
  await asBefore(oldGeneral.event_id, '{data,changes}', { subAccountType: 'GENERAL' });
  await asBefore(oldOffBalance.event_id, '{data,changes}', { accountType: 'OFF_BALANCE' });
  await asBefore(oldOffBalanceCreated.event_id, '{data,accountType}', 'OFF_BALANCE');

  await until('every message queued', async () => (await db.pool.query(`SELECT count(*)::int AS n FROM event_queue WHERE event_id = ANY($1)`, [[created, updated].map((e) => e.event_id)])).rows[0].n === 2);
  const page = (await (await fetch(`${QUEUE}/list?size=1000`, { headers: queueAuth })).json())['ia::result'] as { ackId: string; events: any[] };
  const payloadOf = (eventId: string) => decode(page.events.find((e) => e.eventId === eventId).payload);
  const createdData = payloadOf(created.event_id).data;
  t.match(createdData, { accountId: id, code: '6290931', accountType: 'INCOME_STATEMENT', subAccountType: 'CHARGE' }, "the created message keeps Sage's fields");
  t.same(INTERNAL.filter((f) => f in createdData), [], 'the created message has no internal field');
  const oldCreatedData = payloadOf(oldOffBalanceCreated.event_id).data;
  t.match(oldCreatedData, { accountId: offBalance.id, accountType: OFF_BALANCE_STATEMENT[country] }, "an old OFF_BALANCE account is told with its country's statement");
  t.same(INTERNAL.filter((f) => f in oldCreatedData), [], 'an old OFF_BALANCE account: no internal field');
  // The account's nature is EXPENSE: our first GENERAL is its plain sub-type, CHARGE.
  for (const [name, event, told] of [['an update', updated, { subAccountType: 'COST' }], ['an old GENERAL update', oldGeneral, { subAccountType: 'CHARGE' }], ['an old OFF_BALANCE update', oldOffBalance, { accountType: OFF_BALANCE_STATEMENT[country] }]] as const) {
    t.same(payloadOf(event.event_id).data.changes, told, `${name}: its public changes, exactly`);
  }
  await fetch(`${QUEUE}/ack`, { method: 'POST', headers: { ...queueAuth, 'Content-Type': 'application/json' }, body: JSON.stringify({ ackId: page.ackId }) });
});

t.test('while an upgrade rebuilds the chart, the previous version\'s table (no nature) renders a page of old messages; a deleted account\'s sub-type is left out', async (t) => {
  const scratch = await freshDatabase(t);
  // The tables as the version before the account's nature served them, during the background rebuild.
  await scratch.pool.query(`CREATE TABLE organisations (id uuid PRIMARY KEY, country text);
    CREATE TABLE accounting_accounts (organisation_id uuid NOT NULL, id uuid PRIMARY KEY, code text, account_type text, sub_account_type text)`);
  const [org, account] = [randomUUID(), randomUUID()];
  await scratch.pool.query(`INSERT INTO organisations VALUES ($1, 'ES')`, [org]);
  await scratch.pool.query(`INSERT INTO accounting_accounts VALUES ($1, $2, '6290931', 'INCOME_STATEMENT', 'CHARGE')`, [org, account]);
  const message = (changes: object, schemaVersion: number) =>
    ({ id: randomUUID(), type: 'AccountingAccountUpdated', data: { accountId: account, at: new Date().toISOString(), changes }, metadata: { organisationId: org, schemaVersion } });
  const [fresh, old] = await publicPayloads(scratch.pool, [message({ name: 'x' }, 2), message({ subAccountType: 'GENERAL' }, 1)]);
  t.same([fresh.data.changes, old.data.changes], [{ name: 'x' }, {}], 'the page renders; the nature is unknown there, so the sub-type is left out');
  await scratch.pool.query(`ALTER TABLE accounting_accounts ADD COLUMN nature text; UPDATE accounting_accounts SET nature = 'EXPENSE'`);
  t.same((await publicPayloads(scratch.pool, [message({ subAccountType: 'GENERAL' }, 1)]))[0].data.changes, { subAccountType: 'CHARGE' }, 'with the nature: its plain sub-type');
  await scratch.pool.query(`DELETE FROM accounting_accounts`);
  t.same((await publicPayloads(scratch.pool, [message({ subAccountType: 'GENERAL' }, 1)]))[0].data.changes, {}, 'a deleted account: left out, not UNDEFINED');
});
