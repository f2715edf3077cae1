/**
 * Cold loads of a big ledger: one exercise's stream of N AccountingEntryPosted events (default
 * 1,000,000, seeded as bench/rebuild.ts seeds them), loaded by processes that have never seen it:
 * - from the first event, without snapshots (what every cold load did before snapshots);
 * - from the first event again, with snapshots on (none exists yet): that load leaves one;
 * - from that snapshot, the way every later cold load goes.
 * Same run, same data: the ratio of the last to the first is what a snapshot saves.
 */
import { LedgerAggregate } from '../commands/accounting/aggregates.ts';
import { AggregateStore, SNAPSHOT_LIMITS } from '../commands/aggregate-store.ts';
import { PostgresSnapshotStore } from '../commands/snapshots.ts';
import { ledgerSnapshot } from '../domain/accounting/ledger-snapshot.ts';
import { seedPostedLedger } from './seed-ledger.ts';
import { benchTarget, cpuMeter, resultHeader, type CpuPercent } from './support.ts';
import { withBenchCore } from './core.ts';

export interface SnapshotBenchOptions {
  freshDatabase: () => Promise<string>;
  /** Entries in the ledger; default 1,000,000. */
  events?: number;
  log?: (line: string) => void;
}

interface TimedLoad {
  ms: number;
  cpuPercent: CpuPercent;
  entries: number;
}

export async function benchSnapshots(adminUrl: string, options: SnapshotBenchOptions): Promise<object> {
  const total = options.events ?? 1_000_000;
  const log = options.log ?? ((line: string) => console.error(line));
  const { startedAt, server, postmasterPid, url } = await benchTarget(adminUrl, options.freshDatabase);
  return withBenchCore(url, async (core, pool) => {
    const { store } = core;
    const { streamId, ms: seedMs } = await seedPostedLedger(core, store, 'Snapshot Bench S.L.', total, log);
    const exerciseId = streamId.slice(`${LedgerAggregate.category}-`.length);
    await pool.query('VACUUM ANALYZE es_events');

    const snapshots = await PostgresSnapshotStore.open(pool);
    await pool.query(`DELETE FROM aggregate_snapshots WHERE stream_id = $1`, [streamId]);
    const errors: string[] = [];
    const timedLoad = async (aggregates: AggregateStore): Promise<TimedLoad & { ledger: string }> => {
      const meter = cpuMeter(postmasterPid);
      const start = performance.now();
      const { state } = await aggregates.load(LedgerAggregate, exerciseId);
      const ms = performance.now() - start;
      const cpuPercent = meter();
      // A digest of the whole ledger state, to check every way of loading it gives the same one.
      const ledger = JSON.stringify(ledgerSnapshot(state)).length + ':' + state.entryOrder[state.entryOrder.length - 1];
      return { ms: Math.round(ms), cpuPercent, entries: state.entryOrder.length, ledger };
    };

    log('  cold load from the first event, no snapshots ...');
    const replay = await timedLoad(new AggregateStore(store));
    log('  cold load from the first event, snapshots on (leaves one) ...');
    const taking = new AggregateStore(store, snapshots, { ...SNAPSHOT_LIMITS, onError: (e) => errors.push(String(e)) });
    const replayTaking = await timedLoad(taking);
    const saveStart = performance.now();
    await taking.snapshotsSaved();
    const saveMs = Math.round(performance.now() - saveStart);
    const { rows } = await pool.query(`SELECT revision::text AS revision, octet_length(body::text)::bigint AS json, pg_column_size(body)::bigint AS stored FROM aggregate_snapshots WHERE stream_id = $1`, [streamId]);
    log('  cold load from the snapshot ...');
    const fromSnapshot = await timedLoad(new AggregateStore(store, snapshots, { ...SNAPSHOT_LIMITS, onError: (e) => errors.push(String(e)) }));

    const verified = rows.length === 1 && errors.length === 0 && replay.entries === total && fromSnapshot.ledger === replay.ledger && replayTaking.ledger === replay.ledger;
    const strip = ({ ledger: _, ...load }: TimedLoad & { ledger: string }) => load;
    return {
      ...resultHeader('snapshots', startedAt, server),
      config: { entries: total, minEventsForSnapshot: SNAPSHOT_LIMITS.minEvents },
      seeding: { ms: Math.round(seedMs) },
      loads: {
        fromFirstEvent: strip(replay),
        fromFirstEventTakingSnapshot: { ...strip(replayTaking), saveMsAfterLoad: saveMs },
        fromSnapshot: strip(fromSnapshot),
      },
      snapshot: rows[0] ? { revision: rows[0].revision, jsonBytes: Number(rows[0].json), storedBytes: Number(rows[0].stored) } : null,
      ratios: {
        fromSnapshotToFromFirstEvent: Number((fromSnapshot.ms / replay.ms).toFixed(3)),
        takingSnapshotToFromFirstEvent: Number((replayTaking.ms / replay.ms).toFixed(2)),
      },
      errors,
      verified,
    };
  });
}

export function reportSnapshots(result: object): string {
  const r = result as {
    config: { entries: number };
    loads: { fromFirstEvent: TimedLoad; fromFirstEventTakingSnapshot: TimedLoad & { saveMsAfterLoad: number }; fromSnapshot: TimedLoad };
    snapshot: { jsonBytes: number; storedBytes: number } | null;
    ratios: { fromSnapshotToFromFirstEvent: number; takingSnapshotToFromFirstEvent: number };
    verified: boolean;
  };
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  return [
    `ledger                          ${r.config.entries.toLocaleString('en')} entries in one exercise`,
    `cold load from the first event  ${s(r.loads.fromFirstEvent.ms)}`,
    `  the same, leaving a snapshot  ${s(r.loads.fromFirstEventTakingSnapshot.ms)} (${r.ratios.takingSnapshotToFromFirstEvent}x; then ${s(r.loads.fromFirstEventTakingSnapshot.saveMsAfterLoad)} to finish saving it)`,
    `cold load from the snapshot     ${s(r.loads.fromSnapshot.ms)} (${r.ratios.fromSnapshotToFromFirstEvent}x the load from the first event)`,
    `snapshot                        ${r.snapshot ? `${mb(r.snapshot.jsonBytes)} of JSON, ${mb(r.snapshot.storedBytes)} stored` : 'NONE'}`,
    `verified                        ${r.verified ? 'yes (every load gives the same ledger)' : 'NO'}`,
  ].join('\n');
}
