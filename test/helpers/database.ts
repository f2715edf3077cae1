/** A fresh, empty database per test file on the suite's PostgreSQL server; dropped afterwards. */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import '../../platform/database.ts'; // installs the NUMERIC/INT8 type parsers

export interface TestDatabase {
  url: string;
  pool: pg.Pool;
}

export async function freshDatabase(t: { teardown(fn: () => unknown): void }): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('run the suite with `npm test` (it provides TEST_DATABASE_URL)');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client(adminUrl);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const pool = new pg.Pool({ connectionString: url, max: 40 });
  // DROP DATABASE ... WITH (FORCE) at teardown ends connections pg-pool is still closing.
  pool.on('error', () => {});
  t.teardown(async () => {
    await pool.end();
    const a = new pg.Client(adminUrl);
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await a.end();
  });
  return { url, pool };
}
