/**
 * `npm run bench [-- NAME...] [--duration=MS] [--warmup=MS] [--subjects=a,b] [--writers=1,8] [--modes=1,10]
 *   [--connections=1,8,32] [--orgs=N] [--endpoints=health,query,mutation,mutation-1org] [--rate=N] [--events=N]
 *   [--samples=N] [--warmups=N] [--clients=N]`
 *
 * Runs the benchmarks listed in BENCHMARKS (all, or those named on the command line) against
 * DATABASE_URL when set, otherwise against an embedded PostgreSQL cluster kept under ./data/bench-pg.
 * Each benchmark gets fresh databases on that server (dropped afterwards), prints a summary and
 * writes bench/results/<name>-<timestamp>.json; bench/results/latest.json holds the latest result of
 * every benchmark, keyed by name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '../platform/embedded-postgres.ts';
import { benchEventStore, reportEventStore, type EventStoreBenchOptions } from './eventstore.ts';
import { benchHttp, reportHttp, type HttpBenchOptions } from './http.ts';
import { benchLag, reportLag } from './lag.ts';
import { benchRebuild, reportRebuild } from './rebuild.ts';
import { benchFanout, reportFanout } from './fanout.ts';
import { benchLists, reportLists } from './lists.ts';
import { benchSnapshots, reportSnapshots } from './snapshots.ts';
import { benchSales, reportSales } from './sales.ts';
import { benchReports, reportReports } from './reports.ts';
import { DatabaseFactory, dropLeftoverBenchDatabases, type BenchmarkEntry } from './support.ts';

const args = process.argv.slice(2);
const flag = (name: string): number | undefined => {
  const a = args.find((x) => x.startsWith(`--${name}=`));
  if (!a) return undefined;
  const n = Number(a.slice(name.length + 3));
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} takes milliseconds`);
  return n;
};
const list = (name: string): string[] | undefined =>
  args.find((x) => x.startsWith(`--${name}=`))?.slice(name.length + 3).split(',').filter(Boolean);
const count = (name: string): number | undefined => {
  const a = args.find((x) => x.startsWith(`--${name}=`));
  if (!a) return undefined;
  const n = Number(a.slice(name.length + 3).replace(/_/g, ''));
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} takes a positive whole number`);
  return n;
};
const durationMs = flag('duration');
const warmupMs = flag('warmup');
// eventstore only: narrow or widen the matrix, e.g. --subjects=ours,ours-nowake --writers=1,8 --modes=1
const subjects = list('subjects') as EventStoreBenchOptions['subjects'];
const writerCounts = list('writers')?.map(Number);
const eventsPerAppend = list('modes')?.map(Number);
// http: --connections=1,8,32 --orgs=4 --endpoints=mutation,query
const connections = list('connections')?.map(Number);
const endpoints = list('endpoints') as HttpBenchOptions['endpoints'];
// http and lag: organisations the load is spread over
const organisations = count('orgs');
// lag: target entries/s
const rate = count('rate');
// rebuild, fanout, snapshots, lists, reports: events to seed (lists: entries of the big organisation, 2 lines each; reports: entries, ~2.1 lines each)
const events = count('events');
// lists, reports: measured and unmeasured requests per query
const samples = count('samples');
const warmups = count('warmups');
// sales: concurrent clients
const clients = count('clients');

/** Add further benchmarks here. */
const BENCHMARKS: BenchmarkEntry[] = [
  {
    name: 'eventstore',
    run: (ctx) =>
      benchEventStore(ctx.adminUrl, { freshDatabase: ctx.freshDatabase, durationMs, warmupMs, subjects, writerCounts, eventsPerAppend }),
    report: reportEventStore,
  },
  {
    name: 'http',
    run: (ctx) =>
      benchHttp(ctx.adminUrl, { freshDatabase: ctx.freshDatabase, durationMs, warmupMs, connections, organisations, endpoints }),
    report: reportHttp,
  },
  {
    name: 'lag',
    run: (ctx) => benchLag(ctx.adminUrl, { freshDatabase: ctx.freshDatabase, durationMs, warmupMs, rate, organisations }),
    report: reportLag,
  },
  {
    name: 'fanout',
    run: (ctx) => benchFanout(ctx.adminUrl, { freshDatabase: ctx.freshDatabase, events }),
    report: reportFanout,
  },
  {
    name: 'rebuild',
    run: (ctx) => benchRebuild(ctx.adminUrl, { freshDatabase: ctx.freshDatabase, events }),
    report: reportRebuild,
  },
  {
    name: 'sales',
    run: (ctx) => benchSales(ctx.adminUrl, { freshDatabase: ctx.freshDatabase, durationMs, clients }),
    report: reportSales,
  },
  {
    name: 'snapshots',
    run: (ctx) => benchSnapshots(ctx.adminUrl, { freshDatabase: ctx.freshDatabase, events }),
    report: reportSnapshots,
  },
  {
    name: 'lists',
    run: (ctx) => benchLists(ctx.adminUrl, { freshDatabase: ctx.freshDatabase, entries: events, samples, warmups }),
    report: reportLists,
  },
  {
    name: 'reports',
    run: (ctx) => benchReports(ctx.adminUrl, { freshDatabase: ctx.freshDatabase, entries: events, samples, warmups }),
    report: reportReports,
  },
];

const names = args.filter((a) => !a.startsWith('--'));
const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.name === n));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
  process.exit(2);
}
const selected = names.length === 0 ? BENCHMARKS : BENCHMARKS.filter((b) => names.includes(b.name));

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const resultsDir = path.join(benchDir, 'results');
const repoRoot = path.resolve(benchDir, '..');

function writeJson(file: string, value: unknown): void {
  const tmp = file.replace(/\.json$/, '.tmp.json');
  fs.writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n');
  fs.renameSync(tmp, file);
}

let adminUrl = process.env.DATABASE_URL;
let stopCluster: (() => Promise<void>) | undefined;
if (!adminUrl) {
  console.error('starting embedded PostgreSQL under data/bench-pg ...');
  const cluster = await startEmbeddedPostgres(path.join(repoRoot, 'data', 'bench-pg'));
  adminUrl = cluster.url;
  stopCluster = cluster.stop;
  const dropped = await dropLeftoverBenchDatabases(adminUrl);
  if (dropped.length > 0) console.error(`dropped ${dropped.length} database(s) left by an earlier run`);
}

let exitCode = 0;
try {
  fs.mkdirSync(resultsDir, { recursive: true });
  for (const bench of selected) {
    console.error(`\n== ${bench.name}`);
    const factory = new DatabaseFactory(adminUrl);
    let result: object;
    try {
      result = await bench.run({ adminUrl, freshDatabase: () => factory.create() });
    } finally {
      await factory.dropAll().catch((e) => console.error(`could not drop benchmark databases: ${String(e)}`));
    }
    console.log(`\n${bench.name}\n${bench.report ? bench.report(result) : JSON.stringify(result, null, 2)}\n`);

    const stamp = new Date().toISOString().replace(/:/g, '-');
    const file = path.join(resultsDir, `${bench.name}-${stamp}.json`);
    writeJson(file, result);
    const latestFile = path.join(resultsDir, 'latest.json');
    let latest: { updatedAt?: string; benchmarks?: Record<string, unknown> } = {};
    try {
      latest = JSON.parse(fs.readFileSync(latestFile, 'utf8'));
    } catch {
      // first run, or unreadable: start over
    }
    writeJson(latestFile, {
      updatedAt: new Date().toISOString(),
      benchmarks: { ...(latest.benchmarks ?? {}), [bench.name]: { file: path.basename(file), ...result } },
    });
    console.error(`wrote ${path.relative(repoRoot, file)} and ${path.relative(repoRoot, latestFile)}`);
  }
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  if (stopCluster) await stopCluster();
}
process.exit(exitCode);
