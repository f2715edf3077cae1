/**
 * Rebuilds a projection into shadow tables while the live ones keep serving, then swaps them in one
 * transaction that also holds the checkpoints (so the live daemon pauses only for the swap). Progress
 * is saved after every batch: an interrupted rebuild resumes where it stopped.
 */
import type pg from 'pg';
import { START, comparePositions, type EventStore, type GlobalPosition, type RecordedEvent } from '../eventstore/port.ts';
import { readCheckpoints, writeCheckpoint } from './daemon.ts';
import type { Projection } from './projection.ts';
import { indexNames, tableDdl, type Resource } from './resource.ts';
import { Writes } from './writes.ts';
import { inTransaction } from '../platform/database.ts';

export const REBUILD_LIMITS = Object.freeze({ batchSize: 5000 });

const shadow = (r: Resource) => `${r.table}__rebuild`;

export interface RebuildProgress {
  projection: string;
  done: number;
  total: number;
}

export interface ReadModelChecksum {
  table: string;
  rows: number;
  checksum: string;
}

/** Order-independent of physical layout: rows are hashed in id order. */
export async function checksum(db: pg.Pool | pg.PoolClient, table: string): Promise<ReadModelChecksum> {
  const { rows } = await db.query(`SELECT count(*)::int AS n, coalesce(md5(string_agg(md5(t::text), '' ORDER BY t.id)), md5('')) AS sum FROM ${table} t`);
  return { table, rows: rows[0].n, checksum: rows[0].sum };
}

async function countEvents(pool: pg.Pool, eventTypes: readonly string[]): Promise<number> {
  const { rows } = await pool.query(`SELECT count(*)::bigint AS n FROM es_events WHERE event_type = ANY($1)`, [eventTypes]);
  return Number(rows[0].n);
}

async function applyInto(client: pg.PoolClient, projection: Projection, events: Awaited<ReturnType<EventStore['readAll']>>): Promise<void> {
  const writes = new Writes();
  await projection.prepare?.(events, client);
  if (projection.applyBatch) projection.applyBatch(events, writes, shadow);
  else for (const e of events) projection.apply(e, writes, shadow);
  await writes.flush(client);
}

export async function rebuildProjection(
  pool: pg.Pool,
  store: EventStore,
  projection: Projection,
  onProgress: (p: RebuildProgress) => void = () => {},
  signal?: AbortSignal,
): Promise<ReadModelChecksum[]> {
  const filter = { eventTypes: projection.eventTypes };
  const total = await countEvents(pool, projection.eventTypes).catch(() => 0);
  const resumed = await pool.query(`SELECT commit_pos::text AS commit, prepare_pos AS prepare, events_done FROM projection_rebuilds WHERE name = $1`, [projection.name]);
  let position: GlobalPosition = START;
  let done = 0;
  if (resumed.rows.length > 0) {
    position = { commit: BigInt(resumed.rows[0].commit), prepare: BigInt(resumed.rows[0].prepare) };
    done = Number(resumed.rows[0].events_done);
  } else {
    for (const r of projection.resources) {
      await pool.query(`DROP TABLE IF EXISTS ${shadow(r)}`);
      await pool.query(tableDdl(r, shadow(r)));
    }
    await pool.query(`INSERT INTO projection_rebuilds (name, commit_pos, prepare_pos, events_done) VALUES ($1, '0', 0, 0)`, [projection.name]);
  }

  const read = (from: GlobalPosition) => store.readAll(from, { maxCount: REBUILD_LIMITS.batchSize, filter });
  const apply = async (client: pg.PoolClient, batch: RecordedEvent[]) => {
    await applyInto(client, projection, batch);
    position = batch[batch.length - 1].position;
    done += batch.length;
    await client.query(`UPDATE projection_rebuilds SET commit_pos = $2::text::xid8, prepare_pos = $3, events_done = $4 WHERE name = $1`, [projection.name, position.commit.toString(), position.prepare.toString(), done]);
    onProgress({ projection: projection.name, done, total: Math.max(total, done) });
  };

  // Phase 1: catch up without blocking anyone, one committed batch at a time. The next batch is read
  // while this one is written. Losing an unflushed commit in a crash only means redoing a batch
  // (progress is saved with it), so these commits do not wait for the disk.
  let next = read(position);
  for (;;) {
    if (signal?.aborted) throw new Error(`rebuild of ${projection.name} interrupted at ${done} events; run it again to resume`);
    const batch = await next;
    if (batch.length === 0) break;
    next = read(batch[batch.length - 1].position);
    next.catch(() => {}); // awaited on the next turn
    await inTransaction(pool, async (client) => {
      await client.query(`SET LOCAL synchronous_commit = off`);
      await apply(client, batch);
    });
  }

  const step = async (client: pg.PoolClient): Promise<boolean> => {
    const batch = await read(position);
    if (batch.length === 0) return false;
    await apply(client, batch);
    return true;
  };

  // Phase 2: hold the checkpoints (the live daemon waits), apply the tail, swap tables, move checkpoint.
  await inTransaction(pool, async (client) => {
    const live = (await readCheckpoints(client, [projection.name], true)).get(projection.name) ?? START;
    while (await step(client));
    for (const r of projection.resources) {
      await client.query(`DROP TABLE IF EXISTS ${r.table}`);
      await client.query(`ALTER TABLE ${shadow(r)} RENAME TO ${r.table}`);
      // Indexes keep their shadow names unless renamed, and the next rebuild's shadow would clash with them.
      const [from, to] = [indexNames(r, shadow(r)), indexNames(r)];
      for (const [i, name] of from.entries()) await client.query(`ALTER INDEX ${name} RENAME TO ${to[i]}`);
    }
    // Never move a checkpoint backwards: the live one may have passed events this projection ignores.
    await writeCheckpoint(client, projection.name, comparePositions(live, position) > 0 ? live : position);
    await client.query(`DELETE FROM projection_rebuilds WHERE name = $1`, [projection.name]);
  });
  return Promise.all(projection.resources.map((r) => checksum(pool, r.table)));
}

export interface ProjectionStatus {
  name: string;
  checkpoint: string;
  eventsBehind: number;
  lagSeconds: number; // age of the oldest event not yet applied (0 when none)
  updatedAt: string;
}

export async function projectionStatus(pool: pg.Pool, projections: Projection[]): Promise<ProjectionStatus[]> {
  const out: ProjectionStatus[] = [];
  for (const p of projections) {
    const { rows } = await pool.query(
      `SELECT c.commit_pos::text AS commit, c.prepare_pos AS prepare, c.updated_at,
         b.behind, coalesce(extract(epoch FROM now() - b.oldest), 0) AS lag
       FROM projection_checkpoints c,
         LATERAL (SELECT count(*) AS behind, min(e.recorded_at) AS oldest FROM es_events e
                  WHERE e.event_type = ANY($2) AND (e.transaction_id, e.global_position) > (c.commit_pos, c.prepare_pos)) b
       WHERE c.name = $1`,
      [p.name, p.eventTypes],
    );
    const r = rows[0];
    out.push({ name: p.name, checkpoint: r ? `${r.commit}/${r.prepare}` : 'none', eventsBehind: r ? Number(r.behind) : -1, lagSeconds: r ? Number(r.lag) : -1, updatedAt: r ? new Date(r.updated_at).toISOString() : '' });
  }
  return out;
}
