/**
 * Runs every registered projection from one subscription to all events. Each batch is one
 * transaction per batch: lock the checkpoints, skip what a checkpoint already covers (a rebuild may
 * have moved it), apply, move the checkpoints. Rows and checkpoint commit together: after a crash the
 * batch is applied again from the old checkpoint, never twice.
 */
import type pg from 'pg';
import { START, comparePositions, type EventStore, type GlobalPosition, type Subscription } from '../eventstore/port.ts';
import { project, type Projection } from './projection.ts';
import type { Resource } from './resource.ts';
import { Writes } from './writes.ts';
import { inTransaction } from '../platform/database.ts';

export const DAEMON_LIMITS = Object.freeze({ batchSize: 1000, waitForTimeoutMs: 5_000 });

export const liveTable = (r: Resource) => r.table;

export interface Checkpoint {
  name: string;
  position: GlobalPosition;
}

export async function readCheckpoints(db: pg.Pool | pg.PoolClient, names: string[], lock = false): Promise<Map<string, GlobalPosition>> {
  const { rows } = await db.query(
    `SELECT name, commit_pos::text AS commit, prepare_pos AS prepare FROM projection_checkpoints WHERE name = ANY($1) ORDER BY name ${lock ? 'FOR UPDATE' : ''}`,
    [names],
  );
  return new Map(rows.map((r) => [r.name as string, { commit: BigInt(r.commit), prepare: BigInt(r.prepare) }]));
}

/** Moves these projections' checkpoints to `p`, in one statement (a batch moves every projection it covers). */
export async function writeCheckpoint(db: pg.PoolClient, names: string[], p: GlobalPosition): Promise<void> {
  await db.query({
    name: 'projection_checkpoints_move',
    text: `UPDATE projection_checkpoints SET commit_pos = $2::text::xid8, prepare_pos = $3, updated_at = now() WHERE name = ANY($1)`,
    values: [names, p.commit.toString(), p.prepare.toString()],
  });
}

export class ProjectionDaemon {
  private subscription: Subscription | undefined;
  private processed: GlobalPosition = START;
  private readonly waiters = new Set<{ position: GlobalPosition; resolve: () => void }>();
  private failure: unknown;

  constructor(
    private readonly pool: pg.Pool,
    private readonly store: EventStore,
    readonly projections: Projection[],
    private readonly log: (msg: string, extra?: object) => void = () => {},
  ) {}

  async start(): Promise<void> {
    const checkpoints = await readCheckpoints(this.pool, this.projections.map((p) => p.name));
    // Start from the least advanced projection; the others skip what they already have.
    const from = [...checkpoints.values()].reduce((min, p) => (comparePositions(p, min) < 0 ? p : min), checkpoints.values().next().value ?? START);
    this.processed = from;
    const eventTypes = [...new Set(this.projections.flatMap((p) => p.eventTypes))];
    this.subscription = this.store.subscribeToAll({ from, batchSize: DAEMON_LIMITS.batchSize, filter: { eventTypes } }, (batch) => this.applyBatch(batch));
    this.subscription.done.catch((error) => {
      this.failure = error;
      this.log('projection daemon stopped on an error', { error: String(error) });
    });
    await this.subscription.caughtUp;
  }

  private async applyBatch(batch: Parameters<Projection['apply']>[0][]): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      const checkpoints = await readCheckpoints(client, this.projections.map((p) => p.name), true);
      const last = batch[batch.length - 1].position;
      const moved: string[] = [];
      for (const projection of this.projections) {
        const checkpoint = checkpoints.get(projection.name) ?? START;
        if (comparePositions(checkpoint, last) >= 0) continue; // a rebuild already covered this batch
        const fresh = batch.filter((e) => comparePositions(e.position, checkpoint) > 0 && projection.eventTypes.includes(e.type));
        if (fresh.length > 0) {
          const writes = new Writes();
          await project(projection, fresh, writes, liveTable, client);
          await writes.flush(client);
        }
        moved.push(projection.name);
      }
      if (moved.length > 0) await writeCheckpoint(client, moved, last);
    });
    this.processed = batch[batch.length - 1].position;
    for (const w of this.waiters) {
      if (comparePositions(this.processed, w.position) >= 0) {
        this.waiters.delete(w);
        w.resolve();
      }
    }
  }

  /** Resolves once the read models include `position` (read-your-writes for mutations), or on timeout. */
  async waitFor(position: GlobalPosition | null, timeoutMs: number = DAEMON_LIMITS.waitForTimeoutMs): Promise<boolean> {
    if (!position || comparePositions(this.processed, position) >= 0) return true;
    if (this.failure) return false;
    return new Promise((resolve) => {
      const waiter = { position, resolve: () => (clearTimeout(timer), resolve(true)) };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  get position(): GlobalPosition {
    return this.processed;
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
  }
}
