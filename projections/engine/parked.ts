/**
 * Parked organisations: where a projection met an event it could not apply (not a lost connection: an
 * error that would recur on every attempt), it parks that event's organisation instead of stopping for
 * every organisation. One row per (projection, organisation) records the first event that failed, its
 * position and the error.
 *
 * Checkpoint semantics: the projection's checkpoint moves on past parked events. For a parked row, the
 * organisation's events from its position up to the checkpoint are not applied: they are held, in
 * order, behind the failed one (`held_events` counts them), so that organisation's read models stay
 * as they were before that event rather than silently diverge (rows missing in the middle of its
 * history). Other organisations go on. `retryParked` applies the held events, in order, in one
 * transaction that holds the checkpoint's row (the daemon waits meanwhile) and deletes the row: after a
 * fix, the organisation catches up exactly once. A rebuild applies every event, so it clears the rows.
 */
import type pg from 'pg';
import { START, comparePositions, type EventStore, type GlobalPosition, type RecordedEvent } from '../../eventstore/port.ts';
import { inTransaction } from '../../platform/database.ts';
import { project, type Projection } from './projection.ts';
import { Writes } from './writes.ts';

export const PARKED_DDL = `
CREATE TABLE IF NOT EXISTS projection_parked (
  projection      text NOT NULL,
  organisation_id text NOT NULL,
  event_id        uuid NOT NULL,
  event_type      text NOT NULL,
  commit_pos      xid8 NOT NULL,
  prepare_pos     bigint NOT NULL,
  error           text NOT NULL,
  held_events     bigint NOT NULL DEFAULT 0,
  attempts        integer NOT NULL DEFAULT 1,
  parked_at       timestamptz NOT NULL DEFAULT now(),
  retried_at      timestamptz,
  PRIMARY KEY (projection, organisation_id)
);`;

export const PARKED_LIMITS = Object.freeze({ errorChars: 2000, retryReadCount: 1000 });

/** The organisation an event belongs to ('' for an event of none). */
export const organisationOf = (e: RecordedEvent): string => (typeof e.metadata.organisationId === 'string' ? e.metadata.organisationId : '');

export interface Parked {
  projection: string;
  organisationId: string;
  eventId: string;
  eventType: string;
  position: string;
  error: string;
  heldEvents: number;
  attempts: number;
  parkedAt: string;
  retriedAt: string | null;
}

/** The parked organisations of these projections, by projection. */
export async function parkedOrganisations(db: pg.Pool | pg.PoolClient, projections: string[]): Promise<Map<string, Set<string>>> {
  const { rows } = await db.query(`SELECT projection, organisation_id FROM projection_parked WHERE projection = ANY($1)`, [projections]);
  const byProjection = new Map<string, Set<string>>();
  for (const r of rows) {
    let set = byProjection.get(r.projection);
    if (!set) byProjection.set(r.projection, (set = new Set()));
    set.add(r.organisation_id);
  }
  return byProjection;
}

export async function park(client: pg.PoolClient, projection: string, event: RecordedEvent, error: unknown): Promise<void> {
  await client.query(
    `INSERT INTO projection_parked (projection, organisation_id, event_id, event_type, commit_pos, prepare_pos, error)
     VALUES ($1, $2, $3, $4, $5::text::xid8, $6, $7) ON CONFLICT (projection, organisation_id) DO NOTHING`,
    [projection, organisationOf(event), event.id, event.type, event.position.commit.toString(), event.position.prepare.toString(), describeError(error)],
  );
}

/** Counts events held behind parked rows (what an operator weighs before a retry). */
export async function countHeld(client: pg.PoolClient, projection: string, held: Map<string, number>): Promise<void> {
  if (held.size === 0) return;
  await client.query(
    `UPDATE projection_parked p SET held_events = p.held_events + h.n
     FROM unnest($2::text[], $3::bigint[]) AS h(org, n) WHERE p.projection = $1 AND p.organisation_id = h.org`,
    [projection, [...held.keys()], [...held.values()]],
  );
}

export async function listParked(db: pg.Pool | pg.PoolClient, projections?: string[]): Promise<Parked[]> {
  const { rows } = await db.query(
    `SELECT projection, organisation_id, event_id, event_type, commit_pos::text || '/' || prepare_pos AS position, error, held_events, attempts, parked_at, retried_at
     FROM projection_parked WHERE $1::text[] IS NULL OR projection = ANY($1) ORDER BY parked_at, projection, organisation_id`,
    [projections ?? null],
  );
  return rows.map((r) => ({
    projection: r.projection, organisationId: r.organisation_id, eventId: r.event_id, eventType: r.event_type, position: r.position, error: r.error,
    heldEvents: Number(r.held_events), attempts: r.attempts, parkedAt: new Date(r.parked_at).toISOString(), retriedAt: r.retried_at ? new Date(r.retried_at).toISOString() : null,
  }));
}

/** A rebuild applied every event again: nothing of this projection is held any more. */
export async function clearParked(client: pg.PoolClient, projection: string): Promise<void> {
  await client.query(`DELETE FROM projection_parked WHERE projection = $1`, [projection]);
}

/**
 * An error of the schema, the SQL or the database's state rather than of an event's data (a column or
 * table missing, a permission, a statement timeout, a lock not granted, an internal error): it would fail
 * every organisation's events alike, so it parks none (the daemon retries until it is fixed). Data errors
 * (SQLSTATE classes 21, 22, 23) and errors thrown by a projection's code are the event's.
 */
export const isProjectionFault = (error: unknown): boolean => /^(0A|25|3D|3F|42|55|57|XX)/.test(String((error as { code?: unknown })?.code ?? ''));

export function describeError(error: unknown): string {
  const e = error as { message?: string; code?: string };
  return `${e?.code ? `${e.code} ` : ''}${e?.message ?? String(error)}`.slice(0, PARKED_LIMITS.errorChars);
}

export interface RetryResult {
  projection: string;
  organisationId: string;
  /** The held events applied, when the retry succeeded. */
  applied?: number;
  /** Why it failed again (the row stays, with this error). */
  error?: string;
}

/**
 * Applies the held events of parked rows (all, or those of a projection / an organisation) in order,
 * each row in one transaction with the checkpoint's row locked: applied and unparked together, or
 * neither (the row then records the new error).
 */
export async function retryParked(
  pool: pg.Pool,
  store: EventStore,
  projections: Projection[],
  which: { projection?: string; organisationId?: string } = {},
): Promise<RetryResult[]> {
  const rows = (await listParked(pool, projections.map((p) => p.name))).filter(
    (r) => (!which.projection || r.projection === which.projection) && (which.organisationId === undefined || r.organisationId === which.organisationId),
  );
  const results: RetryResult[] = [];
  for (const row of rows) {
    const projection = projections.find((p) => p.name === row.projection)!;
    try {
      const applied = await inTransaction(pool, (client) => applyHeld(client, store, projection, row.organisationId));
      results.push({ projection: row.projection, organisationId: row.organisationId, applied });
    } catch (error) {
      await pool.query(`UPDATE projection_parked SET error = $3, attempts = attempts + 1, retried_at = now() WHERE projection = $1 AND organisation_id = $2`, [
        row.projection, row.organisationId, describeError(error),
      ]);
      results.push({ projection: row.projection, organisationId: row.organisationId, error: describeError(error) });
    }
  }
  return results;
}

async function applyHeld(client: pg.PoolClient, store: EventStore, projection: Projection, organisationId: string): Promise<number> {
  // The checkpoint's row first, as the daemon's batches take it: they wait until this is done.
  const { rows: checkpoints } = await client.query(`SELECT commit_pos::text AS commit, prepare_pos AS prepare FROM projection_checkpoints WHERE name = $1 FOR UPDATE`, [projection.name]);
  const { rows } = await client.query(
    `SELECT commit_pos::text AS commit, prepare_pos AS prepare FROM projection_parked WHERE projection = $1 AND organisation_id = $2 FOR UPDATE`,
    [projection.name, organisationId],
  );
  if (rows.length === 0 || checkpoints.length === 0) return 0; // retried meanwhile
  const until: GlobalPosition = { commit: BigInt(checkpoints[0].commit), prepare: BigInt(checkpoints[0].prepare) };
  // Just before the parked event: readAll's `from` is exclusive.
  const parkedAt: GlobalPosition = { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) };
  let from: GlobalPosition = parkedAt.prepare > 0n ? { ...parkedAt, prepare: parkedAt.prepare - 1n } : parkedAt.commit > 0n ? { commit: parkedAt.commit - 1n, prepare: 2n ** 63n - 1n } : START;
  let applied = 0;
  for (;;) {
    const page = await store.readAll(from, { maxCount: PARKED_LIMITS.retryReadCount, filter: { eventTypes: projection.eventTypes } });
    const within = page.filter((e) => comparePositions(e.position, until) <= 0);
    const held = within.filter((e) => organisationOf(e) === organisationId);
    if (held.length > 0) {
      const writes = new Writes();
      await project(projection, held, writes, (r) => r.table, client);
      await writes.flush(client);
      applied += held.length;
    }
    if (within.length < page.length || page.length < PARKED_LIMITS.retryReadCount) break;
    from = page[page.length - 1].position;
  }
  await client.query(`DELETE FROM projection_parked WHERE projection = $1 AND organisation_id = $2`, [projection.name, organisationId]);
  return applied;
}
