/**
 * Exclusion between service processes for the checks that span aggregates. A posting reads the
 * organisation (is the account there, active?) and appends to a ledger; a guarded deletion (account,
 * journal type, party) reads every ledger (is it used?) and appends elsewhere. No stream's expected
 * revision covers both, so two processes could each pass their check and both append. Within one
 * process the in-process stream locks order them; across processes these PostgreSQL advisory locks,
 * one per organisation, do: postings share it, guarded deletions take it alone.
 *
 * Taken before any in-process lock, always, so the two kinds of lock are never waited on in both orders.
 * Each hold keeps a connection of a small pool of its own for as long as it lasts.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

export const ORGANISATION_LOCK_LIMITS = Object.freeze({
  /** Connections for holding locks: postings beyond this many wait in the process (each ledger takes one at a time anyway). */
  connections: 32,
  /** Longest wait for the lock (a deletion holds it for one read of the ledgers and one append). */
  waitMs: 10_000,
  /** How long one shared hold takes in new postings (a waiting deletion waits about this much longer). */
  shareMs: 20,
});

export class OrganisationLockTimeout extends Error {}

const lost = (organisationId: string) => new Error(`lost the lock of organisation ${organisationId}`);

/**
 * One shared hold of an organisation's lock by this process, used by every posting that starts while
 * it admits (for `shareMs` after it was granted), released once the last of them is done. Postings under
 * load thus pay one lock and unlock per organisation every few milliseconds, not two round trips each;
 * a waiting deletion gets the lock as soon as the holds it queued behind drain (PostgreSQL queues later
 * shared requests behind a waiting exclusive one).
 */
interface SharedHold {
  granted: Promise<void>;
  held: () => boolean;
  users: number;
  admitting: boolean;
  release: () => void;
}

export class OrganisationLocks {
  private readonly pool: pg.Pool;
  private readonly admitting = new Map<string, SharedHold>();
  /** The shared holds the current call chain runs under, by organisation: a nested `shared` runs under that hold. */
  private readonly holdingShared = new AsyncLocalStorage<ReadonlyMap<string, SharedHold>>();

  constructor(connectionString: string) {
    // Idle connections close soon and never keep a CLI process alive.
    this.pool = new pg.Pool({
      connectionString,
      max: ORGANISATION_LOCK_LIMITS.connections,
      connectionTimeoutMillis: ORGANISATION_LOCK_LIMITS.waitMs,
      idleTimeoutMillis: 5_000,
      allowExitOnIdle: true,
    });
    this.pool.on('error', () => {}); // a connection dropped while idle is replaced on the next connect
    // The server gives up waiting itself (a timer here would leave the request queued there, blocking others).
    this.pool.on('connect', (client) => void client.query(`SET lock_timeout = ${ORGANISATION_LOCK_LIMITS.waitMs}`).catch(() => {}));
  }

  /** Runs `fn` while no guarded deletion of the organisation runs in any process. */
  async shared<T>(organisationId: string, fn: () => Promise<T>): Promise<T> {
    // Re-entrant: a command that takes the lock first (before its in-process stream locks, as the order wants) may
    // call a posting that takes it again. A second request would queue behind a waiting deletion that waits on us.
    const holding = this.holdingShared.getStore();
    const outer = holding?.get(organisationId);
    if (outer) {
      // Checked again: the outer hold's connection may have dropped since (the server released its lock then).
      if (!outer.held()) throw lost(organisationId);
      return fn();
    }
    let hold = this.admitting.get(organisationId);
    if (!hold) {
      hold = this.openSharedHold(organisationId);
      this.admitting.set(organisationId, hold);
    }
    hold.users++;
    try {
      await hold.granted;
      if (!hold.held()) throw lost(organisationId);
      return await this.holdingShared.run(new Map([...(holding ?? []), [organisationId, hold]]), fn);
    } finally {
      hold.users--;
      if (hold.users === 0 && !hold.admitting) hold.release();
    }
  }

  /** Runs `fn` while no posting or other guarded deletion of the organisation runs in any process. */
  exclusive<T>(organisationId: string, fn: () => Promise<T>): Promise<T> {
    if (this.holdingShared.getStore()?.has(organisationId)) throw new Error(`invariant violated: the exclusive lock of organisation ${organisationId} asked under its shared lock`);
    return this.holding(organisationId, false, async (release, held) => {
      try {
        if (!held()) throw lost(organisationId);
        return await fn();
      } finally {
        await release();
      }
    });
  }

  private openSharedHold(organisationId: string): SharedHold {
    let released = false;
    let unlock: (() => Promise<void>) | undefined;
    const hold: SharedHold = {
      held: () => false,
      users: 0,
      admitting: true,
      granted: Promise.resolve(),
      release: () => {
        if (released || !unlock) return;
        released = true;
        void unlock();
      },
    };
    const stopAdmitting = () => {
      hold.admitting = false;
      if (this.admitting.get(organisationId) === hold) this.admitting.delete(organisationId);
    };
    hold.granted = this.holding(organisationId, true, async (release, held) => {
      unlock = release;
      hold.held = held;
      setTimeout(() => {
        stopAdmitting();
        if (hold.users === 0) hold.release();
      }, ORGANISATION_LOCK_LIMITS.shareMs).unref();
    }).catch((error) => {
      stopAdmitting();
      throw error;
    });
    return hold;
  }

  /**
   * Takes the lock on a connection of its own and hands `use` a function that releases it. The
   * connection goes back to the pool after the release, or is closed if its lock state is unknown.
   */
  private async holding<T>(organisationId: string, shared: boolean, use: (release: () => Promise<void>, held: () => boolean) => Promise<T>): Promise<T> {
    const kind = shared ? '_shared' : '';
    const key = `ledger-organisation:${organisationId}`;
    const client = await this.pool.connect();
    // A checked-out connection has no pool listener: without this one, losing it would crash the process.
    let lost: Error | undefined;
    const onError = (error: Error) => (lost = error);
    client.on('error', onError);
    const done = (error?: Error) => {
      client.off('error', onError);
      client.release(error ?? lost);
    };
    try {
      await client.query(`SELECT pg_advisory_lock${kind}(hashtextextended($1, 0))`, [key]);
    } catch (error) {
      done(error as Error);
      throw error instanceof Error && (error as { code?: string }).code === '55P03'
        ? new OrganisationLockTimeout(`organisation ${organisationId} stayed locked for ${ORGANISATION_LOCK_LIMITS.waitMs} ms`)
        : error;
    }
    const release = async () => {
      try {
        if (!lost) await client.query(`SELECT pg_advisory_unlock${kind}(hashtextextended($1, 0))`, [key]);
        done();
      } catch (error) {
        done(error as Error);
      }
    };
    return use(release, () => !lost);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
