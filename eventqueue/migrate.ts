import type pg from 'pg';
import { withMigrationLock } from '../platform/database.ts';
import { EVENT_QUEUE_DDL, EVENT_QUEUE_UNIQUE_DDL } from './schema.ts';

/** Needs the identity tables (triggers reference OAuth clients). */
export async function migrateEventQueue(pool: pg.Pool): Promise<void> {
  await withMigrationLock(pool, 'event_queue_migrate', async (client) => {
    await client.query(EVENT_QUEUE_DDL);
    await client.query(EVENT_QUEUE_UNIQUE_DDL);
    await client.query(`INSERT INTO projection_checkpoints (name) VALUES ('fanout') ON CONFLICT DO NOTHING`);
  });
}
