/**
 * Upgrade in place: a store written by the service at 76e5ffb (test/fixtures/store-76e5ffb.*, whose
 * generator says how it was made) is restored, and this version starts on it with no manual step. Through
 * the API it must answer what the old version answered: the same entries and numbers, the parties with
 * their personal data, settings and product; the tokens it issued still work and refresh; the event queue
 * keeps its events, its leased batch and its order, the webhook its log; triggers made by the old version
 * receive new events; nothing is parked; and rebuilding every read model gives the tables it kept. The old
 * organisation receives, as events of a system upgrade, the accounts its master chart gained since, once.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import * as oauth from 'oauth4webapi';
import pg from 'pg';
import t from 'tap';
import { PROJECTIONS, startService } from '../service/start.ts';
import { EVENT_QUEUE_BASE } from '../api/eventqueue/plugin.ts';
import { checksum, rebuildProjection } from '../projections/engine/rebuild.ts';
import { READER_ROLE } from '../projections/engine/resource.ts';
import { loadConfig } from '../platform/config.ts';
import { freshDatabase } from './helpers/database.ts';
import { answerNow, queryNow, restNow } from './fixtures/76e5ffb-now/index.ts';
import { CHART_GAINED_NOW, CUSTOMER_LEDGER_NOW } from './fixtures/76e5ffb-now/accounting.ts';
import { CHART_UPGRADE } from '../commands/accounting/chart-upgrade.ts';
import { SETTINGS_ASKED_NOW } from './fixtures/76e5ffb-now/settings.ts';

const fixtureFile = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);
const old = JSON.parse(readFileSync(fixtureFile('store-76e5ffb.json'), 'utf8'));
const db = await freshDatabase(t);

/**
 * Restores the dump, as plain SQL on a connection of its own (it empties search_path for its session).
 * The cluster of an upgrade in place is the one that wrote the store: its roles exist (the read models'
 * policies name the reader role) and its transaction ids are past every stored one (the store orders
 * events by them). This cluster is made so before the restore and after it.
 */
async function restore(): Promise<void> {
  const client = new pg.Client(db.url);
  await client.connect();
  try {
    await client.query(`DO $$ BEGIN CREATE ROLE ${READER_ROLE} NOLOGIN NOINHERIT; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
    await client.query(gunzipSync(readFileSync(fixtureFile('store-76e5ffb.sql.gz'))).toString('utf8'));
    const { rows } = await client.query(`SELECT max(transaction_id)::text AS last FROM public.es_events`);
    const last = BigInt(rows[0].last);
    // Each COMMIT of a DO block at top level ends a transaction: one xid each, until past the store's.
    await client.query(`DO $$ BEGIN WHILE pg_current_xact_id() <= '${last}'::xid8 LOOP COMMIT; END LOOP; END $$`);
  } finally {
    await client.end();
  }
}
await restore();

// What the old version left queued, in its order, before this version touches anything.
const queuedBefore = (await db.pool.query(
  `SELECT event_id, batch_id IS NOT NULL AS leased FROM event_queue WHERE trigger_id = $1 ORDER BY commit_pos, prepare_pos`,
  [old.queue.triggerId],
)).rows as { event_id: string; leased: boolean }[];

// Queue rows as old as the fixture would fall to the retention sweep: an upgrade right after the old
// version stopped has young ones. Loopback: the old webhook posts to 127.0.0.1.
const config = { ...loadConfig({}), databaseUrl: db.url, port: 0, logLevel: 'error', eventRetentionDays: 36_500, webhookAllowLoopback: true };
const service = await startService(config, { db: { url: db.url, pool: db.pool, close: async () => {} }, logger: false });
t.teardown(() => service.close());
await service.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}`;
service.webhooks.configure({ pollIntervalMs: 50, backoffMs: [100, 200], jitter: 0, maxPauseMs: 100, attemptTimeoutMs: 2_000 });

const auth = (token: string = old.oauth.accessToken) => ({ Authorization: `Bearer ${token}`, 'X-Site': old.organisationId });
async function gql(query: string, variables?: object, token?: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...auth(token), ...headers }, body: JSON.stringify({ query, variables }) });
  return res.json();
}
async function call(method: string, path: string, body?: unknown, token?: string) {
  const headers = { ...auth(token), ...(body ? { 'Content-Type': 'application/json' } : {}) };
  const res = await fetch(`${base}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: res.status === 204 ? undefined : await res.json() };
}
async function until<T>(what: string, probe: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 50))) {
    const value = await probe();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
  }
}
const head = async () => service.store.headPosition();
// Read models whose version changed are rebuilt in the background (the old tables serve meanwhile): wait for them.
await service.upgrade.done();
// The chart upgrade runs in the background too: what it installed, before the read models are awaited.
const chartUpgraded = await service.chartUpgrade.done();
/** The chart upgrade's events in the old organisation's stream. */
const upgradeEvents = async () => (await service.store.readStream(`Organisation-${old.organisationId}`, { maxCount: 5_000 }))
  .filter((e) => e.metadata.correlationId === CHART_UPGRADE.correlationId);
if (!(await service.daemon.waitFor(await head())) || !(await service.fanout.waitFor(await head()))) throw new Error('did not catch up after the upgrade');

t.test('the books, parties, settings and product read as the old version answered them', async (t) => {
  for (const name of ['ENTRIES', 'CUSTOMERS', 'SETTINGS'] as const) {
    const r = await gql(queryNow(name, old.queries[name]));
    t.equal(r.errors, undefined, `${name}: no errors`);
    t.same(r.data, answerNow(name, old.answers[name.toLowerCase()]), name);
  }
  const customer = (await gql(queryNow('CUSTOMERS', old.queries.CUSTOMERS))).data.customers.nodes[0];
  t.match(customer, { socialName: 'Zacarías Ordóñez', contacts: [{ emails: [{ emailAddress: 'zacarias.ordonez@example.org' }] }] }, 'personal data readable');
  for (const [path, body] of Object.entries(old.answers.rest)) {
    const r = await call('GET', path);
    t.equal(r.status, 200, path);
    t.has(r.body, restNow(path, body), `${path} holds what it held`);
  }
  for (const [path, body] of Object.entries(SETTINGS_ASKED_NOW)) t.has((await call('GET', path)).body, body, `${path} holds what the old store held`);
});

t.test("the old lines naming the customer read it, and its ledger finds them by its code and its id", async (t) => {
  const r = await gql(CUSTOMER_LEDGER_NOW.query, { code: old.customer.code, id: old.customer.id });
  // (Two lines of the old store name it, by code: its generator posted them.)
  t.same(r, { data: CUSTOMER_LEDGER_NOW.answer(old.customer, 'Zacarías Ordóñez', 2) });
});

t.test('the tokens the old version issued still work, and its refresh token renews them', async (t) => {
  t.equal((await call('GET', '/journals')).status, 200, 'its access token');
  const as: oauth.AuthorizationServer = { issuer: `${base}/oauth`, token_endpoint: `${base}/oauth/eu/token` };
  const client: oauth.Client = { client_id: old.oauth.clientId };
  const response = await oauth.refreshTokenGrantRequest(as, client, oauth.ClientSecretBasic(old.oauth.clientSecret), old.oauth.refreshToken, { [oauth.allowInsecureRequests]: true });
  const renewed = await oauth.processRefreshTokenResponse(as, client, response);
  t.equal(renewed.resource_owner_id, old.organisationId);
  t.equal((await call('GET', '/journals', undefined, renewed.access_token)).status, 200, 'the renewed token');
});

t.test('the webhook trigger kept its definition and its delivery log', async (t) => {
  // (`/triggers` pages since 76e5ffb: $itemsPerPage is the page size now, no longer the count)
  const { $itemsPerPage: _, ...triggers } = old.answers.triggers;
  t.has((await call('GET', '/triggers')).body, triggers);
  t.has((await call('GET', `/triggers/${old.webhook.triggerId}/deliveries`)).body, old.answers.deliveries);
});

t.test('a mutation sent to the old version is not done again when its retry reaches this one', async (t) => {
  const { key, variables, answer } = old.retry;
  const before = (await gql(`{ accountingEntries { totalCount } }`)).data.accountingEntries.totalCount;
  const again = await gql(`mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id number } }`, variables, undefined, { 'Idempotency-Key': key });
  t.equal(again.errors, undefined);
  t.same(again.data?.createAccountingEntryUsingCodes, answer, 'the first outcome');
  t.equal((await gql(`{ accountingEntries { totalCount } }`)).data.accountingEntries.totalCount, before, 'no second entry');
});

t.test('the event queue keeps its events, its leased batch and its order', async (t) => {
  t.same(queuedBefore.filter((q) => q.leased).map((q) => q.event_id), old.queue.leased.eventIds, 'the fixture leased what it says');
  // After them, the accounts the chart upgrade installed, queued as any account creation is.
  const upgraded = (await upgradeEvents()).map((e) => e.id);
  t.equal((await call('GET', `${EVENT_QUEUE_BASE}/count`)).body['ia::result'].count, old.queue.pending + CHART_GAINED_NOW.length);
  const listed = (await call('GET', `${EVENT_QUEUE_BASE}/list`)).body['ia::result'];
  t.same(listed.events.map((e: { eventId: string }) => e.eventId), [...queuedBefore.filter((q) => !q.leased).map((q) => q.event_id), ...upgraded], 'the never-listed ones, in order, then the upgrade\'s');
  // Queued in the old shapes, listed in the current ones: the store's event and the queued message read alike.
  for (const message of listed.events as { eventId: string; payload: string }[]) {
    const payload = JSON.parse(Buffer.from(message.payload, 'base64').toString());
    const event = (await service.store.readStream(payload.streamId)).find((e) => e.id === message.eventId)!;
    if (payload.type.startsWith('Customer') || payload.type.startsWith('Supplier') || payload.type.startsWith('Employee')) continue; // (their personal part is merged in)
    if (upgraded.includes(message.eventId)) {
      t.match(payload, { type: 'AccountingAccountCreated', data: { code: event.data.code, createdByUser: false } }, `${event.data.code}: queued as an account creation`);
      t.notOk('nature' in payload.data, 'without the internal nature');
      continue;
    }
    t.same([payload.data, payload.metadata.schemaVersion], [event.data, event.metadata.schemaVersion], `${payload.type}: as the store reads it`);
  }
  t.equal((await call('POST', `${EVENT_QUEUE_BASE}/ack`, { ackId: old.queue.leased.ackId })).body['ia::result'].status, 'success', 'the old batch acknowledged');
  t.equal((await call('POST', `${EVENT_QUEUE_BASE}/ack`, { ackId: listed.ackId })).body['ia::result'].status, 'success');
  t.equal((await call('GET', `${EVENT_QUEUE_BASE}/count`)).body['ia::result'].count, 0);
});

t.test('a new posting continues the numbering and reaches the triggers the old version made', async (t) => {
  const lastNumber = old.answers.entries.accountingEntries.nodes.at(-1).number;
  const year = old.answers.entries.accountingEntries.nodes[0].date.slice(0, 4);
  const posted = await gql(`mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id number } }`, { v: {
    date: `${year}-06-01`, journalTypeCode: 'GEN', description: 'After the upgrade',
    accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '12.34' }, { subAccountCode: '1000000', creditAmount: '12.34' }],
  } });
  t.equal(posted.errors, undefined);
  t.equal(posted.data.createAccountingEntryUsingCodes.number, lastNumber + 1, 'the next number');
  const listed = await until('the new entry in the queue', async () => {
    const r = (await call('GET', `${EVENT_QUEUE_BASE}/list`)).body['ia::result'];
    return r.events.length > 0 ? r : undefined;
  });
  const payload = JSON.parse(Buffer.from(listed.events[0].payload, 'base64').toString());
  t.equal(payload.data.entryId, posted.data.createAccountingEntryUsingCodes.id, 'the old event-queue trigger receives it');
  await call('POST', `${EVENT_QUEUE_BASE}/ack`, { ackId: listed.ackId });
  // The old receiver is gone: the attempt fails, and is logged.
  const log = await until('a delivery attempt', async () => {
    const r = (await call('GET', `/triggers/${old.webhook.triggerId}/deliveries`)).body;
    return r.$total > old.answers.deliveries.$total ? r : undefined;
  });
  t.equal(log.$items[0].delivered, false, 'the old webhook trigger receives it (its receiver is gone)');
});

t.test('nothing is parked, and rebuilding every read model gives the tables the upgrade kept', async (t) => {
  if (!(await service.daemon.waitFor(await head()))) throw new Error('did not catch up');
  t.same((await db.pool.query(`SELECT projection, organisation_id, error FROM projection_parked`)).rows, [], 'no parked organisation');
  const health = await fetch(`${base}/health`).then((r) => r.json());
  t.equal(health.status, 'ok');
  const tables = PROJECTIONS.flatMap((p) => p.resources.map((r) => r.table));
  const live = await Promise.all(tables.map((table) => checksum(db.pool, table)));
  const rebuilt = [];
  for (const p of PROJECTIONS) rebuilt.push(...(await rebuildProjection(db.pool, service.store, p)));
  t.same(rebuilt.map((c) => [c.table, c.rows, c.checksum]), live.map((c) => [c.table, c.rows, c.checksum]));
});

const ORGANISATION = { organisationId: old.organisationId };
const gained = [...CHART_GAINED_NOW];

t.test('the old organisation receives the accounts its master chart gained since, as events of a system upgrade', async (t) => {
  t.same(chartUpgraded, { organisations: 1, upgraded: [{ organisationId: old.organisationId, codes: gained }], accounts: gained.length, failed: [] }, 'what the start-up pass installed');
  const events = await upgradeEvents();
  t.same(events.map((e) => [e.type, e.data.code, e.metadata.userId, e.metadata.clientId]), gained.map((code) => ['AccountingAccountCreated', code, undefined, undefined]), 'no user or client issued them');
  const accounts = (await gql(`query($codes: [String!]) { accountingAccounts(where: { code: { in: $codes } }, order: [{ code: ASC }]) { nodes { id code accountLevel createdByUser } } }`, { codes: gained })).data.accountingAccounts.nodes;
  t.same(accounts.map((a: { code: string }) => a.code), gained, 'readable');
  t.ok(accounts.every((a: { accountLevel: string; createdByUser: boolean }) => a.accountLevel === 'SUB_ACCOUNT' && !a.createdByUser), 'posting accounts of the chart');
  const idOf = (code: string) => accounts.find((a: { code: string }) => a.code === code).id;
  const setup = await gql(`query($id: ID!) { organizationAccountingSetupByOrgId(id: $id) { intracommunityAccountId foreignAccountId } }`, { id: old.organisationId });
  t.same(setup.data.organizationAccountingSetupByOrgId, { intracommunityAccountId: idOf('7000001'), foreignAccountId: idOf('7000002') }, 'the set-up names the intra-EU and export sales accounts');
  const igic = await gql(`{ taxTreatments(where: { taxCode: { eq: "IGIC7" } }) { nodes { outputAccountingAccount { code } inputAccountingAccount { code } } } }`);
  t.same(igic.data.taxTreatments.nodes.map((n: object) => n), [{ outputAccountingAccount: { code: '4771000' }, inputAccountingAccount: { code: '4721000' } }], 'the IGIC treatments resolve their accounts');
});

/** The operator CLI against this database, as a real process. */
function ledger(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, DATABASE_URL: db.url, DEMO: '0', LOG_LEVEL: 'error' };
  return new Promise((resolve) => execFile(process.execPath, ['--import', 'tsx', 'cli/ledger.ts', ...args], { env, cwd: process.cwd(), timeout: 120_000 }, (error, stdout, stderr) =>
    resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })));
}

t.test('a second start and the CLI install nothing again, not even an account the organisation deleted since', async (t) => {
  const exports = (await gql(`{ accountingAccounts(where: { code: { eq: "7000002" } }) { nodes { id } } }`)).data.accountingAccounts.nodes[0];
  await service.mutate.deleteAccountingAccount(ORGANISATION, { id: exports.id });
  const streamLength = async () => (await service.store.readStream(`Organisation-${old.organisationId}`, { maxCount: 5_000 })).length;
  const before = await streamLength();
  // Another process starting on the same store (its own caches): its pass decides nothing.
  const second = await startService(config, { db: { url: db.url, pool: db.pool, close: async () => {} }, logger: false });
  t.teardown(() => second.close());
  t.same(await second.chartUpgrade.done(), { organisations: 1, upgraded: [], accounts: 0, failed: [] }, 'the second start installs nothing');
  const one = await ledger('org', 'upgrade-chart', '--org', old.organisationId);
  t.same([one.code, one.stdout.trim(), one.stderr], [0, 'nothing to install (1 organisation checked)', ''], 'the CLI prints nothing to install');
  const all = await ledger('org', 'upgrade-chart', '--json');
  t.same(JSON.parse(all.stdout), { organisations: 1, upgraded: [], accounts: 0, failed: [] }, 'nor for every organisation');
  t.equal(await streamLength(), before, 'nothing appended');
  const again = (await gql(`{ accountingAccounts(where: { code: { eq: "7000002" } }) { totalCount } }`)).data.accountingAccounts.totalCount;
  t.equal(again, 0, 'the deleted account stays deleted');
});
