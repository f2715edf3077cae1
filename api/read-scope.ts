/**
 * Runs API reads as the reader role, confined by row-level security to one organisation. The
 * organisation id is validated as a UUID before it is placed in the statement.
 */
import type pg from 'pg';
import { inTransaction } from '../platform/database.ts';
import { isUuid } from '../domain/ids.ts';
import { READER_ROLE } from '../projections/engine/resource.ts';

export function readScoped<T>(pool: pg.Pool, organisationId: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  if (!isUuid(organisationId)) throw new Error(`not an organisation id: ${organisationId}`);
  return inTransaction(pool, async (client) => {
    // One round trip: role and organisation for this transaction only (SET LOCAL / is_local).
    await client.query(`SET LOCAL ROLE ${READER_ROLE}; SELECT set_config('ledger.organisation_id', '${organisationId}', true)`);
    return fn(client);
  });
}
