/**
 * Runs every registered projection from one subscription to all events. Each batch is one
 * transaction per batch: lock the checkpoints, skip what a checkpoint already covers (a rebuild may
 * have moved it), apply, move the checkpoints. Rows and checkpoint commit together: after a crash the
 * batch is applied again from the old checkpoint, never twice.
 *
 * One event never stops the others. A batch that fails is applied again event by event (a savepoint
 * each, still one transaction with the checkpoints): an event that fails there parks its organisation
 * for that projection (parked.ts) and the others go on. A failure of the database itself (connection
 * lost, shutdown) parks nothing: the daemon starts again from its checkpoints after a backoff, for as
 * long as it runs. Starting never waits for a catch-up longer than DAEMON_LIMITS.startWaitMs.
 *
 * One projection never stops the others. Each applies its part of a batch under a savepoint: a fault of its
 * own (the schema: a column missing, isProjectionFault, or every event of a batch failing) rolls back only
 * its part and sets it aside as stopped; the others commit and go on. A stopped projection is tried again
 * alone after a backoff, from its own checkpoint, one batch (probe): once that applies, it rejoins. A
 * projection whose tables are being rebuilt to a new version (upgrade.ts) is set aside too, until the swap.
 * One daemon and one subscription either way: a daemon per projection would take a connection and a
 * subscription each out of the pool's 20 (platform/database.ts) that requests and rebuilds share.
 */
import type pg from 'pg';
import { START, comparePositions, formatPosition, type EventStore, type GlobalPosition, type RecordedEvent, type Subscription } from '../../eventstore/port.ts';
import { project, type Projection } from './projection.ts';
import type { Resource } from './resource.ts';
import { Writes } from './writes.ts';
import { inTransaction } from '../../platform/database.ts';
import { isTransient } from '../../platform/transient.ts';
import { countHeld, describeError, isProjectionFault, organisationOf, park, parkedOrganisations } from './parked.ts';

export const DAEMON_LIMITS = Object.freeze({
  batchSize: 1000,
  waitForTimeoutMs: 5_000,
  /** start() resolves once caught up, or after this long: the service listens either way. */
  startWaitMs: 5_000,
  /** Waits before starting again after a failure of the database (the last one repeats). */
  retryBackoffMs: [250, 500, 1_000, 2_000, 5_000, 10_000, 30_000] as const,
  /** Transactions of held events remembered for read-your-writes answers (see heldTransactions). */
  heldTransactionsRemembered: 10_000,
});

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

/** A projection the daemon does not apply for now: its tables are being rebuilt to a new version, or it failed (stopped). */
export interface SetAside {
  reason: 'rebuilding' | 'stopped';
  since: string;
  /** stopped: why, and how many tries failed so far (it is tried again after a backoff). */
  error?: string;
  attempts?: number;
}

/** What /health and a mutation's wait report: is the daemon applying events, and where does it stand. */
export interface DaemonHealth {
  /** catching-up: not caught up since it started; live: caught up and applying; retrying: the database failed, it starts again soon. */
  state: 'catching-up' | 'live' | 'retrying' | 'stopped';
  position: string;
  /** Organisations whose events a projection of this daemon holds (parked.ts), by projection. */
  parked: Record<string, string[]>;
  /** Projections not applied for now, by name (absent when none). */
  setAside?: Record<string, SetAside>;
  error?: string;
}

/** Why a mutation's events are not in the read models (yet): undefined when they are. */
export type NotVisible = { reason: 'parked' | 'rebuilding' | 'stopped'; projections: string[] } | { reason: 'behind' | 'retrying'; error?: string };

/** A batch that failed for some of its events, not for one: a fault of the projection or the database, not a poisoned event. */
class WholeBatchFailed extends Error {}

export class ProjectionDaemon {
  private subscription: Subscription | undefined;
  private processed: GlobalPosition = START;
  private readonly waiters = new Set<{ position: GlobalPosition; applied: boolean; resolve: () => void }>();
  private failure: unknown;
  private stopping = false;
  private running: Promise<void> | undefined;
  private wakeRetry: (() => void) | undefined;
  private state: DaemonHealth['state'] = 'catching-up';
  /** Parked organisations by projection, as the last batch read them (in its transaction). */
  private parked = new Map<string, Set<string>>();
  /**
   * The transactions (commit positions) of recent events this daemon held or parked, with the projections that
   * did: a mutation is told its change is not visible only when its own events were held, not whenever its
   * organisation is parked somewhere. Bounded: the oldest are forgotten (a mutation waits seconds, not hours).
   */
  private readonly heldTransactions = new Map<bigint, Set<string>>();
  /** Projections not applied for now (SetAside), and the ones applied: the others, as of the current subscription. */
  private readonly aside = new Map<string, SetAside>();
  private live: Projection[] = [];
  /** A projection rejoined: the subscription starts again from the checkpoints (see include). */
  private resubscribe = false;
  private readonly rejoining = new Set<string>();
  private readonly probes = new Map<string, NodeJS.Timeout>();
  private markCaughtUp!: () => void;
  /** Resolves the first time the daemon has applied everything that existed when it started. */
  readonly caughtUp = new Promise<void>((resolve) => (this.markCaughtUp = resolve));

  constructor(
    private readonly pool: pg.Pool,
    private readonly store: EventStore,
    readonly projections: Projection[],
    private readonly log: (msg: string, extra?: object) => void = () => {},
  ) {}

  /** Starts applying; resolves once caught up, on a failure, or after `waitMs`, whichever comes first. */
  async start(waitMs: number = DAEMON_LIMITS.startWaitMs): Promise<void> {
    let failed!: () => void;
    const firstFailure = new Promise<void>((resolve) => (failed = resolve));
    this.running = this.run(failed);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
    await Promise.race([this.caughtUp, firstFailure, waited]);
    clearTimeout(timer);
    if (this.state !== 'live') this.log('projections not caught up at start: serving meanwhile', this.health());
  }

  /** Subscribes from the checkpoints; after a failure, logs it, waits and subscribes again, until stopped. */
  private async run(onFailure: () => void): Promise<void> {
    for (let attempt = 0; !this.stopping; ) {
      try {
        this.resubscribe = false;
        for (const name of this.rejoining) this.aside.delete(name);
        this.rejoining.clear();
        this.live = this.projections.filter((p) => !this.aside.has(p.name));
        const names = this.live.map((p) => p.name);
        const checkpoints = await readCheckpoints(this.pool, names);
        this.parked = await parkedOrganisations(this.pool, this.projections.map((p) => p.name));
        // Start from the least advanced projection; the others skip what they already have. (With every one set
        // aside, from the head: the new events still go by, so that a mutation is told they are not applied.)
        const from = [...checkpoints.values()].reduce((min, p) => (comparePositions(p, min) < 0 ? p : min), checkpoints.values().next().value ?? (await this.store.headPosition()));
        this.processed = from;
        const eventTypes = [...new Set(this.projections.flatMap((p) => p.eventTypes))];
        const subscription = this.store.subscribeToAll({ from, batchSize: DAEMON_LIMITS.batchSize, filter: { eventTypes } }, async (batch) => {
          await this.applyBatch(batch);
          attempt = 0;
        });
        this.subscription = subscription;
        if (this.stopping || this.resubscribe) await subscription.stop(); // (stop() or include() ran while the checkpoints were read)
        subscription.caughtUp.then(() => {
          if (this.subscription !== subscription || this.stopping) return;
          this.state = 'live';
          this.failure = undefined;
          this.markCaughtUp();
        });
        await subscription.done;
        if (this.stopping || !this.resubscribe) return; // stopped
        continue; // a projection rejoined: from the checkpoints again
      } catch (error) {
        if (this.stopping) return;
        this.failure = error;
        this.state = 'retrying';
        const wait = DAEMON_LIMITS.retryBackoffMs[Math.min(attempt++, DAEMON_LIMITS.retryBackoffMs.length - 1)];
        this.log(`projection daemon failed (${isTransient(error) ? 'database unavailable' : isProjectionFault(error) ? 'schema or database fault' : 'error'}); starting again in ${wait} ms`, { error: describeError(error) });
        onFailure();
        for (const w of this.waiters) w.resolve(); // (they find the failure and answer it)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          this.wakeRetry = () => (clearTimeout(timer), resolve());
        });
        this.wakeRetry = undefined;
      }
    }
  }

  private async applyBatch(batch: RecordedEvent[]): Promise<void> {
    await this.applyTo(this.live, batch, new Set(), true);
    this.processed = batch[batch.length - 1].position;
    for (const w of this.waiters) {
      if (this.reached(w.position, w.applied)) {
        this.waiters.delete(w);
        w.resolve();
      }
    }
  }

  /**
   * A batch for these projections: in one transaction, or again event by event if an event failed. `stopped`
   * collects the projections that failed on their own (set aside); `recordAside`: remember which transactions'
   * events the set-aside projections did not apply (the live batches; not a stopped one's probe).
   */
  private async applyTo(projections: Projection[], batch: RecordedEvent[], stopped: Set<string>, recordAside: boolean): Promise<void> {
    try {
      await inTransaction(this.pool, (client) => this.applyInTransaction(client, projections, batch, false, stopped, recordAside));
    } catch (error) {
      if (isTransient(error) || isProjectionFault(error)) throw error;
      // Which event? Again, one by one: those that fail park their organisation, the others are applied.
      this.log('a batch of events failed: applying it event by event', { error: describeError(error), from: formatPosition(batch[0].position), to: formatPosition(batch[batch.length - 1].position) });
      await inTransaction(this.pool, (client) => this.applyInTransaction(client, projections.filter((p) => !stopped.has(p.name)), batch, true, stopped, recordAside));
    }
  }

  /** The batch in one transaction with the checkpoints; `oneByOne`: each event under a savepoint, a failing one parked. */
  private async applyInTransaction(client: pg.PoolClient, projections: Projection[], batch: RecordedEvent[], oneByOne: boolean, stopped: Set<string>, recordAside: boolean): Promise<void> {
    const checkpoints = await readCheckpoints(client, projections.map((p) => p.name), true);
    const parked = await parkedOrganisations(client, this.projections.map((p) => p.name));
    const last = batch[batch.length - 1].position;
    const moved: string[] = [];
    const heldNow: [bigint, string][] = [];
    // Events a set-aside projection would apply: remembered, so that a mutation that wrote them is told.
    const notApplied = (projection: Projection) => {
      for (const e of batch) if (projection.eventTypes.includes(e.type)) heldNow.push([e.position.commit, projection.name]);
    };
    if (recordAside) for (const projection of this.projections) if (this.aside.has(projection.name)) notApplied(projection);
    for (const projection of projections) {
      if (stopped.has(projection.name)) continue; // (set aside earlier in this batch)
      const checkpoint = checkpoints.get(projection.name) ?? START;
      if (comparePositions(checkpoint, last) >= 0) continue; // a rebuild already covered this batch
      const heldBefore = heldNow.length;
      const parkedBefore = new Set(parked.get(projection.name) ?? []);
      await client.query('SAVEPOINT projection');
      try {
        let held = parked.get(projection.name);
        const fresh = batch.filter((e) => comparePositions(e.position, checkpoint) > 0 && projection.eventTypes.includes(e.type));
        const heldCounts = new Map<string, number>();
        const hold = (e: RecordedEvent) => {
          const org = organisationOf(e);
          if (!held?.has(org)) return false;
          heldCounts.set(org, (heldCounts.get(org) ?? 0) + 1);
          heldNow.push([e.position.commit, projection.name]);
          return true;
        };
        if (!oneByOne) {
          const applied = held ? fresh.filter((e) => !hold(e)) : fresh;
          if (applied.length > 0) {
            const writes = new Writes();
            await project(projection, applied, writes, liveTable, client);
            await writes.flush(client);
          }
        } else {
          let failures = 0;
          let successes = 0;
          for (const e of fresh) {
            if (hold(e)) continue;
            await client.query('SAVEPOINT event');
            try {
              const writes = new Writes();
              await project(projection, [e], writes, liveTable, client);
              await writes.flush(client);
              await client.query('RELEASE SAVEPOINT event');
              successes++;
            } catch (error) {
              if (isTransient(error) || isProjectionFault(error)) throw error;
              await client.query('ROLLBACK TO SAVEPOINT event');
              failures++;
              await park(client, projection.name, e, error);
              heldNow.push([e.position.commit, projection.name]);
              (held ??= new Set()).add(organisationOf(e));
              parked.set(projection.name, held);
              this.log('event parked: its organisation is held for this projection until retried', { projection: projection.name, organisationId: organisationOf(e), eventId: e.id, error: describeError(error) });
            }
          }
          // Every event failing, in several organisations: the projection (or the database) is at fault, not an event.
          if (failures > 1 && successes === 0 && new Set(fresh.map(organisationOf)).size > 1) throw new WholeBatchFailed(`projection ${projection.name} failed on every event of a batch`);
        }
        await countHeld(client, projection.name, heldCounts);
        await client.query('RELEASE SAVEPOINT projection');
      } catch (error) {
        if (isTransient(error) || !(isProjectionFault(error) || error instanceof WholeBatchFailed)) throw error;
        // Its own fault: its part of the batch is undone (parkings included), the others' is kept.
        await client.query('ROLLBACK TO SAVEPOINT projection');
        heldNow.length = heldBefore;
        parked.set(projection.name, parkedBefore);
        if (recordAside) notApplied(projection);
        stopped.add(projection.name);
        this.stopProjection(projection, error);
        continue;
      }
      moved.push(projection.name);
    }
    if (moved.length > 0) await writeCheckpoint(client, moved, last);
    this.parked = parked;
    for (const [commit, name] of heldNow) {
      const names = this.heldTransactions.get(commit) ?? new Set<string>();
      this.heldTransactions.delete(commit); // re-inserted last: the map's order is recency
      this.heldTransactions.set(commit, names.add(name));
    }
    for (const oldest of this.heldTransactions.keys()) {
      if (this.heldTransactions.size <= DAEMON_LIMITS.heldTransactionsRemembered) break;
      this.heldTransactions.delete(oldest);
    }
  }

  /** Resolves once the read models include `position` (every projection applied its transaction's events, or held them behind a parked one), or on timeout. */
  waitFor(position: GlobalPosition | null, timeoutMs: number = DAEMON_LIMITS.waitForTimeoutMs): Promise<boolean> {
    return this.waitUntil(position, timeoutMs, true);
  }

  /**
   * The daemon went past `position`; `applied`: and no projection set aside left its transaction's events
   * unapplied (it applies them once it rejoins: the subscription starts again before it, and goes past it again).
   */
  private reached(position: GlobalPosition, applied: boolean): boolean {
    if (comparePositions(this.processed, position) < 0) return false;
    const heldBy = applied ? this.heldTransactions.get(position.commit) : undefined;
    return !heldBy || ![...heldBy].some((name) => this.aside.has(name));
  }

  private async waitUntil(position: GlobalPosition | null, timeoutMs: number, applied: boolean): Promise<boolean> {
    if (!position || this.reached(position, applied)) return true;
    if (this.failure) return false;
    return new Promise((resolve) => {
      const waiter = { position, applied, resolve: () => (clearTimeout(timer), this.waiters.delete(waiter), resolve(this.reached(position, applied))) };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /**
   * Read-your-writes for one organisation: waits for `position`, then says why the organisation's read
   * models do not show it, if they do not (its events held behind a parked one, the daemon behind or
   * failing). Undefined when they do.
   */
  async visible(position: GlobalPosition | null, organisationId: string, timeoutMs?: number): Promise<NotVisible | undefined> {
    // Past it is enough here: what a set-aside projection did not apply is said below, without waiting for it.
    const reached = await this.waitUntil(position, timeoutMs ?? DAEMON_LIMITS.waitForTimeoutMs, false);
    // Held only if its own transaction's events were: a write its parked projections never see is visible.
    const heldBy = position ? this.heldTransactions.get(position.commit) : undefined;
    const parkedIn = heldBy ? [...heldBy].filter((name) => this.parked.get(name)?.has(organisationId)) : [];
    if (parkedIn.length > 0) return { reason: 'parked', projections: parkedIn };
    const asideIn = heldBy ? [...heldBy].filter((name) => this.aside.has(name)) : [];
    if (asideIn.length > 0) return { reason: this.aside.get(asideIn[0])!.reason, projections: asideIn };
    if (reached) return undefined;
    return this.failure ? { reason: 'retrying', error: describeError(this.failure) } : { reason: 'behind' };
  }

  /**
   * Reads the parked organisations again: a retry (`ledger projections retry`, often another process) clears
   * rows this daemon would otherwise only notice at its next batch. Cheap: the table holds a row per parking.
   */
  async refreshParked(): Promise<void> {
    if (this.parked.size === 0 || [...this.parked.values()].every((orgs) => orgs.size === 0)) return;
    this.parked = await parkedOrganisations(this.pool, this.projections.map((p) => p.name));
  }

  /** Leaves these projections out until include(): their tables are being rebuilt to a new version (upgrade.ts). Before start(). */
  setAsideForRebuild(names: string[]): void {
    for (const name of names) this.aside.set(name, { reason: 'rebuilding', since: new Date().toISOString() });
  }

  /**
   * A set-aside projection applies again (its rebuild swapped in, or a stopped one's probe applied): the
   * subscription starts again from the checkpoints, so that it gets every event after its own.
   */
  include(name: string): void {
    if (!this.aside.has(name) || this.stopping) return;
    this.rejoining.add(name);
    this.resubscribe = true;
    void this.subscription?.stop();
  }

  /** Sets a projection aside after a fault of its own; it is tried again alone after a backoff (probe). */
  private stopProjection(projection: Projection, error: unknown): void {
    const before = this.aside.get(projection.name);
    const attempts = (before?.reason === 'stopped' ? (before.attempts ?? 0) : 0) + 1;
    this.aside.set(projection.name, { reason: 'stopped', since: before?.since ?? new Date().toISOString(), error: describeError(error), attempts });
    // Out of the batches from now on: its checkpoint stays where its last applied batch left it.
    this.live = this.live.filter((p) => p !== projection);
    const wait = DAEMON_LIMITS.retryBackoffMs[Math.min(attempts - 1, DAEMON_LIMITS.retryBackoffMs.length - 1)];
    this.log(`projection ${projection.name} stopped (its own fault); the other projections go on; trying it again in ${wait} ms`, { error: describeError(error), attempts });
    clearTimeout(this.probes.get(projection.name));
    this.probes.set(projection.name, setTimeout(() => void this.probe(projection), wait));
  }

  /** A stopped projection's next batch from its own checkpoint, alone: once it applies, the projection rejoins. */
  private async probe(projection: Projection): Promise<void> {
    this.probes.delete(projection.name);
    if (this.stopping || this.aside.get(projection.name)?.reason !== 'stopped') return;
    const stopped = new Set<string>();
    try {
      const checkpoint = (await readCheckpoints(this.pool, [projection.name])).get(projection.name) ?? START;
      const events = await this.store.readAll(checkpoint, { maxCount: DAEMON_LIMITS.batchSize, filter: { eventTypes: projection.eventTypes } });
      if (events.length > 0) await this.applyTo([projection], events, stopped, false);
    } catch (error) {
      if (!this.stopping) this.stopProjection(projection, error);
      return;
    }
    if (stopped.has(projection.name)) return; // (stopProjection planned the next try)
    this.log(`projection ${projection.name} applies again: it rejoins the others`);
    this.include(projection.name);
  }

  health(): DaemonHealth {
    const parked = Object.fromEntries([...this.parked].filter(([, orgs]) => orgs.size > 0).map(([name, orgs]) => [name, [...orgs]]));
    return {
      state: this.state, position: formatPosition(this.processed), parked,
      ...(this.aside.size > 0 ? { setAside: Object.fromEntries(this.aside) } : {}),
      ...(this.failure ? { error: describeError(this.failure) } : {}),
    };
  }

  get position(): GlobalPosition {
    return this.processed;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.state = 'stopped';
    for (const timer of this.probes.values()) clearTimeout(timer);
    this.wakeRetry?.();
    await this.subscription?.stop();
    await this.running;
  }
}
