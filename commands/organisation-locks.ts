/**
 * Exclusion between service processes for the checks that span aggregates. A posting reads the
 * organisation (is the account there, active?) and appends to a ledger; a guarded deletion (account,
 * journal type, party) reads every ledger (is it used?) and appends elsewhere. No stream's expected
 * revision covers both, so two processes could each pass their check and both append. Within one
 * process the in-process stream locks order them; across processes these PostgreSQL advisory locks,
 * one per organisation, do: postings share it, guarded deletions take it alone.
 *
 * Taken before any in-process lock, always, so the two kinds of lock are never waited on in both orders.
 * Each holder keeps a connection of a small pool of its own for as long as it holds the lock.
 */
import pg from 'pg';

export const ORGANISATION_LOCK_LIMITS = Object.freeze({
  /** Connections for holding locks: postings beyond this many wait in the process (each ledger takes one at a time anyway). */
  connections: 4,
  /** Longest wait for the lock (a deletion holds it for one read of the ledgers and one append). */
  waitMs: 10_000,
});

export class OrganisationLockTimeout extends Error {}

export class OrganisationLocks {
  private readonly pool: pg.Pool;

  constructor(connectionString: string) {
    // Idle connections close soon and never keep a CLI process alive.
    this.pool = new pg.Pool({ connectionString, max: ORGANISATION_LOCK_LIMITS.connections, idleTimeoutMillis: 5_000, allowExitOnIdle: true });
    this.pool.on('error', () => {}); // a connection dropped while idle is replaced on the next connect
  }

  /** Runs `fn` while no guarded deletion of the organisation runs in any process. */
  shared<T>(organisationId: string, fn: () => Promise<T>): Promise<T> {
    return this.holding(organisationId, true, fn);
  }

  /** Runs `fn` while no posting or other guarded deletion of the organisation runs in any process. */
  exclusive<T>(organisationId: string, fn: () => Promise<T>): Promise<T> {
    return this.holding(organisationId, false, fn);
  }

  private async holding<T>(organisationId: string, shared: boolean, fn: () => Promise<T>): Promise<T> {
    const kind = shared ? '_shared' : '';
    const key = `ledger-organisation:${organisationId}`;
    const client = await this.pool.connect();
    let broken: Error | undefined; // the session's lock state is unknown: close it rather than reuse it
    try {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new OrganisationLockTimeout(`organisation ${organisationId} stayed locked for ${ORGANISATION_LOCK_LIMITS.waitMs} ms`)), ORGANISATION_LOCK_LIMITS.waitMs);
      });
      try {
        await Promise.race([client.query(`SELECT pg_advisory_lock${kind}(hashtextextended($1, 0))`, [key]), timedOut]);
      } catch (error) {
        broken = error as Error;
        throw error;
      } finally {
        clearTimeout(timer);
      }
      try {
        return await fn();
      } finally {
        await client.query(`SELECT pg_advisory_unlock${kind}(hashtextextended($1, 0))`, [key]).catch((error: Error) => (broken = error));
      }
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
