/**
 * Aggregate snapshots: a stream's folded state at some revision, kept in PostgreSQL beside the read
 * models (whichever store holds the events). Only an optimisation: a snapshot is derived from events
 * that never change, so losing one costs a longer load, and any process may write the snapshot of
 * any revision (the newest kept wins).
 */
import type pg from 'pg';
import { withMigrationLock } from '../platform/database.ts';

export interface StoredSnapshot {
  revision: bigint;
  /** Id of the stream's event at `revision`: a load checks the store still holds it there. */
  eventId: string;
  /** The state's layout version (the aggregate's snapshot.version when it was taken). */
  version: number;
  body: unknown;
}

export interface SnapshotStore {
  /** The stream's snapshot if it has one of this layout version. */
  load(streamId: string, version: number): Promise<StoredSnapshot | undefined>;
  /** `body` as JSON text. Kept unless the stored snapshot is of a later layout, or of the same layout and a later revision. */
  save(streamId: string, snapshot: StoredSnapshot & { body: string }): Promise<void>;
  /** Removes this snapshot (not a newer one saved meanwhile): it does not fit the stream. */
  discard(streamId: string, snapshot: StoredSnapshot): Promise<void>;
}

const DDL = `
CREATE TABLE IF NOT EXISTS aggregate_snapshots (
  stream_id  text PRIMARY KEY,
  revision   bigint NOT NULL,
  event_id   uuid NOT NULL,
  version    integer NOT NULL,
  body       json NOT NULL,
  taken_at   timestamptz NOT NULL DEFAULT now()
);`;

export class PostgresSnapshotStore implements SnapshotStore {
  private constructor(private readonly pool: pg.Pool) {}

  static async open(pool: pg.Pool): Promise<PostgresSnapshotStore> {
    await withMigrationLock(pool, 'aggregate_snapshots', (client) => client.query(DDL).then(() => undefined));
    return new PostgresSnapshotStore(pool);
  }

  async load(streamId: string, version: number): Promise<StoredSnapshot | undefined> {
    const { rows } = await this.pool.query(`SELECT revision::text AS revision, event_id, version, body FROM aggregate_snapshots WHERE stream_id = $1 AND version = $2`, [streamId, version]);
    return rows[0] ? { revision: BigInt(rows[0].revision), eventId: rows[0].event_id, version: rows[0].version, body: rows[0].body } : undefined;
  }

  async save(streamId: string, snapshot: StoredSnapshot & { body: string }): Promise<void> {
    await this.pool.query(
      `INSERT INTO aggregate_snapshots AS s (stream_id, revision, event_id, version, body) VALUES ($1, $2, $3, $4, $5::json)
       ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision, event_id = excluded.event_id, version = excluded.version, body = excluded.body, taken_at = now()
       WHERE excluded.version > s.version OR (excluded.version = s.version AND excluded.revision > s.revision)`,
      [streamId, snapshot.revision.toString(), snapshot.eventId, snapshot.version, snapshot.body],
    );
  }

  async discard(streamId: string, snapshot: StoredSnapshot): Promise<void> {
    await this.pool.query(`DELETE FROM aggregate_snapshots WHERE stream_id = $1 AND revision = $2 AND event_id = $3 AND version = $4`, [
      streamId, snapshot.revision.toString(), snapshot.eventId, snapshot.version,
    ]);
  }
}
