/**
 * The data subjects' keys (crypto-shredding), kept in PostgreSQL beside the read models and never in
 * the event store, whichever store holds the events. A destroyed key leaves a tombstone row (key
 * NULL, destroyed_at set) so no new key is ever made for an erased subject. The API's reader role has
 * no grant on this table.
 */
import type pg from 'pg';
import { newSubjectKey } from './sealed.ts';

export const SUBJECT_KEYS_DDL = `
CREATE TABLE IF NOT EXISTS subject_keys (
  subject_id      uuid PRIMARY KEY,
  organisation_id uuid NOT NULL,
  key             bytea,
  created_at      timestamptz NOT NULL DEFAULT now(),
  destroyed_at    timestamptz,
  CHECK ((key IS NULL) = (destroyed_at IS NOT NULL))
);
REVOKE ALL ON subject_keys FROM PUBLIC;`;

export const SUBJECT_KEY_LIMITS = Object.freeze({ maxPerLoad: 10_000 });

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

export class SubjectKeys {
  constructor(private readonly pool: pg.Pool) {}

  async migrate(): Promise<void> {
    await this.pool.query(SUBJECT_KEYS_DDL);
  }

  /** The subject's key, made on first use; null once destroyed (the subject was erased). */
  async ensure(organisationId: string, subjectId: string): Promise<Buffer | null> {
    await this.pool.query(
      `INSERT INTO subject_keys (subject_id, organisation_id, key) VALUES ($1, $2, $3) ON CONFLICT (subject_id) DO NOTHING`,
      [subjectId, organisationId, newSubjectKey()],
    );
    const { rows } = await this.pool.query(`SELECT organisation_id, key FROM subject_keys WHERE subject_id = $1`, [subjectId]);
    if (rows[0].organisation_id !== organisationId) throw new Error(`invariant violated: subject ${subjectId} belongs to another organisation`);
    return rows[0].key as Buffer | null;
  }

  /**
   * Destroys the key: every personal field sealed with it becomes unreadable for good. Idempotent.
   * A vacuum follows so the old row version holding the key does not linger in the table's pages.
   */
  async destroy(organisationId: string, subjectId: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO subject_keys (subject_id, organisation_id, key, destroyed_at) VALUES ($1, $2, NULL, now())
       ON CONFLICT (subject_id) DO UPDATE SET key = NULL, destroyed_at = coalesce(subject_keys.destroyed_at, now())`,
      [subjectId, organisationId],
    );
    await this.pool.query('VACUUM subject_keys').catch(() => {}); // best effort: needs ownership of the table
  }
}

/** Live keys of the given subjects (projections decrypt with them inside their own transaction). */
export async function loadSubjectKeys(db: Queryable, subjectIds: string[]): Promise<Map<string, Buffer>> {
  const keys = new Map<string, Buffer>();
  const unique = [...new Set(subjectIds)];
  for (let i = 0; i < unique.length; i += SUBJECT_KEY_LIMITS.maxPerLoad) {
    const { rows } = await db.query(`SELECT subject_id, key FROM subject_keys WHERE subject_id = ANY($1::uuid[]) AND key IS NOT NULL`, [unique.slice(i, i + SUBJECT_KEY_LIMITS.maxPerLoad)]);
    for (const row of rows) keys.set(row.subject_id, row.key);
  }
  return keys;
}
