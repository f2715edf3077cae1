/**
 * Rebuild speed of the entries projection (accounting_entries + accounting_entry_lines) over a large
 * ledger: rebuildProjection(pool, store, entriesProjection), events/s, with the checksums it returns.
 *
 * Seeding goes around the command layer for speed but writes what it would: one organisation and one
 * exercise through the commands (so the chart, journal types, periods and session exist), then N
 * AccountingEntryPosted events shaped like domain/ledger.ts makes them (two lines, sequential numbers,
 * dates across the year with the matching period), appended straight through the PostgresEventStore to
 * the exercise's `Ledger-<exerciseId>` stream, 1,000 per append with the expected revision. Afterwards
 * es_events is VACUUM ANALYZEd and a CHECKPOINT taken (untimed), as a store that has been live for a
 * while would be, so the rebuild does not pay for first-read hint bits or earlier dirty pages.
 *
 * No projection daemon runs (openCore): the rebuild has the database to itself.
 */
import pg from 'pg';
import { openCore } from '../api/service.ts';
import type { EventStore, RecordedEvent } from '../eventstore/port.ts';
import { entriesProjection } from '../projections/accounting.ts';
import { REBUILD_LIMITS, rebuildProjection, type ReadModelChecksum } from '../projections/rebuild.ts';
import type { Projection, TableOf } from '../projections/projection.ts';
import type { Writes } from '../projections/writes.ts';
import { loadConfig } from '../platform/config.ts';
import { POOL_LIMITS } from '../platform/database.ts';
import { contentionWarning, cpuMeter, latencySummary, localPostmasterPid, resultHeader, serverInfo, withAdmin, type CpuPercent } from './support.ts';
import { EVENTS_PER_APPEND, appendPostedEvents, postedEvent, seedOrganisation } from './seed-ledger.ts';

export interface RebuildBenchOptions {
  freshDatabase: () => Promise<string>;
  /** AccountingEntryPosted events to seed; default 1,000,000. */
  events?: number;
  log?: (line: string) => void;
}

/** The store, with the time spent in readAll (query + decoding) added up. */
function timedStore(store: EventStore): { store: EventStore; readMs: () => number } {
  let readMs = 0;
  const timed: EventStore = Object.create(store);
  timed.readAll = async (from, options) => {
    const t0 = performance.now();
    try {
      return await store.readAll(from, options);
    } finally {
      readMs += performance.now() - t0;
    }
  };
  return { store: timed, readMs: () => readMs };
}

/** The projection, with the time spent in prepare/apply/applyBatch (loading and building the rows in memory) added up. */
function timedProjection(projection: Projection): { projection: Projection; applyMs: () => number } {
  let applyMs = 0;
  const timed = <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      const t0 = performance.now();
      const result = fn(...args);
      if (result instanceof Promise) return result.finally(() => (applyMs += performance.now() - t0)) as R;
      applyMs += performance.now() - t0;
      return result;
    };
  return {
    projection: {
      ...projection,
      apply: timed((event: RecordedEvent, writes: Writes, tableOf: TableOf) => projection.apply(event, writes, tableOf)),
      ...(projection.applyBatch ? { applyBatch: timed(projection.applyBatch.bind(projection)) } : {}),
      ...(projection.prepare ? { prepare: timed(projection.prepare.bind(projection)) } : {}),
    },
    applyMs: () => applyMs,
  };
}

export interface RebuildRun {
  ms: number;
  /** Over the whole rebuildProjection call: catch-up, swap and the checksums it computes. */
  eventsPerSec: number;
  /** Until the last batch was applied (phase 1), without the swap and checksums. */
  applyPhaseMs: number;
  applyPhaseEventsPerSec: number;
  swapAndChecksumMs: number;
  /** Where phase 1 went: readAll (query + decoding), prepare/apply (rows in memory), the rest (INSERTs, progress row, commits). */
  breakdownMs: { readAll: number; apply: number; writeAndCommit: number };
  cpuPercent: CpuPercent;
  checksums: ReadModelChecksum[];
}

async function timeRebuild(
  pool: pg.Pool,
  store: EventStore,
  target: Projection,
  total: number,
  postmasterPid: number | undefined,
  log: (line: string) => void,
): Promise<RebuildRun> {
  log(`  rebuilding ${target.name} ...`);
  const timed = timedStore(store);
  const projection = timedProjection(target);
  let appliedAt = 0;
  let lastProgress = performance.now();
  const meter = cpuMeter(postmasterPid);
  const start = performance.now();
  const checksums = await rebuildProjection(pool, timed.store, projection.projection, (p) => {
    const now = performance.now();
    if (p.done >= p.total) appliedAt = now;
    if (now - lastProgress >= 5_000) {
      lastProgress = now;
      const perSec = p.done / ((now - start) / 1000);
      log(`    ${p.done.toLocaleString('en')} / ${p.total.toLocaleString('en')} events (${Math.round(perSec).toLocaleString('en')} events/s, about ${Math.round((p.total - p.done) / perSec)} s to go)`);
    }
  });
  const ms = performance.now() - start;
  const cpuPercent = meter();
  const applyPhaseMs = (appliedAt || performance.now()) - start;
  const round = (x: number) => Math.round(x);
  return {
    ms: round(ms),
    eventsPerSec: round(total / (ms / 1000)),
    applyPhaseMs: round(applyPhaseMs),
    applyPhaseEventsPerSec: round(total / (applyPhaseMs / 1000)),
    swapAndChecksumMs: round(ms - applyPhaseMs),
    breakdownMs: {
      readAll: round(timed.readMs()),
      apply: round(projection.applyMs()),
      writeAndCommit: round(applyPhaseMs - timed.readMs() - projection.applyMs()),
    },
    cpuPercent,
    checksums,
  };
}

export async function benchRebuild(adminUrl: string, options: RebuildBenchOptions): Promise<object> {
  const total = options.events ?? 1_000_000;
  const log = options.log ?? ((line: string) => console.error(line));
  const startedAt = new Date();
  const server = await serverInfo(adminUrl);
  const postmasterPid = await localPostmasterPid(adminUrl);
  const url = await options.freshDatabase();
  const pool = new pg.Pool({ connectionString: url, ...POOL_LIMITS });
  pool.on('error', () => {});
  const config = { ...loadConfig({}), databaseUrl: url, logLevel: 'error' };
  const core = await openCore(config, { url, pool, close: async () => {} });
  try {
    // The organisation and its exercise, through the commands; seeding as bench/seed-ledger.ts does it.
    const { store } = core;
    const { facts, streamId } = await seedOrganisation(core.commands, 'Rebuild Bench S.L.');

    log(`  seeding ${total.toLocaleString('en')} AccountingEntryPosted events into ${streamId} ...`);
    const seedMeter = cpuMeter(postmasterPid);
    const seedStart = performance.now();
    let lastLog = seedStart;
    const at = new Date().toISOString();
    const appendTimes = await appendPostedEvents(store, streamId, (n) => postedEvent(facts, n, at), { count: total }, (seeded) => {
      const now = performance.now();
      if (now - lastLog >= 3_000 || seeded === total) {
        lastLog = now;
        log(`    seeded ${seeded.toLocaleString('en')} / ${total.toLocaleString('en')} (${Math.round(seeded / ((now - seedStart) / 1000)).toLocaleString('en')} events/s)`);
      }
    });
    const seedMs = performance.now() - seedStart;
    const seedCpu = seedMeter();

    const t1 = performance.now();
    await pool.query('VACUUM ANALYZE es_events');
    await withAdmin(adminUrl, (c) => c.query('CHECKPOINT'));
    const vacuumMs = performance.now() - t1;
    const { rows: sizeRows } = await pool.query(`SELECT pg_total_relation_size('es_events')::bigint AS bytes`);

    // The rebuild.
    const rebuild = await timeRebuild(pool, store, entriesProjection, total, postmasterPid, log);
    const checksums = rebuild.checksums;

    const entries = checksums.find((c) => c.table === 'accounting_entries');
    const lines = checksums.find((c) => c.table === 'accounting_entry_lines');
    const verified = entries?.rows === total && lines?.rows === 2 * total;
    const round = (x: number) => Math.round(x);
    return {
      ...resultHeader('rebuild', startedAt, server),
      config: {
        events: total,
        eventsPerAppend: EVENTS_PER_APPEND,
        rebuildBatchSize: REBUILD_LIMITS.batchSize,
        projection: entriesProjection.name,
        poolMax: POOL_LIMITS.max,
        eventBytes: { data: JSON.stringify(postedEvent(facts, 1, at).data).length, metadata: JSON.stringify(postedEvent(facts, 1, at).metadata).length },
        esEventsBytes: Number(sizeRows[0].bytes),
      },
      seeding: {
        ms: round(seedMs),
        eventsPerSec: round(total / (seedMs / 1000)),
        appendMs: latencySummary(appendTimes),
        vacuumAndCheckpointMs: round(vacuumMs),
        cpuPercent: seedCpu,
      },
      rebuild: { ...rebuild, checksums: undefined },
      checksums,
      verified,
    };
  } finally {
    await core.store.close();
    await pool.end();
  }
}

/** The printed summary of a benchRebuild result. */
export function reportRebuild(result: object): string {
  const r = result as {
    config: { events: number; esEventsBytes: number };
    seeding: { ms: number; eventsPerSec: number; appendMs: { p50: number; p99: number }; vacuumAndCheckpointMs: number; cpuPercent: CpuPercent };
    rebuild: RebuildRun;
    checksums: ReadModelChecksum[];
    verified: boolean;
  };
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const warning = contentionWarning([r.rebuild.cpuPercent, r.seeding.cpuPercent]);
  const run = (x: RebuildRun, title: string) => {
    const b = x.breakdownMs;
    const pct = (v: number) => `${Math.round((v / x.applyPhaseMs) * 100)}%`;
    return [
      `${title.padEnd(26)}${x.eventsPerSec.toLocaleString('en')} events/s (${s(x.ms)})`,
      `  catch-up phase          ${x.applyPhaseEventsPerSec.toLocaleString('en')} events/s (${s(x.applyPhaseMs)}): readAll ${s(b.readAll)} (${pct(b.readAll)}), apply ${s(b.apply)} (${pct(b.apply)}), INSERTs+commit ${s(b.writeAndCommit)} (${pct(b.writeAndCommit)})`,
      `  swap + checksums        ${s(x.swapAndChecksumMs)}`,
      `  cpu                     node ${x.cpuPercent.process}% (main ${x.cpuPercent.mainThread ?? '-'}%), postgres ${x.cpuPercent.postgres ?? '-'}%, other processes ${x.cpuPercent.other ?? '-'}%`,
    ];
  };
  return [
    `events                    ${r.config.events.toLocaleString('en')} (es_events ${(r.config.esEventsBytes / 2 ** 20).toFixed(0)} MiB)`,
    `seeding                   ${r.seeding.eventsPerSec.toLocaleString('en')} events/s (${s(r.seeding.ms)}; 1,000-event append p50 ${r.seeding.appendMs.p50} ms, p99 ${r.seeding.appendMs.p99} ms; vacuum+checkpoint ${s(r.seeding.vacuumAndCheckpointMs)}; cpu node ${r.seeding.cpuPercent.process}%, postgres ${r.seeding.cpuPercent.postgres ?? '-'}%)`,
    ...run(r.rebuild, 'rebuild (whole call)'),
    ...r.checksums.map((c) => `checksum ${c.table.padEnd(24)} ${c.rows.toLocaleString('en')} rows  ${c.checksum}`),
    `verified                  ${r.verified ? 'yes (rows = events, lines = 2 x events)' : 'NO'}`,
    ...(warning ? [warning] : []),
  ].join('\n');
}
