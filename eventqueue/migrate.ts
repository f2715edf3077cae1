import type pg from 'pg';
import { withMigrationLock } from '../platform/database.ts';
import { PARKED_DDL } from '../projections/engine/parked.ts';
import { EVENT_QUEUE_DDL, EVENT_QUEUE_UNIQUE_DDL, TRIGGER_START_DDL } from './schema.ts';

/** Needs the identity tables (triggers reference OAuth clients). */
export async function migrateEventQueue(pool: pg.Pool): Promise<void> {
  await withMigrationLock(pool, 'event_queue_migrate', async (client) => {
    await client.query(EVENT_QUEUE_DDL);
    await client.query(EVENT_QUEUE_UNIQUE_DDL);
    await client.query(TRIGGER_START_DDL);
    await client.query(PARKED_DDL); // (the fan-out parks as the read models do)
    await client.query(`INSERT INTO projection_checkpoints (name) VALUES ('fanout') ON CONFLICT DO NOTHING`);
  });
}
