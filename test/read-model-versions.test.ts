/**
 * Read models that evolve (issue 16 item 3): a read model whose stored version is not the code's is rebuilt into
 * shadow tables and swapped in at start, with no manual step, while its old tables serve and the other
 * projections go on; a projection that fails on its own stops alone. The previous version is simulated on a
 * database the service wrote: a column of a live table dropped and the stored version changed, as a database
 * written before a field was added looks to the new code.
 *
 * Scale: READ_MODEL_VERSIONS_ENTRIES entries (default 5,000). The 100,000 (`READ_MODEL_VERSIONS_ENTRIES=100000`)
 * takes longer than a test should on a shared machine: most of it seeding and applying them the first time.
 */
import t from 'tap';
import pg from 'pg';
import { seedDemo } from '../service/demo.ts';
import { PROJECTIONS, startService } from '../service/start.ts';
import { appendPostedEvents, postedEvent, seedExercise } from '../bench/seed-ledger.ts';
import { loadConfig, type Config } from '../platform/config.ts';
import { migrateReadModels } from '../projections/engine/schema.ts';
import { projectionVersion } from '../projections/engine/versions.ts';
import { freshDatabase } from './helpers/database.ts';

const ENTRIES = Number(process.env.READ_MODEL_VERSIONS_ENTRIES ?? 5_000);
const db = await freshDatabase(t);
const config: Config = { ...loadConfig({}), databaseUrl: db.url, port: 0, logLevel: 'error' };
const start = async (overrides: Partial<Config> = {}) => {
  const service = await startService({ ...config, ...overrides }, { db: { url: db.url, pool: db.pool, close: async () => {} }, logger: false });
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  return { service, base: `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}` };
};
let { service, base } = await start();
t.teardown(() => service.close());
const demo = await seedDemo(service);
const auth = { Authorization: `Bearer ${demo.token.access_token}`, 'X-Site': demo.organisationId, 'Content-Type': 'application/json' };
const gql = async (query: string, variables?: object) => (await fetch(`${base}/graphql`, { method: 'POST', headers: auth, body: JSON.stringify({ query, variables }) })).json();
const health = async () => (await fetch(`${base}/health`)).json();
const metrics = async () => (await fetch(`${base}/metrics`)).text();
const entries = PROJECTIONS.find((p) => p.name === 'entries')!;
const storedVersion = async (name: string) => (await db.pool.query(`SELECT version FROM projection_checkpoints WHERE name = $1`, [name])).rows[0].version;
const columnExists = async (table: string, column: string) => (await db.pool.query(`SELECT 1 FROM information_schema.columns WHERE table_name = $1 AND column_name = $2`, [table, column])).rows.length > 0;

const until = async (what: () => Promise<boolean> | boolean, ms = 60_000) => {
  for (const end = Date.now() + ms; !(await what()); ) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

// A ledger of ENTRIES entries in an exercise of its own (2015), applied by the live daemon.
const seeded = await seedExercise(service, demo.organisationId, 2015);
await appendPostedEvents(service.store, seeded.streamId, (n) => postedEvent(seeded.facts, n, '2015-06-01T00:00:00.000Z'), { count: ENTRIES });
const appliedEntries = async () => (await db.pool.query(`SELECT count(*)::int AS n FROM accounting_entries WHERE accounting_exercise_id = $1`, [seeded.facts.exerciseId])).rows[0].n;
await until(async () => (await appliedEntries()) === ENTRIES, 120_000);

const ENTRY_LIST = `query($x: UUID!) { accountingEntries(where: { accountingExerciseId: { eq: $x } }, first: 3) { totalCount nodes { number description documentNumber } } }`;
const POST = `mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id number } }`;
const year = new Date().getUTCFullYear();
const entryInput = (description: string) => ({ date: `${year}-03-10`, journalTypeCode: 'GEN', description, accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '10.00' }, { subAccountCode: '7000000', creditAmount: '10.00' }] });

t.test('a read model of the previous version is rebuilt and swapped in at start while its old rows serve', async (t) => {
  await service.close();
  // The previous version: no document_number column yet, and its version stored.
  await db.pool.query(`ALTER TABLE accounting_entries DROP COLUMN document_number; UPDATE projection_checkpoints SET version = 'previous' WHERE name = 'entries'`);
  // Another process holds the upgrade's lock at first: this one serves the old tables and waits (then it has the lock).
  const other = new pg.Client(db.url);
  await other.connect();
  await other.query(`SELECT pg_advisory_lock(hashtext('read_models_upgrade'))`);
  ({ service, base } = await start());

  const before = await health();
  t.equal(before.readModels.setAside?.entries?.reason, 'rebuilding', '/health: entries set aside while it is rebuilt');
  t.equal(before.status, 'catching-up');
  t.match(before.upgrades, [{ projection: 'entries', from: 'previous', to: projectionVersion(entries) }], 'and the upgrade under way');
  t.match(await metrics(), /ledger_projection_version_outdated\{projection="entries"\} 1/, '/metrics: outdated');
  t.match(await metrics(), /ledger_projection_set_aside\{projection="entries",reason="rebuilding"\} 1/);
  const old = await gql(ENTRY_LIST, { x: seeded.facts.exerciseId });
  t.notOk(old.errors, 'the old rows serve');
  t.equal(old.data.accountingEntries.totalCount, ENTRIES);
  t.equal(old.data.accountingEntries.nodes[0].documentNumber, null, 'the new column is not there yet');

  // The other projections go on; a mutation the outdated one would show says it does not yet.
  const account = await gql(`mutation { createAccountingAccount(input: { code: "6290007", name: "Durante" }) { id } }`);
  t.notOk(account.errors, 'an account is created and shown: chart is applied live');
  const shown = await gql(`query { accountingAccounts(where: { code: { eq: "6290007" } }) { nodes { name } } }`);
  t.same(shown.data.accountingAccounts.nodes, [{ name: 'Durante' }]);
  const posted = await gql(POST, { v: entryInput('during the rebuild') });
  t.equal(posted.errors?.[0]?.extensions?.code, 'READ_MODELS_BEHIND', 'an entry posted meanwhile is recorded, and the answer says the read model does not show it yet');
  t.equal(posted.errors?.[0]?.extensions?.reason, 'rebuilding');
  t.match(posted.errors?.[0]?.message, /entries is being rebuilt/);

  // Reads go on throughout the rebuild and the swap.
  let reading = true;
  const seen = { errors: [] as unknown[], reads: 0, withColumn: 0 };
  const readLoop = (async () => {
    while (reading) {
      const r = await gql(ENTRY_LIST, { x: seeded.facts.exerciseId });
      seen.reads++;
      if (r.errors || r.data.accountingEntries.totalCount !== ENTRIES) seen.errors.push(r.errors ?? r.data);
      else if (r.data.accountingEntries.nodes[0].documentNumber) seen.withColumn++;
    }
  })();
  await other.end(); // (the lock is free: this process takes it and rebuilds)
  await service.upgrade.done();
  await until(async () => !(await health()).readModels.setAside);
  reading = false;
  await readLoop;
  t.same(seen.errors, [], `${seen.reads} reads during the rebuild and the swap, none failed`);

  t.ok(await columnExists('accounting_entries', 'document_number'), 'the new column is there after the swap');
  t.equal(await storedVersion('entries'), projectionVersion(entries), 'the stored version is the code\'s');
  const after = await gql(ENTRY_LIST, { x: seeded.facts.exerciseId });
  t.equal(after.data.accountingEntries.nodes[0].documentNumber, 'F-1', 'and it is served');
  const during = await gql(`query { accountingEntries(where: { description: { eq: "during the rebuild" } }) { totalCount } }`);
  t.equal(during.data.accountingEntries.totalCount, 1, 'the entry posted during the rebuild is there');
  const live = await gql(POST, { v: entryInput('after the swap') });
  t.notOk(live.errors, 'entries is applied live again');
  t.equal((await health()).status, 'ok');
  t.match(await metrics(), /ledger_projection_version_outdated\{projection="entries"\} 0/);
});

t.test('a projection failing on its own stops alone: the others go on, and it comes back by itself', async (t) => {
  await db.pool.query(`ALTER TABLE accounting_accounts RENAME COLUMN export_account_number TO test_gone`);
  const account = await gql(`mutation { createAccountingAccount(input: { code: "6290008", name: "Caída" }) { id } }`);
  t.equal(account.errors?.[0]?.extensions?.code, 'READ_MODELS_BEHIND', 'the account is recorded, and the answer says chart does not show it');
  t.equal(account.errors?.[0]?.extensions?.reason, 'stopped');
  const h = await health();
  t.equal(h.readModels.setAside?.chart?.reason, 'stopped', '/health: chart stopped');
  t.match(h.readModels.setAside.chart.error, /test_gone|export_account_number/);
  t.equal(h.status, 'degraded');
  t.match(await metrics(), /ledger_projection_set_aside\{projection="chart",reason="stopped"\} 1/, '/metrics says it');
  const entry = await gql(POST, { v: entryInput('while chart is stopped') });
  t.notOk(entry.errors, 'entries goes on meanwhile');
  await db.pool.query(`ALTER TABLE accounting_accounts RENAME COLUMN test_gone TO export_account_number`);
  await until(async () => !(await health()).readModels.setAside);
  const shown = await gql(`query { accountingAccounts(where: { code: { eq: "6290008" } }) { nodes { name } } }`);
  t.same(shown.data.accountingAccounts.nodes, [{ name: 'Caída' }], 'once fixed, chart comes back by itself with the account');
  t.equal((await health()).status, 'ok');
});

t.test('the first start on a database without versions keeps the tables that have the code\'s columns, unless their values changed since', async (t) => {
  await db.pool.query(`UPDATE projection_checkpoints SET version = NULL`);
  // A revision above 0 says apply() writes other values than the version that stored no version did (issue 17's).
  const revised = PROJECTIONS.filter((p) => (p.revision ?? 0) > 0).map((p) => p.name);
  t.ok(revised.length > 0 && revised.length < PROJECTIONS.length, 'some projections have a revision, some not');
  const { outdated } = await migrateReadModels(db.pool, PROJECTIONS);
  t.same(outdated.map((o) => [o.projection.name, o.stored]), revised.map((name) => [name, null]), 'only the revised ones are rebuilt');
  for (const p of PROJECTIONS) {
    if (!revised.includes(p.name)) t.equal(await storedVersion(p.name), projectionVersion(p), `${p.name} has the code's version`);
  }
  const kept = PROJECTIONS.find((p) => !revised.includes(p.name))!;
  const table = kept.resources[0].table;
  await db.pool.query(`UPDATE projection_checkpoints SET version = NULL WHERE name = $1; ALTER TABLE ${table} ADD COLUMN test_extra text`.replace('$1', `'${kept.name}'`));
  const second = await migrateReadModels(db.pool, PROJECTIONS);
  t.same(second.outdated.map((o) => o.projection.name).filter((n) => !revised.includes(n)), [kept.name], 'one whose columns differ is rebuilt');
  await db.pool.query(`ALTER TABLE ${table} DROP COLUMN test_extra`);
  for (const p of PROJECTIONS) await db.pool.query(`UPDATE projection_checkpoints SET version = $2 WHERE name = $1`, [p.name, projectionVersion(p)]);
});

t.test('READ_MODEL_UPGRADE=refuse: a read model of another version stops the start with the command to run', async (t) => {
  await service.close();
  await db.pool.query(`UPDATE projection_checkpoints SET version = 'previous' WHERE name = 'shared-settings'`);
  await t.rejects(start({ readModelUpgrade: 'refuse' }), /npx ledger projections rebuild shared-settings/);
  ({ service, base } = await start());
  await service.upgrade.done();
  t.equal(await storedVersion('shared-settings'), projectionVersion(PROJECTIONS.find((p) => p.name === 'shared-settings')!), 'the default rebuilds it');
});
