/**
 * Runs API reads as the reader role, confined by row-level security to one organisation. The
 * organisation id is validated as a UUID before it is placed in the statement.
 */
import type pg from 'pg';
import { inTransaction } from '../platform/database.ts';
import { isUuid } from '../domain/ids.ts';
import { READER_ROLE } from '../projections/engine/resource.ts';

export interface ReadOptions {
  /**
   * Every statement reads one snapshot (REPEATABLE READ READ ONLY), taken at the first: for a read of several
   * statements whose answers must agree (a report deciding from one what it sums in another). Otherwise each
   * statement sees what is committed when it starts (READ COMMITTED).
   */
  snapshot?: boolean;
}

export function readScoped<T>(pool: pg.Pool, organisationId: string, fn: (client: pg.PoolClient) => Promise<T>, options: ReadOptions = {}): Promise<T> {
  if (!isUuid(organisationId)) throw new Error(`not an organisation id: ${organisationId}`);
  return inTransaction(pool, async (client) => {
    // One round trip: the isolation (before any query), role and organisation for this transaction only (SET LOCAL / is_local).
    const isolation = options.snapshot ? 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY; ' : '';
    await client.query(`${isolation}SET LOCAL ROLE ${READER_ROLE}; SELECT set_config('ledger.organisation_id', '${organisationId}', true)`);
    return fn(client);
  });
}
