/**
 * Shared plumbing for the benchmarks: the context each benchmark gets, fresh databases on the
 * benchmark server, package versions and machine facts for the result files.
 */
import pg from 'pg';
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

/** Drops databases left behind by an interrupted run (used on the benchmark's own embedded cluster only). */
export async function dropLeftoverBenchDatabases(adminUrl: string): Promise<string[]> {
  return withAdmin(adminUrl, async (c) => {
    const { rows } = await c.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname ~ '^bench_[0-9a-f]+$'`,
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
    return Object.fromEntries(rows.map((r) => [r.name, r.unit ? `${r.setting} ${r.unit}` : r.setting]));
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/**
 * CPU seconds used so far by the local PostgreSQL processes (Linux /proc; assumes USER_HZ = 100).
 * Undefined when no postgres process is visible, e.g. DATABASE_URL points to another machine.
 * Backends that exit are not counted, so take both readings while the measured pool is connected.
 */
export function postgresCpuSeconds(): number | undefined {
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
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14, 15)
    found = true;
  }
  return found ? ticks / 100 : undefined;
}
