import type pg from 'pg';
import { EVENT_QUEUE_DDL, EVENT_QUEUE_UNIQUE_DDL } from './schema.ts';

/** Needs the identity tables (triggers reference OAuth clients). */
export async function migrateEventQueue(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(hashtext('event_queue_migrate'))`);
    await client.query(EVENT_QUEUE_DDL);
    await client.query(EVENT_QUEUE_UNIQUE_DDL);
    await client.query(`INSERT INTO projection_checkpoints (name) VALUES ('fanout') ON CONFLICT DO NOTHING`);
  } finally {
    await client.query(`SELECT pg_advisory_unlock(hashtext('event_queue_migrate'))`).catch(() => {});
    client.release();
  }
}
