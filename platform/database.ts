/** Opens the PostgreSQL pool: DATABASE_URL when given, otherwise the embedded cluster. */
import pg from 'pg';
import type { Config } from './config.ts';
import { startEmbeddedPostgres } from './embedded-postgres.ts';
import { isTransient } from './transient.ts';

// NUMERIC stays a string all the way to decimal.js: a JS float would lose cents.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v);
// BIGINT (global positions, revisions) as bigint-safe strings; callers convert with BigInt().
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);

export interface Database {
  url: string;
  pool: pg.Pool;
  close(): Promise<void>;
}

export const POOL_LIMITS = Object.freeze({ max: 20, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 10_000 });

export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  let url = config.databaseUrl;
  let stopCluster: (() => Promise<void>) | undefined;
  if (!url) {
    const cluster = await startEmbeddedPostgres(config.dataDir);
    url = cluster.url;
    stopCluster = cluster.stop;
  }
  const pool = new pg.Pool({ connectionString: url, ...POOL_LIMITS });
  pool.on('error', () => {}); // an idle client's error is reported by its next query
  return {
    url,
    pool,
    async close() {
      await pool.end();
      if (stopCluster) await stopCluster();
    },
  };
}

/** Runs `fn` in one transaction on a pooled client: COMMIT on success, ROLLBACK on any error. */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A connection lost while checked out emits 'error' on its client (the pool listens only while it is idle):
  // unheard, it would end the process. Heard, the client is dropped rather than pooled again.
  let lost: Error | undefined;
  const onError = (error: Error) => (lost = error);
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (isTransient(error)) lost ??= error as Error;
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.off('error', onError);
    client.release(lost);
  }
}

/** Runs a migration holding a cluster-wide advisory lock, so concurrent starters (server, CLI) take turns. */
export async function withMigrationLock(pool: pg.Pool, name: string, fn: (client: pg.PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(hashtext($1))`, [name]);
    await fn(client);
  } finally {
    await client.query(`SELECT pg_advisory_unlock(hashtext($1))`, [name]).catch(() => {});
    client.release();
  }
}
