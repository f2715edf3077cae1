/**
 * Reports over a large ledger, against issue 19's bars: the trial balance (full year, a partial range,
 * comparative), the balance sheet and the profit and loss answer at p99 under 50 ms; the trial balance as of an
 * earlier instant (50% and 90% into the seeded events) under 1 s; `ledger verify --org ID` over the whole store
 * under 10 s.
 *
 * Seeding (bench/seed-reports.ts): one organisation, two exercises, ~300 accounts of every class, 200 parties,
 * ENTRIES entries (default 500,000, about 1,050,000 lines), 1% deleted, their recorded_at spread over the seeding.
 * Then the entries projection (and its balance tables) is rebuilt with rebuildProjection, the service started (its
 * daemons bring the other projections up), VACUUM ANALYZE and CHECKPOINT, as bench/lists.ts does.
 *
 * Measured over real HTTP with a real bearer token, one client, one request at a time, WARMUPS unmeasured then
 * SAMPLES measured requests per query. A root the service does not have (yet) is reported "not served", not failed.
 * Baselines: `{ __typename }` over HTTP, and the same trial balance as one plain SQL GROUP BY over
 * accounting_entry_lines (now, and as of the 50% instant, with the tombstones of lines deleted since), run as the
 * reader role the way the service reads (readScoped): each report's p50 is also given over the raw GROUP BY's.
 * Afterwards the SQL behind each report is run again under EXPLAIN (ANALYZE, BUFFERS).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openCore } from '../service/core.ts';
import type { Service } from '../service/start.ts';
import { readScoped } from '../api/read-scope.ts';
import { POOL_LIMITS } from '../platform/database.ts';
import { contentionWarning, cpuMeter, latencySummary, resultHeader, table, withAdmin, type CpuPercent } from './support.ts';
import { explain, httpClient, rebuildEntriesThenServe, recordScopedSql, serviceBenchTarget, type Statement, type Target } from './lists.ts';
import { seedReportsLedger, type SeededReportsLedger } from './seed-reports.ts';
import { balancesFrom } from '../projections/reports/balances.ts';

export interface ReportsBenchOptions {
  freshDatabase: () => Promise<string>;
  /** Entries posted (about 2.1 lines each); default 500,000. */
  entries?: number;
  /** Measured requests per query; default 300. */
  samples?: number;
  /** Unmeasured requests before each query's samples; default 50. */
  warmups?: number;
  log?: (line: string) => void;
}

export const REPORT_BARS_MS = Object.freeze({ report: 50, asOf: 1_000, verify: 10_000 });

/** report, asOf: a GraphQL root; balances: projections/reports/balances.ts alone, in SQL; raw: the plain GROUP BY; baseline: HTTP alone. */
type Kind = 'report' | 'asOf' | 'balances' | 'baseline' | 'raw';

interface ReportTarget {
  name: string;
  kind: Kind;
  /** GraphQL: the root and its input. */
  root?: string;
  inputType?: string;
  input?: Record<string, unknown>;
  fields?: string;
  /** Raw, balances: the SQL and its parameters, run as the reader role. */
  sql?: string;
  params?: unknown[];
  /** The bar on p99, if any. */
  barMs?: number;
  /** The raw target of the same books, whose p50 this one's is given over. */
  against?: string;
}

export interface ReportMeasurement {
  name: string;
  kind: Kind;
  root?: string;
  input?: Record<string, unknown>;
  /** Why it was not measured: the root is not in the schema, or it answered errors. */
  notServed?: string;
  rows?: number;
  latencyMs?: ReturnType<typeof latencySummary>;
  cpuPercent?: CpuPercent;
  barMs?: number;
  /** p50 over the raw GROUP BY's of the same books (now, or as of the same instant). */
  overRawP50?: number;
  pass: boolean | null;
  statements?: Statement[];
}

const TB_FIELDS = 'accountCode accountType debitAmount creditAmount balance accumulatedDebitAmount accumulatedCreditAmount accumulatedBalance';
const STATEMENT_FIELDS = 'code description lineType order amountColumn1 amountColumn2 amountTotal';
/** The schema has no such root or input (yet): reported as not served. */
const NOT_IN_SCHEMA = /Cannot query field|Unknown type|Unknown argument|is not defined by type/i;

const gql = (root: string, inputType: string, fields: string) =>
  `query($input: ${inputType}!) { ${root}(input: $input) { ${fields} } }`;

function reportTargets(seeded: SeededReportsLedger, instants: { p50: string; p90: string }): ReportTarget[] {
  const current = seeded.exercises[seeded.exercises.length - 1];
  const y = current.year;
  const year = { startDate: `${y}-01-01`, endDate: `${y}-12-31` };
  const tb = (name: string, input: Record<string, unknown>, against = RAW_NOW): ReportTarget => ({
    name, kind: input.asOf ? 'asOf' : 'report', barMs: input.asOf ? REPORT_BARS_MS.asOf : REPORT_BARS_MS.report, against,
    root: 'accountingTrialBalance', inputType: 'AccountingTrialBalanceGLDtoInput', fields: TB_FIELDS,
    input: { exerciseId: current.exerciseId, isTrialBalanceComparative: false, ...year, ...input },
  });
  const statement = (name: string, root: string, inputType: string): ReportTarget => ({
    name, kind: 'report', barMs: REPORT_BARS_MS.report, against: RAW_NOW, root, inputType, fields: STATEMENT_FIELDS, input: { ...year },
  });
  return [
    tb('trial balance, full year', {}),
    tb('trial balance, 10 Mar - 20 Aug', { startDate: `${y}-03-10`, endDate: `${y}-08-20` }),
    tb('trial balance, comparative', { startDate: `${y}-04-01`, endDate: `${y}-06-30`, isTrialBalanceComparative: true }),
    statement('balance sheet', 'accountingBalanceSheet', 'AccountingBalanceSheetGLDtoInput'),
    statement('profit and loss', 'accountingProfitAndLoss', 'AccountingProfitAndLossGLDtoInput'),
    tb('trial balance as of 50%', { asOf: instants.p50 }, `${RAW_NOW} as of 50%`),
    tb('trial balance as of 90%', { asOf: instants.p90 }, `${RAW_NOW} as of 90%`),
  ];
}

const RAW_NOW = 'raw GROUP BY trial balance';

/** The exercise's trial balance from projections/reports/balances.ts alone (no HTTP, no GraphQL): the kept table, and as of each instant. */
function balancesTargets(organisationId: string, exerciseId: string, instants: { p50: string; p90: string }): ReportTarget[] {
  const sql = (from: string) => `SELECT b.sub_account_id, sum(b.debit_amount) AS debit, sum(b.credit_amount) AS credit, sum(b.debit_amount - b.credit_amount) AS balance
    FROM ${from} WHERE b.accounting_exercise_id = $2 GROUP BY b.sub_account_id`;
  return [
    { name: 'balancesFrom trial balance', kind: 'balances', sql: sql(balancesFrom('account_period', 'b')), params: [organisationId, exerciseId], against: RAW_NOW },
    ...(['p50', 'p90'] as const).map((p): ReportTarget => ({
      name: `balancesFrom trial balance as of ${p.slice(1)}%`, kind: 'balances', sql: sql(balancesFrom('account_period', 'b', 3)),
      params: [organisationId, exerciseId, instants[p]], barMs: REPORT_BARS_MS.asOf, against: `${RAW_NOW} as of ${p.slice(1)}%`,
    })),
  ];
}

/** The raw trial balance of the exercise: one GROUP BY over the lines (as of $3: plus the tombstones, less what came later). */
function rawTargets(organisationId: string, exerciseId: string, instants: { p50: string; p90: string }): ReportTarget[] {
  const now = `SELECT sub_account_id, sum(debit_amount) AS debit, sum(credit_amount) AS credit, sum(debit_amount - credit_amount) AS balance
    FROM accounting_entry_lines WHERE organisation_id = $1 AND accounting_exercise_id = $2 GROUP BY sub_account_id`;
  const asOf = `SELECT sub_account_id, sum(debit_amount) AS debit, sum(credit_amount) AS credit, sum(debit_amount - credit_amount) AS balance FROM (
      SELECT sub_account_id, debit_amount, credit_amount FROM accounting_entry_lines
        WHERE organisation_id = $1 AND accounting_exercise_id = $2 AND recorded_at <= $3
      UNION ALL
      SELECT sub_account_id, debit_amount, credit_amount FROM deleted_entry_lines
        WHERE organisation_id = $1 AND accounting_exercise_id = $2 AND recorded_at <= $3 AND deleted_at > $3) AS lines
    GROUP BY sub_account_id`;
  return [
    { name: RAW_NOW, kind: 'raw', sql: now, params: [organisationId, exerciseId] },
    { name: `${RAW_NOW} as of 50%`, kind: 'raw', sql: asOf, params: [organisationId, exerciseId, instants.p50] },
    { name: `${RAW_NOW} as of 90%`, kind: 'raw', sql: asOf, params: [organisationId, exerciseId, instants.p90] },
  ];
}

const TYPENAME: ReportTarget = { name: 'graphql { __typename }', kind: 'baseline' };

function httpTarget(r: ReportTarget): Target {
  const query = r.root ? gql(r.root, r.inputType!, r.fields!) : '{ __typename }';
  return { name: r.name, kind: 'graphql', method: 'POST', path: '/graphql', body: JSON.stringify({ query, variables: r.input ? { input: r.input } : undefined }), list: r.root };
}

/** Rows of one answer, or why the root is not served. */
function answer(r: ReportTarget, reply: { status: number; text: string }): { rows: number } | { notServed: string } {
  let json: { data?: Record<string, unknown> | null; errors?: { message: string }[] };
  try {
    json = JSON.parse(reply.text);
  } catch {
    throw new Error(`${r.name} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
  }
  if (json.errors?.length) {
    const message = json.errors.map((e) => e.message).join('; ').slice(0, 300);
    return { notServed: NOT_IN_SCHEMA.test(message) ? `not in the schema: ${message}` : `answered errors: ${message}` };
  }
  if (reply.status !== 200) throw new Error(`${r.name} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
  if (!r.root) return { rows: 0 };
  const rows = json.data?.[r.root];
  if (!Array.isArray(rows)) throw new Error(`${r.name}: ${r.root} is not a list: ${reply.text.slice(0, 300)}`);
  return { rows: rows.length };
}

async function timed(samples: number, warmups: number, postmasterPid: number | undefined, once: () => Promise<unknown>) {
  for (let i = 0; i < warmups; i++) await once();
  const latencies: number[] = [];
  const meter = cpuMeter(postmasterPid);
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await once();
    latencies.push(performance.now() - t0);
  }
  return { latencyMs: latencySummary(latencies), cpuPercent: meter() };
}

/**
 * `ledger verify --org ID --json` as a child process: its wall time, the time the command reports for the check
 * itself (the rest is starting node, tsx and the core), and its exit code; "not served" when the CLI has no such command.
 */
async function verifyChain(url: string, organisationId: string): Promise<{ ms: number; checkMs: number | null; exitCode: number | null; notServed?: string; output: string; intact: boolean | null }> {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const start = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/ledger.ts', 'verify', '--org', organisationId, '--json'], {
    cwd: repoRoot, env: { ...process.env, DATABASE_URL: url }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => { stdout = (stdout + c.toString()).slice(-2000); });
  child.stderr.on('data', (c: Buffer) => { stderr = (stderr + c.toString()).slice(-2000); });
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const ms = Math.round(performance.now() - start);
  const output = `${stdout}${stderr}`.trim();
  if (exitCode === 2 && /unknown command/i.test(stderr)) return { ms, checkMs: null, exitCode, notServed: stderr.trim().split('\n')[0], output, intact: null };
  let seconds: unknown;
  try {
    seconds = JSON.parse(stdout.trim().split('\n').pop() ?? '').seconds;
  } catch {
    // no JSON answer: the check's own time is unknown
  }
  return { ms, checkMs: typeof seconds === 'number' ? Math.round(seconds * 1000) : null, exitCode, output, intact: exitCode === 0 };
}

/** recorded_at of the seeded ledgers' events at 50% and 90% of their count (ms, as the store reads it). */
async function instants(pool: pg.Pool, seeded: SeededReportsLedger): Promise<{ p50: string; p90: string }> {
  const { rows } = await pool.query(
    `SELECT percentile_disc(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY recorded_at) AS at FROM es_events WHERE stream_id = ANY($1)`,
    [seeded.exercises.map((e) => e.streamId)],
  );
  const [p50, p90] = (rows[0].at as Date[]).map((d) => new Date(d).toISOString());
  return { p50, p90 };
}

/** Deleted lines recorded by each instant and deleted after it: what the as-of path adds back (none would leave it unmeasured). */
async function tombstonesAcross(pool: pg.Pool, organisationId: string, at: { p50: string; p90: string }): Promise<{ p50: number; p90: number }> {
  const { rows } = await pool.query(
    `SELECT count(*) FILTER (WHERE recorded_at <= $2 AND deleted_at > $2)::int AS p50, count(*) FILTER (WHERE recorded_at <= $3 AND deleted_at > $3)::int AS p90
     FROM deleted_entry_lines WHERE organisation_id = $1`,
    [organisationId, at.p50, at.p90],
  );
  return rows[0];
}

/** A decimal string as the tests compare them: no trailing zeros after the point, no point left bare ("12.30" -> "12.3", "0.00" -> "0"). */
const exact = (amount: unknown): string => String(amount).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');

/**
 * The exercise's debit and credit per sub-account as the lines stood at `at`, straight from the lines and the
 * tombstones (the as-of answers' oracle), by sub-account id and by its code; exact decimal strings.
 */
async function linesAsOf(pool: pg.Pool, organisationId: string, exerciseId: string, at: string): Promise<Map<string, { code: string; debit: string; credit: string }>> {
  const { rows } = await pool.query(
    `SELECT l.sub_account_id, a.code, trim_scale(sum(l.debit_amount))::text AS debit, trim_scale(sum(l.credit_amount))::text AS credit FROM (
       SELECT sub_account_id, debit_amount, credit_amount FROM accounting_entry_lines WHERE organisation_id = $1 AND accounting_exercise_id = $2 AND recorded_at <= $3
       UNION ALL
       SELECT sub_account_id, debit_amount, credit_amount FROM deleted_entry_lines
         WHERE organisation_id = $1 AND accounting_exercise_id = $2 AND recorded_at <= $3 AND deleted_at > $3) AS l
     JOIN accounting_accounts a ON a.organisation_id = $1 AND a.id = l.sub_account_id
     GROUP BY l.sub_account_id, a.code`,
    [organisationId, exerciseId, at],
  );
  return new Map(rows.map((r) => [r.sub_account_id as string, { code: r.code as string, debit: exact(r.debit), credit: exact(r.credit) }]));
}

/**
 * Each key's debit and credit answered against the lines as they stood (exact strings): the keys compared, and
 * the first few that differ (missing, extra with amounts, or other amounts). Answered rows of keys with no line
 * then must be all zero (a trial balance may list accounts without movements, or group rows of other codes).
 */
function compareAsOf(expected: Map<string, { debit: string; credit: string }>, answered: Map<string, { debit: string; credit: string }>, known: (key: string) => boolean) {
  const differing: unknown[] = [];
  for (const [key, want] of expected) {
    const got = answered.get(key);
    if (got?.debit !== want.debit || got.credit !== want.credit) differing.push({ key, expected: want, answered: got ?? null });
  }
  for (const [key, got] of answered) {
    if (!expected.has(key) && known(key) && (got.debit !== '0' || got.credit !== '0')) differing.push({ key, expected: null, answered: got });
  }
  return { keys: expected.size, equal: differing.length === 0, differing: differing.slice(0, 5) };
}

export async function benchReports(adminUrl: string, options: ReportsBenchOptions): Promise<object> {
  const entries = options.entries ?? 500_000;
  const samples = options.samples ?? 300;
  const warmups = options.warmups ?? 50;
  const log = options.log ?? ((line: string) => console.error(line));
  const { loadAtStart, startedAt, server, postmasterPid, url, pool, config, db } = await serviceBenchTarget(adminUrl, options.freshDatabase);
  let service: Service | undefined;
  try {
    const core = await openCore(config, db);
    const seeded = await seedReportsLedger(core, core.store, entries, log);
    await pool.query('VACUUM ANALYZE es_events');
    const served = await rebuildEntriesThenServe(pool, core, config, db, log);
    const { rebuildMs, catchUpMs } = served;
    service = served.service;
    const oauthClient = await service.identity.createClient('Reports bench', 'http://127.0.0.1:8080/callback', false);
    await service.identity.createUser(seeded.organisationId, 'reports@example.com', 'bench-password', 'admin');
    const token = (await service.identity.issueToken(seeded.organisationId, 'reports@example.com', oauthClient.client_id, 'full_access')).access_token;
    log('  VACUUM ANALYZE, CHECKPOINT ...');
    await pool.query('VACUUM ANALYZE');
    await withAdmin(adminUrl, (c) => c.query('CHECKPOINT'));
    const { rows: sizes } = await pool.query(
      `SELECT c.relname AS table, c.reltuples::bigint AS rows, pg_total_relation_size(c.oid)::bigint AS bytes
       FROM pg_class c WHERE c.relkind = 'r' AND c.relname = ANY($1) ORDER BY c.relname`,
      [['es_events', 'accounting_entries', 'accounting_entry_lines', 'deleted_entry_lines', 'account_period_balances', 'account_day_balances', 'party_period_balances']],
    );

    await service.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}`;
    const client = httpClient(base, { authorization: `Bearer ${token}`, 'x-site': seeded.organisationId });
    const at = await instants(pool, seeded);
    const current = seeded.exercises[seeded.exercises.length - 1];
    const targets = [
      TYPENAME, ...rawTargets(seeded.organisationId, current.exerciseId, at), ...balancesTargets(seeded.organisationId, current.exerciseId, at), ...reportTargets(seeded, at),
    ];

    log(`  measuring ${targets.length} queries, ${warmups} + ${samples} requests each, one at a time ...`);
    const loadBeforeMeasuring = os.loadavg().map((x) => Math.round(x * 100) / 100);
    const measured: ReportMeasurement[] = [];
    const checks: Record<string, ReturnType<typeof compareAsOf>> = {};
    const subAccountCodes = new Set((await pool.query(`SELECT code FROM accounting_accounts WHERE organisation_id = $1 AND account_level = 'SUB_ACCOUNT'`, [seeded.organisationId])).rows.map((r) => r.code as string));
    for (const r of targets) {
      const head = { name: r.name, kind: r.kind, barMs: r.barMs, ...(r.root ? { root: r.root, input: r.input } : {}) };
      const pass = (p99: number) => (r.barMs === undefined ? null : p99 < r.barMs);
      if (r.sql) {
        const once = () => readScoped(pool, seeded.organisationId, (c) => c.query(r.sql!, r.params));
        const first = await once().catch((e: Error) => e);
        if (first instanceof Error) measured.push({ ...head, notServed: `the SQL fails: ${first.message}`, pass: null });
        else {
          const m = await timed(samples, warmups, postmasterPid, once);
          measured.push({ ...head, rows: first.rowCount ?? 0, ...m, pass: pass(m.latencyMs.p99) });
          if (r.kind === 'balances' && r.params!.length === 3) {
            // Per sub-account, exact: the as-of rows against the lines as they stood then.
            const expected = await linesAsOf(pool, seeded.organisationId, current.exerciseId, String(r.params![2]));
            const answered = new Map(first.rows.map((row) => [row.sub_account_id as string, { debit: exact(row.debit), credit: exact(row.credit) }]));
            checks[r.name] = compareAsOf(expected, answered, () => true);
          }
        }
      } else {
        const t = httpTarget(r);
        const first = answer(r, await client.send(t));
        if ('notServed' in first) {
          measured.push({ ...head, notServed: first.notServed, pass: null });
        } else {
          const once = async () => {
            const a = answer(r, await client.send(t));
            if ('notServed' in a) throw new Error(`${r.name}: ${a.notServed}`);
          };
          const m = await timed(samples, warmups, postmasterPid, once);
          measured.push({ ...head, rows: first.rows, ...m, pass: pass(m.latencyMs.p99) });
          if (r.kind === 'asOf') {
            // Each account's debit and credit, exact, as the lines stood then (the full year, no range or flag).
            const reply = JSON.parse((await client.send(t)).text) as { data: Record<string, { accountCode: string | null; debitAmount: string; creditAmount: string }[]> };
            const byId = await linesAsOf(pool, seeded.organisationId, current.exerciseId, String(r.input!.asOf));
            const expected = new Map([...byId.values()].map((x) => [x.code, x]));
            const answered = new Map(reply.data[r.root!].map((row) => [String(row.accountCode), { debit: exact(row.debitAmount), credit: exact(row.creditAmount) }]));
            checks[r.name] = compareAsOf(expected, answered, (code) => subAccountCodes.has(code));
          }
        }
      }
      const m = measured[measured.length - 1];
      log(`    ${m.name.padEnd(40)} ${m.notServed ? `not served (${m.notServed})` : `rows ${String(m.rows).padStart(5)}  p50 ${m.latencyMs!.p50} ms  p99 ${m.latencyMs!.p99} ms  max ${m.latencyMs!.max} ms`}`);
    }
    const loadAfterMeasuring = os.loadavg().map((x) => Math.round(x * 100) / 100);

    for (const m of measured) {
      const against = measured.find((x) => x.name === targets.find((r) => r.name === m.name)?.against)?.latencyMs?.p50;
      if (m.latencyMs && against) m.overRawP50 = Math.round((m.latencyMs.p50 / against) * 100) / 100;
    }

    log('  EXPLAIN (ANALYZE, BUFFERS) of the statements behind each report ...');
    for (const m of measured.filter((x) => x.kind !== 'baseline' && !x.notServed)) {
      const r = targets.find((x) => x.name === m.name)!;
      m.statements = r.sql
        ? await explain(pool, [{ sql: r.sql, params: r.params ?? [], organisationId: seeded.organisationId }])
        : await explain(pool, await recordScopedSql(() => client.send(httpTarget(r))));
    }
    client.close();

    log(`  ledger verify --org ${seeded.organisationId} (child process) ...`);
    const { rows: eventCount } = await pool.query(`SELECT count(*)::int AS n FROM es_events WHERE metadata->>'organisationId' = $1`, [seeded.organisationId]);
    const chain = await verifyChain(url, seeded.organisationId);
    // The bar is set at ~1,000,000 events; the seed writes about one event per entry: the check's time is scaled
    // linearly to a million events, the start-up (wall time less the check's) kept as it is.
    const events = eventCount[0].n as number;
    const perMillionMs = chain.checkMs === null ? null : Math.round(chain.ms - chain.checkMs + (chain.checkMs / events) * 1_000_000);
    const verify = { events, barMs: REPORT_BARS_MS.verify, ...chain, perMillionMs, pass: chain.intact === null ? null : chain.intact && perMillionMs !== null && perMillionMs < REPORT_BARS_MS.verify };
    log(`    ${verify.notServed ? `not served (${verify.notServed})` : `exit ${verify.exitCode} in ${verify.ms} ms`}`);

    const barred = measured.filter((m) => m.pass !== null);
    return {
      ...resultHeader('reports', startedAt, server, ['fastify', 'mercurius', 'graphql']),
      config: {
        entries, samples, warmups, bars: REPORT_BARS_MS, poolMax: POOL_LIMITS.max,
        client: 'node:http, one keep-alive connection, closed loop, in the service process',
        asOf: at, tombstonesAcross: await tombstonesAcross(pool, seeded.organisationId, at),
      },
      seeding: {
        ...seeded, appendMs: latencySummary(seeded.appendMs), ms: Math.round(seeded.ms),
        rebuildMs: Math.round(rebuildMs), serviceCatchUpMs: Math.round(catchUpMs),
        tables: sizes.map((s) => ({ table: s.table as string, rows: Number(s.rows), mib: Math.round(Number(s.bytes) / 2 ** 20) })),
      },
      load: { atStart: loadAtStart, beforeMeasuring: loadBeforeMeasuring, afterMeasuring: loadAfterMeasuring },
      results: measured,
      checks,
      verify,
      summary: {
        measured: barred.length,
        passed: barred.filter((m) => m.pass).length,
        failed: [
          ...barred.filter((m) => !m.pass).map((m) => m.name), ...(verify.pass === false ? ['ledger verify'] : []),
          ...Object.entries(checks).filter(([, c]) => !c.equal).map(([name]) => `${name} (its answer differs from the lines)`),
        ],
        notServed: [...measured.filter((m) => m.notServed).map((m) => m.name), ...(verify.notServed ? ['ledger verify'] : [])],
      },
    };
  } finally {
    await service?.close().catch((e) => log(`could not close the service: ${String(e)}`));
    await pool.end();
  }
}

/** The printed summary of a benchReports result. */
export function reportReports(result: object): string {
  const r = result as {
    config: { entries: number; samples: number; warmups: number; asOf: { p50: string; p90: string }; tombstonesAcross: { p50: number; p90: number } };
    seeding: { lines: number; deletions: number; events: number; accounts: number; parties: number };
    load: { atStart: number[]; beforeMeasuring: number[]; afterMeasuring: number[] };
    results: ReportMeasurement[];
    checks: Record<string, ReturnType<typeof compareAsOf>>;
    verify: { events: number; ms: number; checkMs: number | null; perMillionMs: number | null; exitCode: number | null; notServed?: string; pass: boolean | null; output: string };
    summary: { measured: number; passed: number; failed: string[]; notServed: string[] };
  };
  const bar = (m: ReportMeasurement) => (m.notServed ? 'not served' : m.pass === null ? '-' : m.pass ? 'PASS' : 'FAIL');
  const lines = [
    `${r.config.entries.toLocaleString('en')} entries / ${r.seeding.lines.toLocaleString('en')} lines (${r.seeding.deletions.toLocaleString('en')} entries deleted), ` +
      `${r.seeding.accounts} accounts, ${r.seeding.parties} parties; ${r.config.warmups} + ${r.config.samples} requests per query, one at a time; ` +
      `bars: p99 < ${REPORT_BARS_MS.report} ms (reports), < ${REPORT_BARS_MS.asOf} ms (as of), verify < ${REPORT_BARS_MS.verify / 1000} s`,
    '(balancesFrom: projections/reports/balances.ts summed per account in SQL as the reader role, no HTTP; raw: one GROUP BY over the lines, and the tombstones as of)',
    `as of 50%: ${r.config.asOf.p50}, 90%: ${r.config.asOf.p90} (deleted lines recorded before and deleted after: ${r.config.tombstonesAcross.p50}, ${r.config.tombstonesAcross.p90})`,
    `load average (1, 5, 15 min): at start ${r.load.atStart.join(' ')}, before measuring ${r.load.beforeMeasuring.join(' ')}, after ${r.load.afterMeasuring.join(' ')}`,
    '',
    table(
      ['query', 'rows', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'x raw p50', 'other%', 'bar'],
      r.results.map((m) => [
        m.name, m.rows ?? '-', m.latencyMs?.p50 ?? '-', m.latencyMs?.p90 ?? '-', m.latencyMs?.p99 ?? '-', m.latencyMs?.max ?? '-',
        m.overRawP50 ?? '-', m.cpuPercent?.other ?? '-', bar(m),
      ]),
      1,
    ),
    '(x raw p50: over the plain GROUP BY of the same books, now or as of the same instant)',
    '',
    ...Object.entries(r.checks).map(([name, c]) =>
      `${name}: debit and credit of ${c.keys} accounts against the lines as they stood, exact: ${c.equal ? 'equal' : `DIFFERENT ${JSON.stringify(c.differing)}`}`),
    `ledger verify over ${r.verify.events.toLocaleString('en')} events: ${r.verify.notServed ? `not served (${r.verify.notServed})` : `exit ${r.verify.exitCode}, ${r.verify.ms} ms of which the check ${r.verify.checkMs ?? '?'} ms; at a million events ${r.verify.perMillionMs ?? '?'} ms ${r.verify.pass ? 'PASS' : 'FAIL'}`}`,
    '',
    `${r.summary.passed} of ${r.summary.measured} measured reports within their bars` +
      (r.summary.failed.length ? `; FAIL: ${r.summary.failed.join(', ')}` : '') +
      (r.summary.notServed.length ? `; not served: ${r.summary.notServed.join(', ')}` : ''),
  ];
  const warning = contentionWarning(r.results.map((m) => m.cpuPercent));
  if (warning) lines.push(warning);
  for (const m of r.results.filter((x) => x.pass === false)) {
    lines.push('', `-- ${m.name}: p99 ${m.latencyMs?.p99} ms`);
    for (const s of m.statements ?? []) {
      lines.push(`   ${s.sql.replace(/\s+/g, ' ').slice(0, 2000)}   -- params ${JSON.stringify(s.params)}`);
      lines.push(...s.plan.split('\n').map((l) => `     ${l}`));
    }
  }
  return lines.join('\n');
}
