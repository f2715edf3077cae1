/**
 * Thin glue between deciders and the event store: load an aggregate's state (cached, caught up
 * incrementally), decide, append with the expected revision, retry on a concurrency conflict.
 * Commands on one stream are serialised in-process, so conflicts only come from other processes.
 */
import { randomUUID } from 'node:crypto';
import { WrongExpectedRevision, type EventMetadata, type EventStore, type GlobalPosition, type RecordedEvent } from '../eventstore/port.ts';
import { Errors, fail } from '../domain/errors.ts';
import { derivedId } from '../domain/ids.ts';
import { eventSchemaVersion, foldedStateVersion } from '../eventstore/upcasters.ts';
import type { SnapshotStore } from './snapshots.ts';

export interface Aggregate<S, E extends { type: string; data: unknown }> {
  category: string;
  initialState: () => S;
  evolve: (state: S, event: E) => S;
  /** For aggregates whose streams grow long: how their state is written to and read from a snapshot. */
  snapshot?: {
    /** Layout version: snapshots of another version are ignored (stored with the upcasters', foldedStateVersion). */
    version: number;
    write: (state: S) => unknown;
    read: (body: never) => S;
  };
}

/** Who issues a command: becomes every resulting event's metadata. */
export interface CommandContext {
  organisationId: string;
  userId?: string;
  clientId?: string;
  correlationId?: string;
  /** Idempotency key: the same command id never produces its events twice. */
  commandId?: string;
  /**
   * What the request asked (commands/idempotency.ts), kept in the metadata of the command's events: the
   * same command id with another request is refused rather than answered with the first one's outcome.
   */
  requestFingerprint?: string;
}

export interface Decided<E> {
  events: E[];
  position: GlobalPosition | null;
}

interface Loaded<S> {
  state: S;
  revision: bigint | null; // null: no stream yet
}

/** A stream's state as the cache keeps it, with what a later snapshot of it needs. */
interface Cached<S> extends Loaded<S> {
  aggregate: Aggregate<S, never>;
  /** The id of the stream's event at `revision`, when known (a snapshot names it). */
  eventId?: string;
  /** Events folded in since the state was last snapshotted or read from a snapshot (or since the stream began). */
  sinceSnapshot: number;
}

export const LIMITS = Object.freeze({ cachedStreams: 20_000, conflictRetries: 30, conflictBackoffMs: 2, pageSize: 5_000 });

/**
 * A load that had to read at least `minEvents` events leaves a snapshot for the next one. Only loads
 * take them: a load is already slow (on a million entries, serialising added 0.2 s to a 13 s load,
 * npm run bench -- snapshots), while a snapshot taken after an append would stall a busy stream's
 * commands. What a process appended past its last snapshot is snapshotted when it shuts down
 * (snapshotLongTails); after a crash, the next long load does it.
 */
export const SNAPSHOT_LIMITS = Object.freeze({
  minEvents: 10_000,
  /** At shutdown (snapshotLongTails): at most this many snapshots, started within this long. */
  atShutdownStreams: 16,
  atShutdownMs: 10_000,
});

export interface SnapshotOptions {
  minEvents: number;
  /** Told when a snapshot could not be taken, saved or used (loads only get slower). */
  onError: (error: unknown, streamId: string) => void;
}

export class AggregateStore {
  private readonly cache = new Map<string, Cached<unknown>>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly savingSnapshots = new Set<Promise<void>>();

  constructor(
    readonly store: EventStore,
    private readonly snapshots?: SnapshotStore,
    private readonly snapshotOptions: SnapshotOptions = { ...SNAPSHOT_LIMITS, onError: () => {} },
  ) {}

  /** Resolves once the snapshots being saved are (for shutdown and tests). */
  async snapshotsSaved(): Promise<void> {
    await Promise.all([...this.savingSnapshots]);
  }

  static streamId(category: string, id: string): string {
    return `${category}-${id}`;
  }

  /**
   * State as of the newest event in the store (reads only what the cache has not seen). Takes the
   * stream's lock: evolve() may update cached state in place, so only one holder may touch it.
   */
  async load<S, E extends { type: string; data: unknown }>(aggregate: Aggregate<S, E>, id: string): Promise<Loaded<S>> {
    return this.withLocks([AggregateStore.streamId(aggregate.category, id)], () => this.loadHeld(aggregate, id));
  }

  /** The cached state if any, without a round trip (may trail other processes' appends). */
  cached<S>(aggregate: { category: string }, id: string): S | undefined {
    return (this.cache.get(AggregateStore.streamId(aggregate.category, id)) as Loaded<S> | undefined)?.state;
  }

  /** load() for a caller already holding the stream's lock. */
  loadHeld<S, E extends { type: string; data: unknown }>(aggregate: Aggregate<S, E>, id: string): Promise<Loaded<S>> {
    return this.loadEntry(aggregate, id);
  }

  /** loadHeld's state as the cache now keeps it. */
  private async loadEntry<S, E extends { type: string; data: unknown }>(aggregate: Aggregate<S, E>, id: string): Promise<Cached<S>> {
    const streamId = AggregateStore.streamId(aggregate.category, id);
    const cached = this.cache.get(streamId) as Cached<S> | undefined;
    // Out of the cache while evolve() changes it in place: a read failing half-way must not leave it there.
    this.cache.delete(streamId);
    const start = cached ?? (await this.fromSnapshot(aggregate, streamId));
    let loaded: Loaded<S> = start;
    let read = 0;
    let lastEventId = start.eventId;
    for (;;) {
      const from = loaded.revision === null ? 0n : loaded.revision + 1n;
      const page = await this.store.readStream(streamId, { fromRevision: from, maxCount: LIMITS.pageSize });
      let state = loaded.state;
      for (const e of page) state = aggregate.evolve(state, { type: e.type, data: e.data } as E);
      if (page.length > 0) {
        loaded = { state, revision: page[page.length - 1].revision };
        read += page.length;
        lastEventId = page[page.length - 1].id;
      }
      if (page.length < LIMITS.pageSize) break;
    }
    const entry: Cached<S> = { ...loaded, aggregate: aggregate as Aggregate<S, never>, eventId: lastEventId, sinceSnapshot: start.sinceSnapshot + read };
    this.remember(streamId, entry);
    if (read >= this.snapshotOptions.minEvents) this.takeSnapshot(streamId, entry);
    return entry;
  }

  /**
   * A cold stream's start: its snapshot, when there is one of the aggregate's current layout whose last
   * event is the store's event at that revision (a store restored or reset under the snapshots must not
   * be trusted), else the beginning.
   */
  private async fromSnapshot<S>(aggregate: Aggregate<S, never>, streamId: string): Promise<Cached<S>> {
    const beginning: Cached<S> = { state: aggregate.initialState(), revision: null, aggregate, sinceSnapshot: 0 };
    if (!aggregate.snapshot || !this.snapshots) return beginning;
    const { read } = aggregate.snapshot;
    const version = foldedStateVersion(aggregate.snapshot.version);
    try {
      const snapshot = await this.snapshots.load(streamId, version);
      if (!snapshot) return beginning;
      // A store that cannot be read now says nothing about the snapshot: the outer catch replays, keeping it.
      const [last] = await this.store.readStream(streamId, { fromRevision: snapshot.revision, maxCount: 1 });
      try {
        if (last?.id !== snapshot.eventId) throw new Error(`snapshot at revision ${snapshot.revision} does not match the stream's event there`);
        return { state: read(snapshot.body as never), revision: snapshot.revision, aggregate, eventId: snapshot.eventId, sinceSnapshot: 0 };
      } catch (error) {
        await this.snapshots.discard(streamId, snapshot); // unusable: the next long load writes a good one
        throw error;
      }
    } catch (error) {
      this.snapshotOptions.onError(error, streamId);
      return beginning;
    }
  }

  /**
   * Writes the state's snapshot now, under the stream's lock (evolve() changes the cached state in
   * place once it is released), and saves it in the background. Serialising blocks the whole process
   * (0.2 s for a million entries, bench/snapshots.ts), so one snapshot at a time: while one is being saved, other long
   * loads leave theirs to a later load. A failure only costs the next load.
   */
  private takeSnapshot<S>(streamId: string, cached: Cached<S>): boolean {
    const { aggregate, revision, eventId } = cached;
    if (!aggregate.snapshot || !this.snapshots || revision === null || !eventId || this.savingSnapshots.size > 0) return false;
    let body: string;
    try {
      body = JSON.stringify(aggregate.snapshot.write(cached.state));
    } catch (error) {
      this.snapshotOptions.onError(error, streamId); // e.g. a state beyond V8's longest string
      return false;
    }
    const saving = this.snapshots
      .save(streamId, { revision, eventId, version: foldedStateVersion(aggregate.snapshot.version), body })
      .catch((error: unknown) => this.snapshotOptions.onError(error, streamId))
      .finally(() => this.savingSnapshots.delete(saving));
    this.savingSnapshots.add(saving);
    cached.sinceSnapshot = 0;
    return true;
  }

  /**
   * Snapshots the cached streams that went `minEvents` or more past their last snapshot, longest tail
   * first: a process that ran long holds tails that the next cold start would otherwise replay (appends
   * never snapshot). For shutdown, once commands have stopped, when serialising holds no one up.
   * Bounded by SNAPSHOT_LIMITS.atShutdownStreams and atShutdownMs. Returns how many were saved.
   */
  async snapshotLongTails(): Promise<number> {
    const deadline = Date.now() + SNAPSHOT_LIMITS.atShutdownMs;
    const long = [...this.cache].filter(([, c]) => c.sinceSnapshot >= this.snapshotOptions.minEvents).sort(([, a], [, b]) => b.sinceSnapshot - a.sinceSnapshot);
    let taken = 0;
    for (const [streamId] of long.slice(0, SNAPSHOT_LIMITS.atShutdownStreams)) {
      if (Date.now() > deadline) break;
      await this.snapshotsSaved();
      await this.withLocks([streamId], async () => {
        const cached = this.cache.get(streamId);
        if (cached && this.takeSnapshot(streamId, cached)) taken++;
        await this.snapshotsSaved();
      });
    }
    return taken;
  }

  private remember<S>(streamId: string, loaded: Cached<S>): void {
    this.cache.delete(streamId); // re-insert: Map order doubles as least-recently-used order
    this.cache.set(streamId, loaded as unknown as Cached<unknown>);
    if (this.cache.size > LIMITS.cachedStreams) this.cache.delete(this.cache.keys().next().value!);
  }

  /** Runs `fn` holding the in-process locks of every stream named, taken in a fixed order. */
  async withLocks<T>(streamIds: string[], fn: () => Promise<T>): Promise<T> {
    const ordered = [...new Set(streamIds)].sort();
    const acquire = async (i: number): Promise<T> => {
      if (i === ordered.length) return fn();
      const id = ordered[i];
      const previous = this.locks.get(id) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((r) => (release = r));
      const chained = previous.then(() => mine);
      this.locks.set(id, chained);
      await previous;
      try {
        return await acquire(i + 1);
      } finally {
        release();
        if (this.locks.get(id) === chained) this.locks.delete(id);
      }
    };
    return acquire(0);
  }

  /**
   * Decides against the current state and appends. `decide` may be called again after a conflict
   * with another process, against the fresher state. Extra streams are locked too (see callers).
   */
  async execute<S, E extends { type: string; data: unknown }>(
    aggregate: Aggregate<S, E>,
    id: string,
    context: CommandContext,
    decide: (state: S) => Promise<E[]> | E[],
    alsoLock: string[] = [],
  ): Promise<Decided<E>> {
    const streamId = AggregateStore.streamId(aggregate.category, id);
    return this.withLocks([streamId, ...alsoLock], async () => {
      const replay = context.commandId ? await this.alreadyHandled(aggregate, id, context) : undefined;
      if (replay) return replay;
      for (let attempt = 0; ; attempt++) {
        const { loaded, events } = await this.decideCaughtUp(aggregate, id, attempt === 0, decide);
        if (events.length === 0) return { events, position: null };
        const commandId = context.commandId ?? randomUUID();
        const metadata: Omit<EventMetadata, 'schemaVersion'> = {
          organisationId: context.organisationId,
          userId: context.userId,
          clientId: context.clientId,
          correlationId: context.correlationId ?? commandId,
          causationId: commandId,
          ...(context.requestFingerprint ? { requestFingerprint: context.requestFingerprint } : {}),
        };
        try {
          const appended = events.map((e, i) => ({
            id: derivedId(commandId, 'event', String(i)), type: e.type, data: e.data as Record<string, unknown>,
            metadata: { ...metadata, schemaVersion: eventSchemaVersion(e.type) },
          }));
          const result = await this.store.append(streamId, appended, loaded.revision ?? 'no_stream');
          let state = loaded.state;
          try {
            for (const e of events) state = aggregate.evolve(state, e);
          } catch (invariant) {
            // evolve() may have changed the cached state in place before an invariant failed: the next load
            // reads the stream again (and meets the same failure) rather than trusting a half-folded state.
            this.cache.delete(streamId);
            throw invariant;
          }
          this.remember(streamId, {
            state, revision: result.nextExpectedRevision, aggregate: aggregate as Aggregate<S, never>,
            eventId: appended[appended.length - 1].id, sinceSnapshot: loaded.sinceSnapshot + events.length,
          });
          return { events, position: result.position };
        } catch (error) {
          // Another process ran the same command id meanwhile (its event ids are taken): its outcome is ours.
          const raced = context.commandId ? await this.alreadyHandled(aggregate, id, context) : undefined;
          if (raced) return raced;
          if (!(error instanceof WrongExpectedRevision)) throw error;
          if (attempt >= LIMITS.conflictRetries) fail(Errors.concurrencyConflict, { stream: streamId });
          // Another process appended meanwhile: back off a little (jittered, so two writers stop
          // colliding), catch up from the store, then decide again.
          await new Promise((r) => setTimeout(r, Math.random() * LIMITS.conflictBackoffMs * (attempt + 1)));
        }
      }
    });
  }

  /**
   * Optimistic: decides on the cached state when `useCache`, since a stale cache shows up as a conflict
   * when the events are appended. A refusal, or a decision to append nothing, appends nothing to conflict
   * with: decided on the cache, it is answered only once the store agrees, else decided again on the
   * state caught up with other processes' appends (one read of the stream's tail).
   */
  private async decideCaughtUp<S, E extends { type: string; data: unknown }>(
    aggregate: Aggregate<S, E>, id: string, useCache: boolean, decide: (state: S) => Promise<E[]> | E[],
  ): Promise<{ loaded: Cached<S>; events: E[] }> {
    const cached = useCache ? (this.cache.get(AggregateStore.streamId(aggregate.category, id)) as Cached<S> | undefined) : undefined;
    if (cached) {
      const seen = cached.revision;
      let refusal: unknown;
      try {
        const events = await decide(cached.state);
        if (events.length > 0) return { loaded: cached, events };
      } catch (error) {
        refusal = error;
      }
      const loaded = await this.loadEntry(aggregate, id);
      if (loaded.revision === seen) {
        if (refusal !== undefined) throw refusal;
        return { loaded, events: [] };
      }
      return { loaded, events: await decide(loaded.state) };
    }
    const loaded = await this.loadEntry(aggregate, id);
    return { loaded, events: await decide(loaded.state) };
  }

  /**
   * What a command id already recorded, in whichever stream (the same key may have been sent for another
   * exercise): undefined if nothing, the events as recorded if the request is the same, and
   * idempotencyKeyReused if it differs. Needs a store with a lookup by id; without one, execute() still
   * finds a retry in the stream it writes to.
   */
  async recorded<E extends { type: string; data: unknown }>(context: CommandContext): Promise<Decided<E> | undefined> {
    if (!context.commandId || !this.store.findEvent) return undefined;
    const first = await this.store.findEvent(derivedId(context.commandId, 'event', '0'));
    return first ? this.replayOf<E>(first, context) : undefined;
  }

  /** A retried command: its first event's id is derived from the command id. Found, nothing is decided again. */
  private async alreadyHandled<S, E extends { type: string; data: unknown }>(aggregate: Aggregate<S, E>, id: string, context: CommandContext): Promise<Decided<E> | undefined> {
    if (this.store.findEvent) return this.recorded<E>(context);
    // Without a lookup by id, search the tail of the stream as it is now (the command needs it loaded anyway).
    const streamId = AggregateStore.streamId(aggregate.category, id);
    const first = await this.findInTail(streamId, derivedId(context.commandId!, 'event', '0'), (await this.loadHeld(aggregate, id)).revision);
    return first ? this.replayOf<E>(first, context) : undefined;
  }

  /** The events of the command whose first event is `first`, as they were recorded, if the request is the same. */
  private async replayOf<E>(first: RecordedEvent, context: CommandContext): Promise<Decided<E>> {
    const recorded = first.metadata.requestFingerprint;
    const sameCaller = first.metadata.organisationId === context.organisationId;
    // (A command recorded before fingerprints were kept, by 76e5ffb or earlier, has none to compare.)
    if (!sameCaller || (context.requestFingerprint !== undefined && recorded !== undefined && recorded !== context.requestFingerprint)) fail(Errors.idempotencyKeyReused);
    const commandId = context.commandId!;
    const events = (await this.store.readStream(first.streamId, { fromRevision: first.revision, maxCount: 1000 })).filter((e) => e.metadata.causationId === commandId);
    return { events: events.map((e) => ({ type: e.type, data: e.data }) as E), position: events[events.length - 1].position };
  }

  /** Stores without a lookup by id (KurrentDB): a retry comes soon, so search the stream's last 1,000 events. */
  private async findInTail(streamId: string, eventId: string, head: bigint | null): Promise<RecordedEvent | undefined> {
    if (head === null) return undefined;
    const events = await this.store.readStream(streamId, { fromRevision: head > 1000n ? head - 1000n : 0n, maxCount: LIMITS.pageSize });
    return events.find((e) => e.id === eventId);
  }
}
