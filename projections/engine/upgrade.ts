/**
 * Read models of another version, brought to the code's at start without a manual step: each outdated
 * projection (schema.ts migrateReadModels) is rebuilt into shadow tables and swapped in (rebuild.ts), in
 * the background of the running service, one at a time. Until its swap the projection is set aside from the
 * live daemon (its tables lack what the code writes) and its old tables keep serving; the rebuild applies the
 * tail up to the head inside the swap, then the daemon takes it back from its checkpoint.
 *
 * Several processes of the service: only the one holding the advisory lock rebuilds; the others serve the old
 * tables and look every UPGRADE_LIMITS.lockPollMs whether the stored version became the code's (then take the
 * projection back), or whether the lock is free (its holder stopped: they resume its rebuild where it was).
 */
import type pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore } from '../../eventstore/port.ts';
import type { ProjectionDaemon } from './daemon.ts';
import { describeError } from './parked.ts';
import { REBUILD_LIMITS, rebuildProjection, type RebuildProgress } from './rebuild.ts';
import type { OutdatedProjection } from './schema.ts';

export const UPGRADE_LIMITS = Object.freeze({
  /** How often a process that does not hold the lock looks at the stored versions and the lock. */
  lockPollMs: 2_000,
  /** Waits before trying a failed rebuild again (it resumes from its saved progress); the last repeats. */
  retryBackoffMs: [1_000, 5_000, 30_000] as const,
  /** Worker threads of a background rebuild: fewer than a rebuild from the CLI takes, the service is serving meanwhile. */
  workers: Math.min(2, REBUILD_LIMITS.workers),
});

/** READ_MODEL_UPGRADE: rebuild outdated read models in the background (default), or refuse to start. */
export type UpgradeMode = 'background' | 'refuse';

const LOCK = 'read_models_upgrade';

export interface UpgradeStatus {
  projection: string;
  from: string | null;
  to: string;
  /** waiting: for the lock (another process rebuilds) or a retry; rebuilding: this process, at `progress`. */
  state: 'waiting' | 'rebuilding';
  progress?: Omit<RebuildProgress, 'projection'>;
  error?: string;
}

/** Why the service will not start on outdated read models (READ_MODEL_UPGRADE=refuse), and the command that fixes it. */
export function refusal(outdated: OutdatedProjection[]): string {
  const names = outdated.map((o) => o.projection.name);
  return `read models of another version: ${outdated.map((o) => `${o.projection.name} (stored ${o.stored ?? 'before versions'}, code ${o.code})`).join(', ')}. `
    + `Rebuild them with ${names.map((n) => `\`npx ledger projections rebuild ${n}\``).join(' and ')}, or start without READ_MODEL_UPGRADE=refuse to rebuild them in the background while the old ones serve.`;
}

export class ReadModelUpgrade {
  private readonly pending = new Map<string, { outdated: OutdatedProjection; status: UpgradeStatus }>();
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly store: EventStore,
    private readonly daemon: ProjectionDaemon,
    outdated: OutdatedProjection[],
    private readonly log: (msg: string, extra?: object) => void = () => {},
  ) {
    for (const o of outdated) this.pending.set(o.projection.name, { outdated: o, status: { projection: o.projection.name, from: o.stored, to: o.code, state: 'waiting' } });
    daemon.setAsideForRebuild([...this.pending.keys()]);
  }

  start(): void {
    if (this.pending.size === 0) return;
    this.log('read models of another version: rebuilding them in the background while the old ones serve', { projections: this.status() });
    this.running = this.run().catch((error) => {
      if (!this.abort.signal.aborted) this.log('read model upgrade ended', { error: describeError(error) });
    });
  }

  /** The projections still to swap in, and where each stands (empty once all are current). */
  status(): UpgradeStatus[] {
    return [...this.pending.values()].map((p) => p.status);
  }

  /** Resolves once every outdated projection is swapped in (tests; the service does not wait). */
  async done(): Promise<void> {
    await this.running;
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  private async run(): Promise<void> {
    for (let failures = 0; this.pending.size > 0 && !this.abort.signal.aborted; ) {
      let lock: pg.PoolClient | undefined;
      try {
        await this.takeBackSwapped();
        if (this.pending.size === 0) return;
        lock = await this.tryLock();
        if (!lock) {
          await this.pause(UPGRADE_LIMITS.lockPollMs);
          continue;
        }
        for (const { outdated, status } of [...this.pending.values()]) {
          await this.takeBackSwapped(); // (another process may have swapped it before this one had the lock)
          if (!this.pending.has(outdated.projection.name)) continue;
          status.state = 'rebuilding';
          await rebuildProjection(this.pool, this.store, outdated.projection, ({ stage, done, total }) => (status.progress = { stage, done, total }), {
            signal: this.abort.signal, maxWorkers: UPGRADE_LIMITS.workers,
          });
          this.takeBack(outdated.projection.name);
          failures = 0;
        }
      } catch (error) {
        if (this.abort.signal.aborted) return;
        for (const { status } of this.pending.values()) (status.state = 'waiting'), (status.error = describeError(error));
        const wait = UPGRADE_LIMITS.retryBackoffMs[Math.min(failures++, UPGRADE_LIMITS.retryBackoffMs.length - 1)];
        this.log(`read model upgrade failed; trying again in ${wait} ms (a rebuild resumes where it stopped)`, { error: describeError(error) });
        await this.pause(wait);
      } finally {
        if (lock) {
          await lock.query(`SELECT pg_advisory_unlock(hashtext($1))`, [LOCK]).catch(() => {});
          lock.release();
        }
      }
    }
  }

  /** A connection holding the upgrade's advisory lock (session-level: held for the rebuilds), or undefined when another process has it. */
  private async tryLock(): Promise<pg.PoolClient | undefined> {
    const client = await this.pool.connect();
    try {
      const { rows } = await client.query(`SELECT pg_try_advisory_lock(hashtext($1)) AS locked`, [LOCK]);
      if (rows[0].locked) return client;
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    client.release();
    return undefined;
  }

  /** Projections whose stored version is the code's now (swapped by this process or another): the live daemon applies them again. */
  private async takeBackSwapped(): Promise<void> {
    const { rows } = await this.pool.query(`SELECT name, version FROM projection_checkpoints WHERE name = ANY($1)`, [[...this.pending.keys()]]);
    for (const row of rows) if (row.version === this.pending.get(row.name)?.outdated.code) this.takeBack(row.name);
  }

  private takeBack(name: string): void {
    this.pending.delete(name);
    this.daemon.include(name);
    this.log(`read model ${name} swapped in at the code's version: applied live again`);
  }

  private async pause(ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: this.abort.signal }).catch(() => {});
  }
}
