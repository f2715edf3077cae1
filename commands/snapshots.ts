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
  /** The state's layout version (the aggregate's snapshot.version when it was taken). */
  version: number;
  body: unknown;
}

export interface SnapshotStore {
  load(streamId: string): Promise<StoredSnapshot | undefined>;
  /** `body` as JSON text; kept unless the stored snapshot is of a later revision. */
  save(streamId: string, revision: bigint, version: number, body: string): Promise<void>;
}

const DDL = `
CREATE TABLE IF NOT EXISTS aggregate_snapshots (
  stream_id  text PRIMARY KEY,
  revision   bigint NOT NULL,
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

  async load(streamId: string): Promise<StoredSnapshot | undefined> {
    const { rows } = await this.pool.query(`SELECT revision::text AS revision, version, body FROM aggregate_snapshots WHERE stream_id = $1`, [streamId]);
    return rows[0] ? { revision: BigInt(rows[0].revision), version: rows[0].version, body: rows[0].body } : undefined;
  }

  async save(streamId: string, revision: bigint, version: number, body: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO aggregate_snapshots (stream_id, revision, version, body) VALUES ($1, $2, $3, $4::json)
       ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision, version = excluded.version, body = excluded.body, taken_at = now()
       WHERE aggregate_snapshots.revision < excluded.revision OR aggregate_snapshots.version <> excluded.version`,
      [streamId, revision.toString(), version, body],
    );
  }
}
