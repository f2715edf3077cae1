/**
 * KurrentDB adapter of the event store port (see ../port.ts and ./README.md).
 *
 * KurrentDB already has what the port describes: streams with optimistic concurrency, one global
 * log ($all) with {commit, prepare} positions, idempotent appends keyed on event ids, and catch-up
 * subscriptions. This file only translates between the two vocabularies and adds the batching and
 * back-pressure the port promises to subscribers.
 */
import {
  BACKWARDS,
  END,
  ErrorType,
  FORWARDS,
  KurrentDBClient,
  START as CLIENT_START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  eventTypeFilter,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendStreamState,
  type Filter,
  type Position,
} from '@kurrent/kurrentdb-client';
import {
  LIMITS,
  START,
  WrongExpectedRevision,
  comparePositions,
  matchesFilter,
  type AppendResult,
  type BatchHandler,
  type EventFilter,
  type EventMetadata,
  type EventStore,
  type ExpectedState,
  type GlobalPosition,
  type NewEvent,
  type ReadAllOptions,
  type RecordedEvent,
  type Subscription,
  type SubscriptionOptions,
} from '../port.ts';
import { assertStorableJson } from '../../platform/storable-text.ts';
import { upcastEvent } from '../upcasters.ts';

/** A subscription flushes a partial batch once no event arrived for this long. */
const FLUSH_IDLE_MS = 5;
/** ...but never lets the oldest buffered event wait longer than this (a steady trickle never idles). */
const FLUSH_MAX_LINGER_MS = 100;
/** Smallest readAll page when events must also be filtered here (the server filters one dimension only). */
const MIN_FILTERED_PAGE = 500;
/** Page size when scanning $all backwards for the head. */
const HEAD_PAGE = 32;

/** What the client hands back for one recorded event (JSON and binary variants alike). */
interface ClientRecord {
  streamId: string;
  id: string;
  type: string;
  revision: bigint;
  created: Date;
  isJson: boolean;
  data: unknown;
  metadata: unknown;
  position?: Position;
}

export class KurrentDbEventStore implements EventStore {
  readonly #client: KurrentDBClient;
  readonly #subscriptions = new Set<KurrentSubscription>();
  #closed = false;

  private constructor(client: KurrentDBClient) {
    this.#client = client;
  }

  /** e.g. `kurrentdb://admin:changeit@localhost:2113?tls=false`. The client connects lazily. */
  static connect(connectionString: string): KurrentDbEventStore {
    return new KurrentDbEventStore(KurrentDBClient.connectionString(connectionString));
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedState): Promise<AppendResult> {
    this.#assertOpen();
    if (events.length === 0 || events.length > LIMITS.maxEventsPerAppend) {
      throw new RangeError(`append takes 1..${LIMITS.maxEventsPerAppend} events, got ${events.length}`);
    }
    // KurrentDB keeps any JSON, but the read models and the fan-out (PostgreSQL) could not take it.
    assertStorableJson(streamId, events.flatMap((e) => [JSON.stringify(e.data), JSON.stringify(e.metadata)]));
    try {
      const result = await this.#client.appendToStream(
        streamId,
        events.map((e) => jsonEvent({ id: e.id, type: e.type, data: e.data, metadata: e.metadata })),
        { streamState: toStreamState(expected) },
      );
      // The reply's position is the write's, not necessarily the last event's own $all position (and an
      // idempotent retry gets none), so read that event back: callers compare it with readAll positions.
      const position = await this.#positionOf(streamId, result.nextExpectedRevision);
      return { nextExpectedRevision: result.nextExpectedRevision, position };
    } catch (error) {
      if (isWrongExpectedVersion(error)) {
        throw new WrongExpectedRevision(streamId, expected, error.actualState);
      }
      throw error;
    }
  }

  async readStream(
    streamId: string,
    options: { fromRevision?: bigint; maxCount?: number } = {},
  ): Promise<RecordedEvent[]> {
    this.#assertOpen();
    const fromRevision = options.fromRevision ?? 0n;
    if (fromRevision < 0n) throw new RangeError(`fromRevision must be >= 0, got ${fromRevision}`);
    const maxCount = boundedCount(options.maxCount ?? LIMITS.maxReadCount);
    if (maxCount === 0) return [];

    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of this.#client.readStream(streamId, { fromRevision, direction: FORWARDS, maxCount })) {
        if (resolved.event) out.push(toRecordedEvent(resolved.event));
      }
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    return out;
  }

  /** Every event of a stream, page by page (aggregates are loaded whole); same helper as the PostgreSQL adapter. */
  async readWholeStream(streamId: string): Promise<RecordedEvent[]> {
    const all: RecordedEvent[] = [];
    for (;;) {
      const page = await this.readStream(streamId, { fromRevision: BigInt(all.length), maxCount: LIMITS.maxReadCount });
      all.push(...page);
      if (page.length < LIMITS.maxReadCount) return all;
    }
  }

  /**
   * Reads $all forwards in pages until maxCount matching events or the end. The server applies one
   * filter dimension (and drops system events); matchesFilter applies the full filter here.
   */
  async readAll(from: GlobalPosition, options: ReadAllOptions): Promise<RecordedEvent[]> {
    this.#assertOpen();
    const { filter } = options;
    const maxCount = boundedCount(options.maxCount);
    if (maxCount === 0 || matchesNothing(filter)) return [];

    const serverFilter = toServerFilter(filter);
    const narrowedHere = filter?.eventTypes !== undefined && filter.categories !== undefined;
    const out: RecordedEvent[] = [];
    let cursor = from;
    let atStart = isStart(from); // START is "before everything": nothing to skip yet

    for (;;) {
      const wanted = maxCount - out.length;
      // +1: a forward read from a position returns the event at that position again.
      const pageSize = Math.min(LIMITS.maxReadCount, narrowedHere ? Math.max(wanted + 1, MIN_FILTERED_PAGE) : wanted + 1);
      let advanced = false;
      for await (const resolved of this.#client.readAll({
        fromPosition: atStart ? CLIENT_START : cursor,
        direction: FORWARDS,
        maxCount: pageSize,
        filter: serverFilter,
      })) {
        const record = resolved.event;
        if (!record) continue;
        if (!atStart && comparePositions(record.position, cursor) <= 0) continue; // `from` is exclusive
        cursor = record.position;
        atStart = false;
        advanced = true;
        if (isSystemRecord(record)) continue;
        const event = toRecordedEvent(record);
        if (!matchesFilter(event, filter)) continue;
        out.push(event);
        if (out.length === maxCount) return out;
      }
      // A short page is not proof of the end (filtered reads may stop early); an empty one is.
      if (!advanced) return out;
    }
  }

  /** Position of the newest non-system event, or START when there is none. */
  async headPosition(): Promise<GlobalPosition> {
    this.#assertOpen();
    let before: GlobalPosition | null = null; // null: from the end
    for (;;) {
      let advanced = false;
      for await (const resolved of this.#client.readAll({
        fromPosition: before ?? END,
        direction: BACKWARDS,
        maxCount: HEAD_PAGE,
        filter: excludeSystemEvents(), // drops $-types server-side; $-streams are checked below
      })) {
        const record = resolved.event;
        if (!record) continue;
        if (before !== null && comparePositions(record.position, before) >= 0) continue;
        before = toGlobalPosition(record.position);
        advanced = true;
        if (!isSystemRecord(record)) return toGlobalPosition(record.position);
      }
      if (!advanced) return START;
    }
  }

  subscribeToAll(options: SubscriptionOptions, handler: BatchHandler): Subscription {
    this.#assertOpen();
    const subscription = new KurrentSubscription(this.#client, options, handler, () => this.headPosition());
    this.#subscriptions.add(subscription);
    void subscription.done.finally(() => this.#subscriptions.delete(subscription)).catch(() => {});
    return subscription;
  }

  /** Stops the live subscriptions (their `done` resolves), then releases the client's connections. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#subscriptions].map((s) => s.stop()));
    await this.#client.dispose();
  }

  async #positionOf(streamId: string, revision: bigint): Promise<GlobalPosition> {
    for await (const resolved of this.#client.readStream(streamId, { fromRevision: revision, maxCount: 1 })) {
      if (resolved.event?.position) return toGlobalPosition(resolved.event.position);
    }
    throw new Error(`stream ${streamId}: no log position for revision ${revision} (KurrentDB >= 22.6 needed)`);
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('KurrentDbEventStore is closed');
  }
}

interface Pending {
  event: RecordedEvent;
  seq: number; // ordinal among all events the client stream delivered (skipped ones included)
  arrivedAt: number;
}

/**
 * Wraps the client's catch-up subscription (a Node readable in object mode) into the port's batched,
 * back-pressured one. Events are accumulated in `queue`; the client stream is paused while a full
 * batch waits, and a single pump loop hands batches to the handler one after the other.
 *
 * Caught up: the client emits 'caughtUp' when the server switches to live. At that moment every
 * earlier event has either reached our 'data' listener or still sits in the stream's buffer, so
 * `received + readableLength` is the ordinal of the last event that existed; `caughtUp` resolves once
 * everything up to that ordinal was handed to the handler. Servers older than 23.10 send no such
 * message: then the head position read at start is the mark (reached by an event or a checkpoint).
 */
class KurrentSubscription implements Subscription {
  readonly caughtUp: Promise<void>;
  readonly done: Promise<void>;

  readonly #stream: AllStreamSubscription;
  readonly #handler: BatchHandler;
  readonly #from: GlobalPosition;
  readonly #filter: EventFilter | undefined;
  readonly #batchSize: number;

  #queue: Pending[] = [];
  #received = 0;
  #caughtUpMark: number | null = null;
  #isCaughtUp = false;
  #resolveCaughtUp!: () => void;
  #rejectCaughtUp!: (error: unknown) => void;
  #head: GlobalPosition | null = null; // fallback mark, once read
  #furthestSeen: GlobalPosition | null = null;
  #paused = false;
  #stopped = false;
  #failure: { error: unknown } | null = null;
  #wake: (() => void) | null = null;
  #inHandler = false;

  constructor(
    client: KurrentDBClient,
    options: SubscriptionOptions,
    handler: BatchHandler,
    readHead: () => Promise<GlobalPosition>,
  ) {
    const batchSize = options.batchSize ?? LIMITS.defaultBatchSize;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > LIMITS.maxReadCount) {
      throw new RangeError(`batchSize must be an integer in 1..${LIMITS.maxReadCount}, got ${batchSize}`);
    }
    this.#handler = handler;
    this.#from = options.from;
    this.#filter = options.filter;
    this.#batchSize = batchSize;

    this.caughtUp = new Promise<void>((resolve, reject) => {
      this.#resolveCaughtUp = resolve;
      this.#rejectCaughtUp = reject;
    });
    this.caughtUp.catch(() => {}); // rejection is informative only; never crash the process over it

    this.#stream = client.subscribeToAll({
      fromPosition: isStart(options.from) ? CLIENT_START : options.from, // the client's position is exclusive too
      filter: toServerFilter(options.filter, (_sub, position) => this.#observe(position, null)),
    });
    this.#stream.on('data', (resolved: AllStreamResolvedEvent) => this.#onData(resolved));
    this.#stream.on('caughtUp', () => this.#markCaughtUp(this.#received + this.#stream.readableLength));
    this.#stream.on('error', (error: Error) => this.#fail(error));
    this.#stream.on('end', () => this.#fail(new Error('KurrentDB ended the $all subscription')));

    readHead().then(
      (head) => this.#onHead(head),
      () => {}, // the head is only a fallback for old servers; the 'caughtUp' message may still come
    );

    this.done = this.#run();
    this.done.catch(() => {}); // callers observe `done`; an unobserved rejection must not kill the process
  }

  /**
   * Stops delivery and unsubscribes; resolves once the pump has finished, except when called while a
   * batch is being handled (the handler itself may call stop(), and must not wait for itself).
   */
  async stop(): Promise<void> {
    if (!this.#stopped) {
      this.#stopped = true;
      this.#signal();
      await this.#stream.unsubscribe().catch(() => {});
    }
    if (!this.#inHandler) await this.done.catch(() => {});
  }

  #onData(resolved: AllStreamResolvedEvent): void {
    const seq = ++this.#received;
    const record = resolved.event;
    if (record && !this.#stopped && !this.#failure) {
      this.#observe(record.position, seq);
      if (!isSystemRecord(record) && (isStart(this.#from) || comparePositions(record.position, this.#from) > 0)) {
        try {
          const event = toRecordedEvent(record);
          if (matchesFilter(event, this.#filter)) this.#queue.push({ event, seq, arrivedAt: performance.now() });
        } catch (error) {
          this.#fail(error);
        }
      }
      // Back-pressure: stop the flow while a whole batch waits for the handler.
      if (this.#queue.length >= this.#batchSize && !this.#paused) {
        this.#paused = true;
        this.#stream.pause();
      }
    }
    this.#signal();
  }

  /** Fallback caught-up detection for servers without 'caughtUp': a position at or past the head. */
  #observe(position: Position, seq: number | null): void {
    if (this.#furthestSeen === null || comparePositions(position, this.#furthestSeen) > 0) {
      this.#furthestSeen = toGlobalPosition(position);
    }
    if (this.#head !== null && comparePositions(position, this.#head) >= 0) {
      // An event: it is the mark. A checkpoint: everything received or buffered before it.
      this.#markCaughtUp(seq ?? this.#received + this.#stream.readableLength);
    }
  }

  #onHead(head: GlobalPosition): void {
    this.#head = head;
    if (comparePositions(head, this.#from) <= 0) {
      this.#markCaughtUp(this.#received); // nothing existed after `from`
    } else if (this.#furthestSeen !== null && comparePositions(this.#furthestSeen, head) >= 0) {
      // Already past the head before it was known: marking later than needed is safe, earlier is not.
      this.#markCaughtUp(this.#received + this.#stream.readableLength);
    }
  }

  #markCaughtUp(mark: number): void {
    if (this.#caughtUpMark !== null) return;
    this.#caughtUpMark = mark;
    this.#signal();
  }

  /** True when every event up to the caught-up mark has left the queue. */
  #reachedCaughtUp(): boolean {
    const mark = this.#caughtUpMark;
    if (mark === null || this.#received < mark) return false;
    return this.#queue.length === 0 || this.#queue[0].seq > mark;
  }

  #settleCaughtUp(): void {
    if (this.#isCaughtUp) return;
    this.#isCaughtUp = true;
    this.#resolveCaughtUp();
  }

  async #run(): Promise<void> {
    try {
      await this.#pump();
    } catch (error) {
      this.#failure ??= { error }; // a handler error, or the store error that stopped the pump
      throw error;
    } finally {
      await this.#shutdown();
    }
  }

  async #pump(): Promise<void> {
    for (;;) {
      if (this.#failure) throw this.#failure.error;
      if (this.#stopped) return;

      if (this.#queue.length < this.#batchSize) {
        if (this.#queue.length === 0) {
          if (this.#reachedCaughtUp()) this.#settleCaughtUp();
          await this.#nextSignal();
          continue;
        }
        const now = performance.now();
        const idle = FLUSH_IDLE_MS - (now - this.#lastArrival());
        const linger = FLUSH_MAX_LINGER_MS - (now - this.#queue[0].arrivedAt);
        const wait = Math.min(idle, linger);
        if (wait > 0) {
          await this.#nextSignal(wait);
          continue;
        }
      }

      const batch = this.#queue.splice(0, this.#batchSize);
      if (this.#paused && this.#queue.length < this.#batchSize) {
        this.#paused = false;
        this.#stream.resume(); // prefetch the next batch while this one is handled
      }
      const reached = this.#isCaughtUp || this.#reachedCaughtUp();
      this.#inHandler = true;
      try {
        await this.#handler(batch.map((p) => p.event), { caughtUp: reached });
      } finally {
        this.#inHandler = false;
      }
      if (reached) this.#settleCaughtUp();
    }
  }

  #lastArrival(): number {
    return this.#queue[this.#queue.length - 1].arrivedAt;
  }

  #nextSignal(timeoutMs?: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const wake = (): void => {
        clearTimeout(timer);
        if (this.#wake === wake) this.#wake = null;
        resolve();
      };
      if (timeoutMs !== undefined) timer = setTimeout(wake, timeoutMs);
      this.#wake = wake;
    });
  }

  #signal(): void {
    this.#wake?.();
  }

  #fail(error: unknown): void {
    if (this.#stopped || this.#failure) return;
    this.#failure = { error };
    this.#signal();
  }

  /** Runs once the pump ends (stop, handler error or store error). */
  async #shutdown(): Promise<void> {
    const unsubscribe = !this.#stopped;
    this.#stopped = true;
    if (!this.#isCaughtUp) {
      this.#rejectCaughtUp(this.#failure?.error ?? new Error('subscription stopped before it caught up'));
    }
    this.#queue = [];
    if (unsubscribe) await this.#stream.unsubscribe().catch(() => {});
  }
}

// ---- mapping -------------------------------------------------------------------------------------

function toStreamState(expected: ExpectedState): AppendStreamState {
  if (typeof expected === 'bigint') {
    if (expected < 0n) throw new RangeError(`expected revision must be >= 0, got ${expected}`);
    return expected;
  }
  return expected; // 'no_stream' | 'stream_exists' | 'any' are spelt as the client's constants
}

function toGlobalPosition(position: Position): GlobalPosition {
  return { commit: position.commit, prepare: position.prepare };
}

/** The port's event from the client's record; anything this adapter would not have written is refused loudly. */
function toRecordedEvent(record: ClientRecord): RecordedEvent {
  const where = `event ${record.id} (${record.streamId}@${record.revision})`;
  if (!record.isJson || !isPlainObject(record.data)) throw new Error(`${where}: data is not a JSON object`);
  if (!isPlainObject(record.metadata) || typeof record.metadata.schemaVersion !== 'number') {
    throw new Error(`${where}: metadata is not a JSON object with a numeric schemaVersion`);
  }
  if (!record.position) throw new Error(`${where}: no log position (KurrentDB >= 22.6 needed)`);
  return upcastEvent({
    id: record.id,
    type: record.type,
    data: record.data,
    metadata: record.metadata as EventMetadata,
    streamId: record.streamId,
    revision: record.revision,
    position: toGlobalPosition(record.position),
    recordedAt: record.created,
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** KurrentDB's own events ($-types: links, stats, projections' bookkeeping) or streams ($$metadata, $ce-…). */
function isSystemRecord(record: { type: string; streamId: string }): boolean {
  return record.type.startsWith('$') || record.streamId.startsWith('$');
}

function isStart(position: GlobalPosition): boolean {
  return comparePositions(position, START) === 0;
}

function matchesNothing(filter?: EventFilter): boolean {
  return filter?.eventTypes?.length === 0 || filter?.categories?.length === 0;
}

/**
 * The server filters on event type or on stream name, not both: event types win when both are set
 * (matchesFilter then narrows by category here). Regexes are anchored so `Paid` never matches `PaidBack`
 * and category `order` matches `order` and `order-…` but not `orders-…`.
 */
function toServerFilter(
  filter: EventFilter | undefined,
  checkpointReached?: (subscription: AllStreamSubscription, position: Position) => void,
): Filter {
  // checkpointInterval 1: a checkpoint after every search window, which feeds the caught-up fallback.
  const common = { checkpointInterval: 1, ...(checkpointReached && { checkpointReached }) };
  if (filter?.eventTypes) {
    return eventTypeFilter({ regex: `^(?:${alternation(filter.eventTypes)})$`, ...common });
  }
  if (filter?.categories) {
    return streamNameFilter({ regex: `^(?:${alternation(filter.categories)})(?:-|$)`, ...common });
  }
  return excludeSystemEvents(common);
}

function alternation(names: readonly string[]): string {
  return names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
}

/** Reads are capped at LIMITS.maxReadCount (as in the PostgreSQL adapter); nonsense counts are refused. */
function boundedCount(maxCount: number): number {
  if (!Number.isInteger(maxCount) || maxCount < 0) throw new RangeError(`maxCount must be an integer >= 0, got ${maxCount}`);
  return Math.min(maxCount, LIMITS.maxReadCount);
}

// instanceof alone fails if two copies of the client are installed; the error type tag does not.
function isWrongExpectedVersion(error: unknown): error is WrongExpectedVersionError {
  return (
    error instanceof WrongExpectedVersionError ||
    (error as { type?: unknown } | null)?.type === ErrorType.WRONG_EXPECTED_VERSION
  );
}

function isStreamNotFound(error: unknown): boolean {
  return (
    error instanceof StreamNotFoundError ||
    (error as { type?: unknown } | null)?.type === ErrorType.STREAM_NOT_FOUND
  );
}
