/**
 * Balances as the books stood at an instant (projections/reports/balances.ts): for every grain, at t0, they equal the GROUP BY
 * over the lines as they were at t0 (captured then), after later postings and the deletion of an entry posted
 * before t0 and of one posted after; both ways of summing (from now back, from the start up) agree; and
 * `ledger replay --as-of t0` rebuilds the same balance tables.
 */
import t from 'tap';
import { PROJECTIONS } from '../service/start.ts';
import { replayOrganisation } from '../projections/engine/replay.ts';
import { balanceColumns, balancesAsOf, balancesFrom, balancesReadable, type BalanceGrain } from '../projections/reports/balances.ts';
import { asOfInstant } from '../projections/reports/as-of.ts';
import { readScoped } from '../api/read-scope.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, store, daemon, db } = api.service;
const organisationId = api.organisationId;
const ctx = { organisationId };
const year = new Date().getUTCFullYear();
const GRAINS: BalanceGrain[] = ['account_period', 'account_day', 'party_period'];
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits for the read models (a long transaction elsewhere on a shared server holds the store's readers back a while). */
const projected = async () => {
  if (!(await daemon.waitFor(await store.committedHead!(), 120_000))) throw new Error('the projections did not catch up within 2 minutes');
};

await mutate.createAccountingExercise(ctx, { startDate: `${year - 1}-01-01`, endDate: `${year - 1}-12-31` });
const customer = (await mutate.createCustomer(ctx, { socialName: 'Ferretería Centro S.L.' })) as { code: string };
const supplier = (await mutate.createSupplier(ctx, { socialName: 'Maderas del Norte S.A.' })) as { code: string };
type Line = [code: string, debit: string | null, credit: string | null, thirdCode?: string];
const post = async (date: string, lines: Line[]) =>
  (await mutate.createAccountingEntryUsingCodes(ctx, {
    date, journalTypeCode: 'GEN',
    accountingEntryLines: lines.map(([subAccountCode, debitAmount, creditAmount, thirdCode]) => ({ subAccountCode, debitAmount, creditAmount, thirdCode })),
  })).id as string;
const remove = (id: string) => mutate.deleteAccountingEntry(ctx, { id });

/** The grain's columns as text (amounts without trailing zeros), ordered by its key: rows comparable across sources. */
function comparable(grain: BalanceGrain, from: string): string {
  const columns = balanceColumns(grain);
  const shown = columns.map((c) => (c.endsWith('_amount') ? `trim_scale(${c})::text AS ${c}` : `${c}::text AS ${c}`));
  return `SELECT ${shown.join(', ')} FROM ${from} ORDER BY ${columns.slice(0, -3).map((c) => `${c}::text`).join(', ')}`;
}
/** The oracle: the grain's GROUP BY over the lines as they are when it runs. */
function groupedLines(grain: BalanceGrain): string {
  const keys = balanceColumns(grain).slice(0, -3).join(', ');
  const parties = grain === 'party_period' ? ' AND third_party_id IS NOT NULL' : '';
  return `(SELECT ${keys}, sum(debit_amount) AS debit_amount, sum(credit_amount) AS credit_amount, count(*)::int AS line_count
    FROM accounting_entry_lines WHERE organisation_id = $1${parties} GROUP BY ${keys}) AS lines`;
}
const rows = async (sql: string, params: unknown[] = [organisationId]) => (await db.pool.query(sql, params)).rows;

// Before t0: entries over both exercises, several periods, accounts and parties; one posted and deleted before t0.
const beforeOrg = new Date(Date.now() - 3_600_000);
await post(`${year - 1}-11-30`, [['5720000', '10.00', null], ['1000000', null, '10.00']]);
await post(`${year}-01-15`, [['4300000', '100.00', null, customer.code], ['7000000', null, '100.00']]);
const onTheInstant = await post(`${year}-03-03`, [['6000000', '50.00', null], ['4000000', null, '50.00', supplier.code]]);
const deletedAfterT0 = await post(`${year}-06-20`, [['5720000', '75.50', null], ['4300000', null, '75.50', customer.code]]);
await remove(await post(`${year}-06-21`, [['6290000', '8.00', null], ['5720000', null, '8.00']]));
await projected();
await pause(5);
const t0 = new Date();
await pause(5);
const atT0 = new Map<BalanceGrain, unknown[]>();
for (const grain of GRAINS) atT0.set(grain, await rows(comparable(grain, groupedLines(grain))));

// After t0: the same keys again, new ones, an entry posted and deleted, and the deletion of one posted before t0.
await post(`${year}-01-15`, [['4300000', '200.00', null, customer.code], ['7000000', null, '200.00']]);
await post(`${year}-11-02`, [['6000000', '30.00', null], ['5720000', null, '30.00']]);
await post(`${year - 1}-12-31`, [['6400000', '12.34', null], ['4000000', null, '12.34', supplier.code]]);
await remove(await post(`${year}-02-01`, [['6290000', '9.00', null], ['4300000', null, '9.00', customer.code]]));
await remove(deletedAfterT0);
await projected();

t.test('as of t0, every grain equals the lines as they stood at t0, whichever way it is summed', async (t) => {
  for (const grain of GRAINS) {
    const expected = atT0.get(grain)!;
    t.not(JSON.stringify(await rows(comparable(grain, groupedLines(grain)))), JSON.stringify(expected), `${grain}: the books have moved since t0`);
    t.same(await rows(comparable(grain, balancesFrom(grain, 'b', 2)), [organisationId, t0]), expected, `${grain}: balancesFrom at t0`);
    for (const path of ['from_now', 'from_start'] as const) {
      t.same(await rows(comparable(grain, balancesAsOf(grain, 'b', 2, path)), [organisationId, t0]), expected, `${grain}: summed ${path}`);
    }
  }
});

t.test('now, and as of any later instant, every grain equals the lines as they are', async (t) => {
  const later = new Date(Date.now() + 3_600_000);
  for (const grain of GRAINS) {
    const expected = await rows(comparable(grain, groupedLines(grain)));
    t.ok(expected.length > 0, `${grain}: some balances`);
    t.same(await rows(comparable(grain, balancesFrom(grain, 'b'))), expected, `${grain}: the kept table`);
    t.same(await rows(comparable(grain, balancesFrom(grain, 'b', 2)), [organisationId, later]), expected, `${grain}: as of an hour ahead`);
  }
});

t.test('an entry counts from the very millisecond its posting was recorded', async (t) => {
  const [{ at }] = await rows(`SELECT DISTINCT recorded_at AS at FROM accounting_entry_lines WHERE accounting_entry_id = $1`, [onTheInstant]);
  const lines = (path: 'probe' | 'from_now' | 'from_start', instant: Date) =>
    rows(`SELECT coalesce(sum(line_count), 0)::int AS n FROM ${balancesAsOf('account_period', 'b', 2, path)}`, [organisationId, instant]);
  for (const path of ['probe', 'from_now', 'from_start'] as const) {
    const [then] = await lines(path, at);
    const [before] = await lines(path, new Date(at.getTime() - 1));
    t.equal(then.n - before.n, 2, `${path}: its two lines at its instant, not a millisecond before`);
  }
});

/** The plan's scans of `table`, each with whether it ran (EXPLAIN ANALYZE: a scan under the path not taken never runs). */
async function scans(sql: string, params: unknown[], table: string): Promise<boolean[]> {
  const [{ 'QUERY PLAN': [plan] }] = await rows(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
  const found: boolean[] = [];
  const walk = (node: Record<string, any>) => {
    if (node['Relation Name'] === table) found.push(node['Actual Loops'] > 0);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan.Plan);
  return found;
}

t.test("the probe weighs the lines by their kept count, not the period balances, and picks the cheaper path", async (t) => {
  const [{ n }] = await rows(`SELECT n::int FROM read_model_counts WHERE table_name = 'accounting_entry_lines' AND organisation_id = $1 AND field = '' AND value = ''`);
  const [{ lines }] = await rows(`SELECT count(*)::int AS lines FROM accounting_entry_lines WHERE organisation_id = $1`);
  t.equal(n, lines, 'the kept count is the number of lines');
  const asOf = (instant: Date) => scans(`SELECT * FROM ${balancesFrom('account_day', 'b', 2)}`, [organisationId, instant], 'account_day_balances');
  t.same(await scans(`SELECT * FROM ${balancesFrom('party_period', 'b', 2)}`, [organisationId, t0], 'account_period_balances'), [], 'no period balance read for the probe');
  t.same(await asOf(new Date(Date.now() + 3_600_000)), [true], 'nothing recorded since: from the kept balances back');
  t.same(await asOf(beforeOrg), [false], 'every line recorded since: from the start up, the kept balances not read');
});

t.test('balancesReadable: the live tables yes; a schema without them yet (an upgrade before its swap) no', async (t) => {
  t.equal(await balancesReadable(db.pool), true, 'the live schema');
  t.equal(await readScoped(db.pool, organisationId, (c) => balancesReadable(c)), true, 'as the reader role');
  const client = await db.pool.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS before_swap; SET search_path TO before_swap`);
    await client.query(`CREATE TABLE before_swap.account_period_balances (organisation_id uuid)`);
    t.equal(await balancesReadable(client), false, 'some balance tables missing');
  } finally {
    await client.query(`RESET search_path; DROP SCHEMA before_swap CASCADE`);
    client.release();
  }
});

t.test('as of before the organisation existed, the books are empty', async (t) => {
  for (const grain of GRAINS) {
    for (const path of ['probe', 'from_now', 'from_start'] as const) {
      t.same(await rows(comparable(grain, balancesAsOf(grain, 'b', 2, path)), [organisationId, beforeOrg]), [], `${grain} ${path}`);
    }
  }
});

t.test("ledger replay --as-of t0 rebuilds the same balance tables", async (t) => {
  const replay = await replayOrganisation(db.pool, store, PROJECTIONS, { organisationId, asOf: t0 });
  for (const grain of GRAINS) {
    const table = { account_period: 'account_period_balances', account_day: 'account_day_balances', party_period: 'party_period_balances' }[grain];
    t.same(await rows(comparable(grain, `${replay.schema}.${table}`), []), atT0.get(grain), `${grain}: the replay's ${table}`);
  }
  await db.pool.query(`DROP SCHEMA ${replay.schema} CASCADE`);
});

t.test("as the service reads (the reader role, confined to the organisation), the same; another organisation's, none", async (t) => {
  const other = '00000000-0000-0000-0000-000000000000';
  for (const grain of GRAINS) {
    const read = (org: string) => readScoped(db.pool, organisationId, async (c) => (await c.query(comparable(grain, balancesFrom(grain, 'b', 2)), [org, t0])).rows);
    t.same(await read(organisationId), atT0.get(grain), `${grain}: as of t0`);
    t.same(await read(other), [], `${grain}: another organisation's`);
  }
});

t.test('an asOf input: absent, an instant, now or the future read as the current books, anything else refused naming the field', async (t) => {
  const now = new Date('2026-06-30T12:00:00.000Z');
  t.equal(asOfInstant(undefined, now), undefined);
  t.equal(asOfInstant(null, now), undefined);
  t.same(asOfInstant('2026-03-31T23:59:59.123Z', now), new Date('2026-03-31T23:59:59.123Z'));
  t.same(asOfInstant('2026-04-01T01:00:00+02:00', now), new Date('2026-03-31T23:00:00.000Z'));
  t.equal(asOfInstant('2027-01-01T00:00:00Z', now), undefined, 'the future: the books now, with no as-of correction (no cut at this clock)');
  t.equal(asOfInstant(now.toISOString(), now), undefined, 'now itself: the books now');
  t.same(asOfInstant(new Date(now.getTime() - 1).toISOString(), now), new Date(now.getTime() - 1), 'a millisecond earlier: as of then');
  for (const bad of ['2026-03-31', 'yesterday', '2026-03-31T10:00:00', '2026-02-30T00:00:00Z', 42]) {
    t.throws(() => asOfInstant(bad, now), { message: /^input\.asOf: .* is not an instant/, extensions: { code: 'INVALID_QUERY' } }, String(bad));
  }
});
