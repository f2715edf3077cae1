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
 * No projection daemon runs (bench/core.ts): the rebuild has the database to itself.
 *
 * Two baselines are measured in the same run, after the rebuild: reading every event through the store
 * and nothing else, and writing the finished rows and nothing else (copied inside PostgreSQL, same
 * indexes, same checksums). A rebuild does both; the ratios say how close it comes to their sum.
 */
import pg from 'pg';
import { START, type EventStore } from '../eventstore/port.ts';
import { entriesProjection } from '../projections/accounting/projections.ts';
import { REBUILD_LIMITS, buildIndexes, checksum, rebuildProjection, type ReadModelChecksum, type RebuildProgress } from '../projections/engine/rebuild.ts';
import { indexDefinitions, tableDdl } from '../projections/engine/resource.ts';
import { POOL_LIMITS } from '../platform/database.ts';
import { benchTarget, contentionWarning, cpuMeter, latencySummary, resultHeader, withAdmin, type CpuPercent } from './support.ts';
import { EVENTS_PER_APPEND, postedEvent, seedPostedLedger } from './seed-ledger.ts';
import { withBenchCore } from './core.ts';

export interface RebuildBenchOptions {
  freshDatabase: () => Promise<string>;
  /** AccountingEntryPosted events to seed; default 1,000,000. */
  events?: number;
  log?: (line: string) => void;
}

export interface RebuildRun {
  ms: number;
  /** Over the whole rebuildProjection call: events into the shadow tables, indexes, swap, checksums. */
  eventsPerSec: number;
  /** Time in each stage of the rebuild (RebuildProgress.stage), with the CPU each used. */
  stages: Record<RebuildProgress['stage'], { ms: number; cpuPercent: CpuPercent }>;
  cpuPercent: CpuPercent;
  checksums: ReadModelChecksum[];
}

async function timeRebuild(pool: pg.Pool, store: EventStore, total: number, postmasterPid: number | undefined, log: (line: string) => void): Promise<RebuildRun> {
  log(`  rebuilding ${entriesProjection.name} ...`);
  const stages = {} as RebuildRun['stages'];
  let stage: RebuildProgress['stage'] | undefined;
  let stageStart = 0;
  let stageMeter = cpuMeter(postmasterPid);
  let lastLog = performance.now();
  const endStage = (now: number) => {
    if (stage) stages[stage] = { ms: Math.round(now - stageStart), cpuPercent: stageMeter() };
  };
  const meter = cpuMeter(postmasterPid);
  const start = performance.now();
  const checksums = await rebuildProjection(pool, store, entriesProjection, (p) => {
    const now = performance.now();
    if (p.stage !== stage) {
      endStage(now);
      [stage, stageStart, stageMeter] = [p.stage, now, cpuMeter(postmasterPid)];
    }
    if (now - lastLog >= 5_000) {
      lastLog = now;
      const perSec = p.done / ((now - start) / 1000);
      log(`    ${p.done.toLocaleString('en')} / ${p.total.toLocaleString('en')} events (${Math.round(perSec).toLocaleString('en')} events/s)`);
    }
  });
  const end = performance.now();
  endStage(end);
  return { ms: Math.round(end - start), eventsPerSec: Math.round(total / ((end - start) / 1000)), stages, cpuPercent: meter(), checksums };
}

export interface Baseline {
  what: string;
  ms: number;
  eventsPerSec: number;
  cpuPercent: CpuPercent;
}

/** Reading the projection's events through the store and nothing else: the floor of the read side. */
async function readOnlyBaseline(store: EventStore, total: number, postmasterPid: number | undefined): Promise<Baseline> {
  const meter = cpuMeter(postmasterPid);
  const start = performance.now();
  let from = START;
  let read = 0;
  for (;;) {
    const batch = await store.readAll(from, { maxCount: REBUILD_LIMITS.batchSize, filter: { eventTypes: entriesProjection.eventTypes } });
    if (batch.length === 0) break;
    read += batch.length;
    from = batch[batch.length - 1].position;
  }
  if (read !== total) throw new Error(`read ${read} events, seeded ${total}`);
  const ms = performance.now() - start;
  return { what: 'readAll of every event, nothing written', ms: Math.round(ms), eventsPerSec: Math.round(total / (ms / 1000)), cpuPercent: meter() };
}

/**
 * Writing the finished rows and nothing else: the rebuilt tables copied inside the server into
 * tables of the same shape, then the same indexes built the same way (one per core), then the same
 * checksums. No event is read or decoded: the floor of the write side on this server.
 */
async function writeOnlyBaseline(pool: pg.Pool, total: number, postmasterPid: number | undefined): Promise<Baseline> {
  const copies = entriesProjection.resources.map((r) => ({ r, table: `${r.table}__baseline` }));
  for (const { table } of copies) await pool.query(`DROP TABLE IF EXISTS ${table}`);
  const meter = cpuMeter(postmasterPid);
  const start = performance.now();
  await Promise.all(copies.map(({ r, table }) => pool.query(`${tableDdl(r, table, false)}; INSERT INTO ${table} SELECT * FROM ${r.table}`)));
  await buildIndexes(pool, copies.flatMap(({ r, table }) => indexDefinitions(r, table).map((index) => ({ table, index }))), REBUILD_LIMITS.indexBuilders);
  await Promise.all(copies.map(({ table }) => checksum(pool, table)));
  const ms = performance.now() - start;
  const cpuPercent = meter();
  for (const { table } of copies) await pool.query(`DROP TABLE ${table}`);
  return { what: 'the rebuilt rows copied inside PostgreSQL + the same indexes and checksums', ms: Math.round(ms), eventsPerSec: Math.round(total / (ms / 1000)), cpuPercent };
}

export async function benchRebuild(adminUrl: string, options: RebuildBenchOptions): Promise<object> {
  const total = options.events ?? 1_000_000;
  const log = options.log ?? ((line: string) => console.error(line));
  const { startedAt, server, postmasterPid, url } = await benchTarget(adminUrl, options.freshDatabase);
  return withBenchCore(url, async (core, pool) => {
    // The organisation and its exercise through the commands, the postings straight into the store (bench/seed-ledger.ts).
    const { store } = core;
    const seedMeter = cpuMeter(postmasterPid);
    const { facts, appendTimes, ms: seedMs } = await seedPostedLedger(core, store, 'Rebuild Bench S.L.', total, log);
    const seedCpu = seedMeter();

    const t1 = performance.now();
    await pool.query('VACUUM ANALYZE es_events');
    await withAdmin(adminUrl, (c) => c.query('CHECKPOINT'));
    const vacuumMs = performance.now() - t1;
    const { rows: sizeRows } = await pool.query(`SELECT pg_total_relation_size('es_events')::bigint AS bytes`);

    // The rebuild.
    const rebuild = await timeRebuild(pool, store, total, postmasterPid, log);
    const checksums = rebuild.checksums;
    const sample = postedEvent(facts, 1, new Date().toISOString()); // (their timestamps have one length)
    log('  baselines: reading alone, writing alone ...');
    const baselines = { readOnly: await readOnlyBaseline(store, total, postmasterPid), writeOnly: await writeOnlyBaseline(pool, total, postmasterPid) };

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
        /** Worker threads preparing batches (REBUILD_LIMITS.workers; this many events are above workersFromEvents). */
        rebuildWorkers: REBUILD_LIMITS.workers,
        projection: entriesProjection.name,
        poolMax: POOL_LIMITS.max,
        eventBytes: { data: JSON.stringify(sample.data).length, metadata: JSON.stringify(sample.metadata).length },
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
      baselines,
      ratios: {
        rebuildToReadOnly: Number((rebuild.ms / baselines.readOnly.ms).toFixed(2)),
        rebuildToWriteOnly: Number((rebuild.ms / baselines.writeOnly.ms).toFixed(2)),
        rebuildToReadPlusWrite: Number((rebuild.ms / (baselines.readOnly.ms + baselines.writeOnly.ms)).toFixed(2)),
      },
      checksums,
      verified,
    };
  });
}

/** The printed summary of a benchRebuild result. */
export function reportRebuild(result: object): string {
  const r = result as {
    config: { events: number; esEventsBytes: number };
    seeding: { ms: number; eventsPerSec: number; appendMs: { p50: number; p99: number }; vacuumAndCheckpointMs: number; cpuPercent: CpuPercent };
    rebuild: RebuildRun;
    baselines: { readOnly: Baseline; writeOnly: Baseline };
    ratios: { rebuildToReadOnly: number; rebuildToWriteOnly: number; rebuildToReadPlusWrite: number };
    checksums: ReadModelChecksum[];
    verified: boolean;
  };
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const warning = contentionWarning([r.rebuild.cpuPercent, r.seeding.cpuPercent, r.baselines.readOnly.cpuPercent, r.baselines.writeOnly.cpuPercent]);
  const cpu = (c: CpuPercent) => `cpu node ${c.process}%, postgres ${c.postgres ?? '-'}%, other ${c.other ?? '-'}%`;
  const run = (x: RebuildRun, title: string) => [
    `${title.padEnd(26)}${x.eventsPerSec.toLocaleString('en')} events/s (${s(x.ms)}; ${cpu(x.cpuPercent)})`,
    ...Object.entries(x.stages).map(([name, st]) => `  ${name.padEnd(24)}${s(st.ms)} (${cpu(st.cpuPercent)})`),
  ];
  const baseline = (b: Baseline) => `  ${b.eventsPerSec.toLocaleString('en')} events/s (${s(b.ms)}): ${b.what}`;
  return [
    `events                    ${r.config.events.toLocaleString('en')} (es_events ${(r.config.esEventsBytes / 2 ** 20).toFixed(0)} MiB)`,
    `seeding                   ${r.seeding.eventsPerSec.toLocaleString('en')} events/s (${s(r.seeding.ms)}; 1,000-event append p50 ${r.seeding.appendMs.p50} ms, p99 ${r.seeding.appendMs.p99} ms; vacuum+checkpoint ${s(r.seeding.vacuumAndCheckpointMs)}; cpu node ${r.seeding.cpuPercent.process}%, postgres ${r.seeding.cpuPercent.postgres ?? '-'}%)`,
    ...run(r.rebuild, 'rebuild (whole call)'),
    'baselines, same run',
    baseline(r.baselines.readOnly),
    baseline(r.baselines.writeOnly),
    `ratios                    rebuild time / read alone ${r.ratios.rebuildToReadOnly}, / write alone ${r.ratios.rebuildToWriteOnly}, / (read + write) ${r.ratios.rebuildToReadPlusWrite}`,
    ...r.checksums.map((c) => `checksum ${c.table.padEnd(24)} ${c.rows.toLocaleString('en')} rows  ${c.checksum}`),
    `verified                  ${r.verified ? 'yes (rows = events, lines = 2 x events)' : 'NO'}`,
    ...(warning ? [warning] : []),
  ].join('\n');
}
