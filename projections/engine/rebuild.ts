/**
 * Rebuilds a projection into shadow tables while the live ones keep serving, then swaps them in one
 * transaction that also holds the checkpoints (so the live daemon pauses only for the swap). Progress
 * is saved after every batch: an interrupted rebuild resumes where it stopped.
 *
 * The shadow tables are bulk loaded: rows go in by COPY and the tables start without indexes, which
 * are built in one pass each after the load (several times cheaper than keeping them up to date row
 * by row). An index is built early only when a statement needs it to find rows (an UPDATE or DELETE
 * by some fields): from then on that one is kept up to date during the load, and the table has statistics.
 */
import type pg from 'pg';
import { availableParallelism } from 'node:os';
import { START, comparePositions, type EventStore, type GlobalPosition } from '../../eventstore/port.ts';
import { dropCounts, swapCounts } from './counts.ts';
import { fillSums } from './sums.ts';
import { readCheckpoints, writeCheckpoint } from './daemon.ts';
import { clearParked } from './parked.ts';
import type { Projection } from './projection.ts';
import { columnOf, indexDefinitions, indexNames, tableDdl, type IndexDefinition, type Resource } from './resource.ts';
import { batchReader, startWorkers, type Batch } from './rebuild-batches.ts';
import { shadowTable } from './shadow.ts';
import type { Lookup } from './writes.ts';
import { inTransaction } from '../../platform/database.ts';
import { existingIndexes } from './schema.ts';
import { projectionVersion } from './versions.ts';

export const REBUILD_LIMITS = Object.freeze({
  batchSize: 5000,
  /** Sort memory of one index build: enough to sort a few million keys without spilling. */
  indexBuildMemory: '256MB',
  /** Batches written at once in phase 1 (each holds a connection and its rows in memory). */
  batchesInFlight: 3,
  /** Longest a batch waits for a lock in phase 1 (the live daemon never locks shadow tables). */
  lockTimeout: '30s',
  /** Longest an attempt to swap waits for a lock before it gives up and tries again, and how many attempts (the last waits). */
  swapLockWait: '200ms',
  swapAttempts: 5,
  /** Up to this long (times the attempt's number, jittered) between attempts to swap. */
  swapBackoffMs: 100,
  /** Indexes built at once after the load: one per core of a small database server. */
  indexBuilders: Math.max(1, Math.min(4, availableParallelism())),
  /** Worker threads preparing batches (rebuild-workers.ts): one per core, none on a single core. */
  workers: availableParallelism() >= 2 ? Math.min(4, availableParallelism()) : 0,
  /** Fewer events left than this are not worth starting the workers for (each loads the code, about a second). */
  workersFromEvents: 50_000,
});

export interface RebuildOptions {
  /** Stops the rebuild after the batch being written; running it again resumes. */
  signal?: AbortSignal;
  batchSize?: number;
  /** Worker threads to prepare batches on; default REBUILD_LIMITS.workers when enough events are left. */
  workers?: number;
  /** At most this many of them, when the default applies (a rebuild in the background of a serving process). */
  maxWorkers?: number;
  /** Events a worker thread decodes, applies and encodes at a time (default WORKER_LIMITS.sliceEvents). */
  workerSliceEvents?: number;
}

/** The replaced live table between the swap and its drop (dropped after the swap commits, not inside it). */
const retired = (r: Resource) => `${r.table}__retired`;

export interface RebuildProgress {
  projection: string;
  /** Applying events into the shadow tables, building their indexes, the tail and swap, the checksums. */
  stage: 'events' | 'indexes' | 'swap' | 'checksums';
  done: number;
  /** Events to apply in all: an estimate (the planner's) until the events stage ends, exact from then on. */
  total: number;
}

export interface ReadModelChecksum {
  table: string;
  rows: number;
  checksum: string;
}

/**
 * A digest of a table's contents, independent of row order and physical layout: the XOR of every
 * row's 64-bit value hash (rows are unique by id, so none cancel out). One pass, no sort.
 */
export async function checksum(db: pg.Pool | pg.PoolClient, table: string): Promise<ReadModelChecksum> {
  const { rows } = await db.query(`SELECT count(*)::int AS n, lpad(to_hex(coalesce(bit_xor(hash_record_extended(t, 0)), 0)), 16, '0') AS sum FROM ${table} t`);
  return { table, rows: rows[0].n, checksum: rows[0].sum };
}

/**
 * About how many events of these types the store holds, from the planner's statistics: counting them
 * reads the whole store (about a second per million events, again for each projection of a `--all`).
 * A store never analysed has no statistics (the planner would guess 2%): it is analysed first.
 */
async function estimateEvents(pool: pg.Pool, eventTypes: readonly string[]): Promise<number> {
  const { rows: stats } = await pool.query(`SELECT reltuples >= 0 AS analysed FROM pg_class WHERE oid = 'es_events'::regclass`);
  if (!stats[0]?.analysed) await pool.query('ANALYZE es_events');
  const { rows } = await pool.query(`EXPLAIN (FORMAT JSON) SELECT FROM es_events WHERE event_type = ANY($1)`, [eventTypes]);
  return Math.round(rows[0]['QUERY PLAN'][0].Plan['Plan Rows']);
}

/**
 * Builds indexes of existing tables on `connections` connections at once, each in its own transaction
 * (so each holds its table's lock only while it builds), longest first: the estimate is the table's
 * size times the index's columns, and starting the long builds first keeps a short one from being
 * the only one left running. One process sorts per build, PostgreSQL's own parallel workers would
 * only compete with the other builds; except for the last to start, which they help as builds end.
 */
export async function buildIndexes(pool: pg.Pool, jobs: { table: string; index: IndexDefinition }[], connections: number, built: (job: { table: string; index: IndexDefinition }) => void = () => {}): Promise<void> {
  const sizes = new Map<string, number>();
  for (const table of new Set(jobs.map((j) => j.table))) {
    const { rows } = await pool.query(`SELECT pg_relation_size($1::regclass)::bigint AS bytes`, [table]);
    sizes.set(table, Number(rows[0].bytes));
  }
  const cost = (job: { table: string; index: IndexDefinition }) => sizes.get(job.table)! * job.index.columns.length;
  const queue = [...jobs].sort((a, b) => cost(b) - cost(a));
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      // The last build to start may get the connections' other cores (PostgreSQL's parallel build) as they fall idle.
      const helpers = queue.length === 0 ? connections - 1 : 0;
      await inTransaction(pool, (client) => buildIndex(client, job.index, helpers));
      built(job);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(connections, queue.length)) }, worker));
}

/** Builds an index; `parallelWorkers`: how many of PostgreSQL's parallel workers it may use (its own setting if not given). */
async function buildIndex(client: pg.PoolClient, index: IndexDefinition, parallelWorkers?: number): Promise<void> {
  // Like the batches, a build lost in a crash is only redone (a resumed rebuild reads which exist), so its commit need not wait for the disk.
  await client.query(`SET LOCAL maintenance_work_mem = '${REBUILD_LIMITS.indexBuildMemory}'; SET LOCAL synchronous_commit = off`);
  if (parallelWorkers !== undefined) {
    // No more than the server allows (its setting may be lower than this machine's cores suggest).
    await client.query(`SELECT set_config('max_parallel_maintenance_workers', least($1::int, current_setting('max_parallel_maintenance_workers')::int)::text, true)`, [Math.max(0, Math.floor(parallelWorkers))]);
  }
  await client.query(index.create);
}

/** The shadow tables' indexes not built yet, read from the catalog (so a resumed rebuild knows too). */
class ShadowIndexes {
  private constructor(
    private readonly all: Map<string, IndexDefinition[]>,
    private readonly missing: Map<string, IndexDefinition[]>,
  ) {}

  static async of(pool: pg.Pool, resources: readonly Resource[]): Promise<ShadowIndexes> {
    const all = new Map<string, IndexDefinition[]>();
    const missing = new Map<string, IndexDefinition[]>();
    for (const r of resources) {
      const built = await existingIndexes(pool, shadowTable(r));
      all.set(shadowTable(r), indexDefinitions(r, shadowTable(r)));
      missing.set(shadowTable(r), all.get(shadowTable(r))!.filter((i) => !built.has(i.name)));
    }
    return new ShadowIndexes(all, missing);
  }

  /** Builds the index a lookup finds its rows by, if not built yet. */
  async buildFor(client: pg.PoolClient, lookup: Lookup): Promise<void> {
    const missing = this.missing.get(lookup.table);
    if (!missing || missing.length === 0) return;
    const index = indexToBuild(this.all.get(lookup.table)!, missing, new Set(lookup.fields.map((name) => columnOf(lookup.resource, name))));
    if (!index) return;
    await buildIndex(client, index);
    // Statistics with it: a loading shadow table has none, and without them the planner takes an equality on a
    // column for 0.5% of the table and prefers reading all of it to the index just built (ANALYZE samples).
    await client.query(`ANALYZE ${lookup.table}`);
    this.built({ table: lookup.table, index });
  }

  /** Builds every index still missing. */
  buildAll(pool: pg.Pool, connections: number): Promise<void> {
    const jobs = [...this.missing].flatMap(([table, missing]) => missing.map((index) => ({ table, index })));
    return buildIndexes(pool, jobs, connections, (job) => this.built(job));
  }

  private built({ table, index }: { table: string; index: IndexDefinition }): void {
    const missing = this.missing.get(table)!;
    const at = missing.indexOf(index);
    if (at >= 0) missing.splice(at, 1);
  }
}

/**
 * The index a lookup needs built: the best of all the table's (indexServing), unless it is built already. Choosing
 * among the missing ones only would build the next best mid-load, once the best is built, and make every later
 * batch maintain it row by row.
 */
export function indexToBuild(all: readonly IndexDefinition[], missing: readonly IndexDefinition[], columns: ReadonlySet<string>): IndexDefinition | undefined {
  const best = indexServing(all, columns);
  return best && missing.some((index) => index.name === best.name) ? best : undefined;
}

/**
 * The index a lookup by these columns searches best: the most leading columns among them, counting the organisation's
 * last (every row of a tenant shares it), then the fewest columns beyond (by organisation and id: the primary key,
 * not (organisation_id, date, number)).
 */
export function indexServing(indexes: readonly IndexDefinition[], columns: ReadonlySet<string>): IndexDefinition | undefined {
  const searched = (index: IndexDefinition) => {
    const firstOther = index.columns.findIndex((c) => !columns.has(c));
    return index.columns.slice(0, firstOther === -1 ? undefined : firstOther);
  };
  const narrowing = (index: IndexDefinition) => searched(index).filter((c) => c !== 'organisation_id').length;
  const usable = indexes.filter((index) => searched(index).length > 0);
  return usable.sort((a, b) => narrowing(b) - narrowing(a) || searched(b).length - searched(a).length || a.columns.length - b.columns.length)[0];
}

/**
 * A batch being written in phase 1: whether it and every batch before it still in flight only insert
 * (known once applied), and its commit.
 */
interface BatchInFlight {
  insertsOnly: Promise<boolean>;
  committed: Promise<void>;
}

export async function rebuildProjection(
  pool: pg.Pool,
  store: EventStore,
  projection: Projection,
  onProgress: (p: RebuildProgress) => void = () => {},
  options: RebuildOptions = {},
): Promise<ReadModelChecksum[]> {
  // One rebuild of a projection at a time, across processes (the CLI beside a service's background upgrade):
  // a second one would drop the first's shadow tables, or reset its progress, under it.
  const lock = await pool.connect();
  try {
    const { rows } = await lock.query(`SELECT pg_try_advisory_lock(hashtext($1)) AS locked`, [`rebuild:${projection.name}`]);
    if (!rows[0].locked) throw new Error(`${projection.name} is being rebuilt by another process; run this again once it is done (it resumes where that one is, if it stopped)`);
  } catch (error) {
    lock.release(error as Error);
    throw error;
  }
  try {
    return await rebuildHeld(pool, store, projection, onProgress, options);
  } finally {
    await lock.query(`SELECT pg_advisory_unlock(hashtext($1))`, [`rebuild:${projection.name}`]).then(() => lock.release(), (error: Error) => lock.release(error));
  }
}

async function rebuildHeld(pool: pg.Pool, store: EventStore, projection: Projection, onProgress: (p: RebuildProgress) => void, options: RebuildOptions): Promise<ReadModelChecksum[]> {
  const { signal, batchSize = REBUILD_LIMITS.batchSize } = options;
  if (!(batchSize >= 1 && batchSize <= REBUILD_LIMITS.batchSize)) throw new RangeError(`batch size 1..${REBUILD_LIMITS.batchSize}`);
  let total = await estimateEvents(pool, projection.eventTypes).catch(() => 0);
  const version = projectionVersion(projection);
  // Shadow tables of another version (the code changed since the rebuild was interrupted) are not resumed: started again.
  const resumed = await pool.query(`SELECT commit_pos::text AS commit, prepare_pos AS prepare, events_done FROM projection_rebuilds WHERE name = $1 AND version IS NOT DISTINCT FROM $2`, [projection.name, version]);
  let position: GlobalPosition = START;
  let done = 0;
  if (resumed.rows.length > 0) {
    position = { commit: BigInt(resumed.rows[0].commit), prepare: BigInt(resumed.rows[0].prepare) };
    done = Number(resumed.rows[0].events_done);
  } else {
    for (const r of projection.resources) {
      await pool.query(`DROP TABLE IF EXISTS ${shadowTable(r)}`);
      await dropCounts(pool, shadowTable(r));
      await pool.query(tableDdl(r, shadowTable(r), false));
      // No autovacuum while it loads: it would go over pages as they fill (wasted work, a core's worth
      // at times) and make an index build wait for PostgreSQL to cancel it (deadlock_timeout). Back on at the swap.
      await pool.query(`ALTER TABLE ${shadowTable(r)} SET (autovacuum_enabled = false, toast.autovacuum_enabled = false)`);
    }
    await pool.query(
      `INSERT INTO projection_rebuilds (name, commit_pos, prepare_pos, events_done, version) VALUES ($1, '0', 0, 0, $2)
       ON CONFLICT (name) DO UPDATE SET commit_pos = '0', prepare_pos = 0, events_done = 0, version = excluded.version, started_at = now()`,
      [projection.name, version],
    );
  }
  // Replaced tables a rebuild that stopped right after its swap left behind (dropped here, not in the next swap).
  for (const r of projection.resources) await pool.query(`DROP TABLE IF EXISTS ${retired(r)}`);
  const indexes = await ShadowIndexes.of(pool, projection.resources);
  const progress = (stage: RebuildProgress['stage']) => onProgress({ projection: projection.name, stage, done, total: Math.max(total, done) });
  const interrupted = () => {
    if (signal?.aborted) throw new Error(`rebuild of ${projection.name} interrupted at ${done} events; run it again to resume`);
  };

  const beforeLookup = (client: pg.PoolClient) => (lookup: Lookup) => indexes.buildFor(client, lookup);
  /** Saves progress past `batch` in its transaction, only if the batch before it is the last one saved. */
  const saveProgress = async (client: pg.PoolClient, batch: Batch) => {
    const { rowCount } = await client.query(
      `UPDATE projection_rebuilds SET commit_pos = $2::text::xid8, prepare_pos = $3, events_done = $4 WHERE name = $1 AND events_done = $5`,
      [projection.name, batch.last.commit.toString(), batch.last.prepare.toString(), done + batch.size, done],
    );
    if (rowCount !== 1) throw new Error(`rebuild of ${projection.name}: progress moved under this batch (another rebuild running?)`);
  };
  const saved = (batch: Batch, stage: RebuildProgress['stage'] = 'events') => {
    position = batch.last;
    done += batch.size;
    progress(stage);
  };

  // Phase 1: catch up without blocking anyone, one committed batch at a time, in order. A few batches
  // are in flight (batchesInFlight): while one commits, the next ones' rows go in, since inserts depend
  // on no earlier row. A batch that updates or deletes, and every batch after it, waits for the commit
  // before it. What two batches would both lock (counts, the progress row) is written only after the
  // previous batch committed. Losing an unflushed commit in a crash only means redoing a batch
  // (progress is saved with it), so these commits do not wait for the disk.
  const write = (batch: Batch, previous: BatchInFlight): BatchInFlight => {
    let applied!: (insertsOnly: boolean) => void;
    const insertsOnly = new Promise<boolean>((resolve) => (applied = resolve));
    const committed = inTransaction(pool, async (client) => {
      // A lock held for this long by the other batch in flight means the two wait on each other: fail, do not hang.
      await client.query(`SET LOCAL synchronous_commit = off; SET LOCAL lock_timeout = '${REBUILD_LIMITS.lockTimeout}'`);
      const writes = await batch.prepared(client).catch((error: unknown) => {
        applied(false);
        throw error;
      });
      // Only batches still in flight matter: once the previous one committed, whatever came before is settled.
      const insertsOnly = writes.insertsOnly && (await Promise.race([previous.insertsOnly, previous.committed.then(() => true, () => false)]));
      applied(insertsOnly);
      if (!insertsOnly) await previous.committed;
      await writes.flushRows(client, beforeLookup(client));
      await previous.committed;
      await writes.flushCounts(client); // after the previous commit: both batches lock the same counts
      await saveProgress(client, batch);
    }).then(() => saved(batch));
    committed.catch(() => applied(false)); // (if it failed before applying) awaited by the next batch or after the loop
    return { insertsOnly, committed };
  };
  progress('events');
  const workerCount = options.workers ?? (total - done >= REBUILD_LIMITS.workersFromEvents ? Math.min(options.maxWorkers ?? Infinity, REBUILD_LIMITS.workers) : 0);
  const workers = workerCount > 0 ? await startWorkers(store, projection, workerCount, options.workerSliceEvents) : undefined;
  try {
    const read = batchReader(store, projection, batchSize, workers);
    // With workers, enough batches in flight to keep each of them busy while the oldest is written.
    const batchesInFlight = workers ? Math.max(REBUILD_LIMITS.batchesInFlight, workerCount + 2) : REBUILD_LIMITS.batchesInFlight;
    let last: BatchInFlight = { insertsOnly: Promise.resolve(true), committed: Promise.resolve() };
    const inFlight: BatchInFlight[] = [];
    // Up to the head as it is now: events keep coming while the service serves, and chasing them could go on
    // for as long as they come faster than batches are written. What comes after is the swap's tail.
    const head = await store.headPosition();
    let next = comparePositions(position, head) < 0 ? read(position) : Promise.resolve(undefined);
    for (;;) {
      if (signal?.aborted) await last.committed; // leave no batch half-way
      interrupted();
      const batch = await next;
      if (!batch) break;
      next = comparePositions(batch.last, head) < 0 ? read(batch.last) : Promise.resolve(undefined);
      next.catch(() => {}); // awaited on the next turn
      last = write(batch, last);
      inFlight.push(last);
      if (inFlight.length >= batchesInFlight) await inFlight.shift()!.committed;
    }
    await last.committed;
  } finally {
    await workers?.close();
  }
  interrupted();
  total = done;
  progress('indexes');
  // The sums phase 1 did not keep, from the loaded tables (before their indexes: cheaper loaded first); the tail keeps them.
  await fillSums(pool, projection.resources, shadowTable);
  await indexes.buildAll(pool, REBUILD_LIMITS.indexBuilders);
  // Statistics before the tables go live (autovacuum, off while they loaded, would take a while to get to them):
  // the API's queries are planned with them from the first one after the swap. A sample, not a scan.
  await Promise.all(projection.resources.map((r) => pool.query(`ANALYZE ${shadowTable(r)}`)));

  const readHere = batchReader(store, projection, batchSize, undefined, false);
  const step = async (client: pg.PoolClient): Promise<boolean> => {
    const batch = await readHere(position);
    if (!batch) return false;
    await (await batch.prepared(client)).flush(client, beforeLookup(client));
    await saveProgress(client, batch);
    saved(batch, 'swap');
    return true;
  };

  progress('swap');
  // Phase 2: hold the checkpoints (the live daemon waits), apply the tail, swap tables, move checkpoint.
  // Readers of a table queue behind the swap's request for its lock: an attempt that cannot have a lock
  // at once gives up and tries again (the tail it applied is rolled back with it); the last one waits.
  for (let attempt = 1; ; attempt++) {
    const before = { position, done };
    try {
      await swap(attempt < REBUILD_LIMITS.swapAttempts);
      break;
    } catch (error) {
      ({ position, done } = before);
      if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE || attempt >= REBUILD_LIMITS.swapAttempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * REBUILD_LIMITS.swapBackoffMs * attempt)); // (jittered)
    }
  }
  // The swap is done: a drop failing here leaves the table to the next rebuild's start, not a failed rebuild.
  // The drops (mostly removing files) go on while the checksums (mostly reading) are taken.
  progress('checksums');
  const dropped = Promise.all(projection.resources.map((r) => pool.query(`DROP TABLE IF EXISTS ${retired(r)}`).catch(() => {})));
  const sums = await Promise.all(projection.resources.map((r) => checksum(pool, r.table)));
  await dropped;
  return sums;

  async function swap(briefLockWaits: boolean): Promise<void> {
    const liveTables = projection.resources.map((r) => r.table);
    await stopAutovacuumOf(pool, liveTables);
    await inTransaction(pool, async (client) => {
      const live = (await readCheckpoints(client, [projection.name], true)).get(projection.name) ?? START;
      // The tail up to the head as it is once the checkpoint is held, not for as long as events come (the
      // checkpoint row stays locked meanwhile): the daemon applies what comes after from the checkpoint moved here.
      const head = await store.headPosition();
      while (comparePositions(position, head) < 0 && (await step(client)));
      // The live tables' locks, all at once: only a wait for these holds readers up (they queue behind it).
      const { rows: existing } = await client.query(`SELECT t FROM unnest($1::text[]) t WHERE to_regclass(t) IS NOT NULL`, [liveTables]);
      if (existing.length > 0) {
        if (briefLockWaits) await client.query(`SET LOCAL lock_timeout = '${REBUILD_LIMITS.swapLockWait}'`);
        await client.query(`LOCK TABLE ${existing.map((row) => row.t).join(', ')} IN ACCESS EXCLUSIVE MODE`);
        await client.query(`SET LOCAL lock_timeout = DEFAULT`);
      }
      for (const r of projection.resources) {
        // The live table is renamed away, not dropped: dropping a big table here would keep readers waiting on
        // its lock while its files go. Its indexes follow it, so that the shadow's can take their names.
        await client.query(`DROP TABLE IF EXISTS ${retired(r)}`); // (dropped at start; only another rebuild's could be here)
        await client.query(`ALTER TABLE IF EXISTS ${r.table} RENAME TO ${retired(r)}`);
        await renameIndexes(client, indexNames(r), indexNames(r, retired(r)));
        await client.query(`ALTER TABLE ${shadowTable(r)} RENAME TO ${r.table}`);
        await client.query(`ALTER TABLE ${r.table} RESET (autovacuum_enabled, toast.autovacuum_enabled)`);
        await swapCounts(client, shadowTable(r), r.table);
        // Indexes keep their shadow names unless renamed, and the next rebuild's shadow would clash with them.
        await renameIndexes(client, indexNames(r, shadowTable(r)), indexNames(r));
      }
      // Never move a checkpoint backwards: the live one may have passed events this projection ignores.
      await writeCheckpoint(client, [projection.name], comparePositions(live, position) > 0 ? live : position);
      // The tables now live are the code's: the live daemon may apply this projection again (upgrade.ts).
      await client.query(`UPDATE projection_checkpoints SET version = $2 WHERE name = $1`, [projection.name, version]);
      await client.query(`DELETE FROM projection_rebuilds WHERE name = $1`, [projection.name]);
      await clearParked(client, projection.name); // (every event was applied again: none is held any more)
    });
  }
}

const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Cancels autovacuum on the live tables a swap replaces: their vacuum is wasted (they are dropped next),
 * and the swap's lock would otherwise wait until PostgreSQL cancels it itself, after deadlock_timeout
 * (1 s by default), with every reader of the table queued behind. A role without the right to signal
 * autovacuum workers (a superuser; from PostgreSQL 18, pg_signal_autovacuum_worker too) is left with the
 * swap's brief attempts, which give way to it.
 */
async function stopAutovacuumOf(pool: pg.Pool, tables: string[]): Promise<void> {
  await pool.query(
    `SELECT pg_cancel_backend(a.pid) FROM pg_stat_activity a
     JOIN (SELECT pid, relid FROM pg_stat_progress_vacuum UNION ALL SELECT pid, relid FROM pg_stat_progress_analyze) p USING (pid)
     WHERE a.backend_type = 'autovacuum worker' AND p.relid IN (SELECT to_regclass(t) FROM unnest($1::text[]) t)`,
    [tables],
  ).catch(() => {});
}

async function renameIndexes(client: pg.PoolClient, from: string[], to: string[]): Promise<void> {
  for (const [i, name] of from.entries()) await client.query(`ALTER INDEX IF EXISTS ${name} RENAME TO ${to[i]}`);
}

export interface ProjectionStatus {
  name: string;
  checkpoint: string;
  eventsBehind: number;
  lagSeconds: number; // age of the oldest event not yet applied (0 when none)
  updatedAt: string;
  /** A rebuild under way or interrupted (it resumes when run again): events applied to the shadow tables so far. */
  rebuild: { eventsDone: number; at: string } | null;
  /** The version of its live tables (versions.ts; null: stored before versions were), and the code's. */
  version: { stored: string | null; code: string };
}

export async function projectionStatus(pool: pg.Pool, projections: Projection[]): Promise<ProjectionStatus[]> {
  const out: ProjectionStatus[] = [];
  const rebuilds = new Map((await pool.query(`SELECT name, events_done, commit_pos::text || '/' || prepare_pos AS at FROM projection_rebuilds`)).rows.map((b) => [b.name as string, { eventsDone: Number(b.events_done), at: b.at as string }]));
  for (const p of projections) {
    const { rows } = await pool.query(
      `SELECT c.commit_pos::text AS commit, c.prepare_pos AS prepare, c.updated_at, c.version,
         b.behind, coalesce(extract(epoch FROM now() - b.oldest), 0) AS lag
       FROM projection_checkpoints c,
         LATERAL (SELECT count(*) AS behind, min(e.recorded_at) AS oldest FROM es_events e
                  WHERE e.event_type = ANY($2) AND (e.transaction_id, e.global_position) > (c.commit_pos, c.prepare_pos)) b
       WHERE c.name = $1`,
      [p.name, p.eventTypes],
    );
    const r = rows[0];
    out.push({
      name: p.name, checkpoint: r ? `${r.commit}/${r.prepare}` : 'none', eventsBehind: r ? Number(r.behind) : -1, lagSeconds: r ? Number(r.lag) : -1,
      updatedAt: r ? new Date(r.updated_at).toISOString() : '', rebuild: rebuilds.get(p.name) ?? null,
      version: { stored: r?.version ?? null, code: projectionVersion(p) },
    });
  }
  return out;
}
