/** The service's core (commands, store, no HTTP and no projection daemon) on a benchmark's own database. */
import pg from 'pg';
import { openCore } from '../service/core.ts';

import { loadConfig } from '../platform/config.ts';
import { POOL_LIMITS } from '../platform/database.ts';

export type BenchCore = Awaited<ReturnType<typeof openCore>>;

/** Runs `fn` with the core opened on `url`, and closes it afterwards. */
export async function withBenchCore<T>(url: string, fn: (core: BenchCore, pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: url, ...POOL_LIMITS });
  pool.on('error', () => {});
  const core = await openCore({ ...loadConfig({}), databaseUrl: url, logLevel: 'error' }, { url, pool, close: async () => {} });
  try {
    return await fn(core, pool);
  } finally {
    await core.store.close();
    await pool.end();
  }
}
