/**
 * The event store port: what the rest of the service may ask of an event store.
 * Two adapters implement it (PostgreSQL in ./postgres, KurrentDB in ./kurrentdb) and one contract
 * suite (test/eventstore.contract.ts) proves both.
 */

/** Where a new append expects the stream to stand. A bigint is an exact revision (0-based). */
export type ExpectedState = 'no_stream' | 'stream_exists' | 'any' | bigint;

/**
 * Position in the global order of all events. Two numbers, as KurrentDB has them:
 * PostgreSQL adapter: commit = transaction id (xid8) of the appending transaction, prepare = row sequence.
 * Compare with comparePositions, never by one number alone.
 */
export interface GlobalPosition {
  commit: bigint;
  prepare: bigint;
}

export const START: GlobalPosition = Object.freeze({ commit: 0n, prepare: 0n });

export function comparePositions(a: GlobalPosition, b: GlobalPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function formatPosition(p: GlobalPosition): string {
  return `${p.commit}/${p.prepare}`;
}

export function parsePosition(text: string): GlobalPosition {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) throw new Error(`not a position: ${text} (expected COMMIT/PREPARE)`);
  return { commit: BigInt(m[1]), prepare: BigInt(m[2]) };
}

/** Who did it and why: carried by every event, never used to decide. */
export interface EventMetadata {
  organisationId?: string;
  userId?: string;
  clientId?: string;
  correlationId?: string;
  causationId?: string;
  schemaVersion: number;
  [key: string]: unknown;
}

export interface NewEvent<Type extends string = string, Data = Record<string, unknown>> {
  id: string; // uuid; appending the same ids again is idempotent
  type: Type;
  data: Data;
  metadata: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = Record<string, unknown>>
  extends NewEvent<Type, Data> {
  streamId: string;
  revision: bigint; // 0-based position within its stream
  position: GlobalPosition;
  recordedAt: Date;
}

/**
 * Events as a store keeps them, for bulk readers that decode them on other threads (a rebuild's
 * workers): one buffer that moves between threads without a copy, decoded by recordedSlicesFromBatch
 * (stored-batch.ts) according to its format.
 */
export interface StoredBatch {
  format: 'postgres-copy-binary';
  data: Uint8Array;
  count: number;
  /** The position of the batch's last event (where the next read starts). */
  last: GlobalPosition;
}

export interface AppendResult {
  nextExpectedRevision: bigint; // revision of the last event now in the stream
  position: GlobalPosition; // position of the last appended event
}

export class WrongExpectedRevision extends Error {
  readonly code = 'WRONG_EXPECTED_REVISION';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedState,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`stream ${streamId}: expected ${String(expected)}, found ${String(actual)}`);
  }
}

/** Selects events by type and/or by stream category (the stream id's prefix before the first '-'). */
export interface EventFilter {
  eventTypes?: readonly string[];
  categories?: readonly string[];
}

export function streamCategory(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash === -1 ? streamId : streamId.slice(0, dash);
}

export function matchesFilter(e: { type: string; streamId: string }, f?: EventFilter): boolean {
  if (!f) return true;
  if (f.eventTypes && !f.eventTypes.includes(e.type)) return false;
  if (f.categories && !f.categories.includes(streamCategory(e.streamId))) return false;
  return true;
}

export interface ReadAllOptions {
  maxCount: number; // explicit bound on every read
  filter?: EventFilter;
}

export interface SubscriptionOptions {
  from: GlobalPosition; // exclusive: the first delivered event comes after it
  filter?: EventFilter;
  batchSize?: number; // default 500, max 5000
}

/**
 * Batches arrive in global order, each after the previous handler call resolved (back-pressure).
 * A handler that throws stops the subscription; `done` rejects with that error.
 */
export type BatchHandler = (events: RecordedEvent[], info: { caughtUp: boolean }) => Promise<void>;

export interface Subscription {
  /** Resolves once the subscription has delivered everything that existed when it started. */
  readonly caughtUp: Promise<void>;
  /** Settles when the subscription ends: resolves after stop(), rejects on a handler or store error. */
  readonly done: Promise<void>;
  stop(): Promise<void>;
}

export interface EventStore {
  append(streamId: string, events: readonly NewEvent[], expected: ExpectedState): Promise<AppendResult>;
  readStream(streamId: string, options?: { fromRevision?: bigint; maxCount?: number }): Promise<RecordedEvent[]>;
  /** Events strictly after `from`, in global order, never skipping one that commits later below the head. */
  readAll(from: GlobalPosition, options: ReadAllOptions): Promise<RecordedEvent[]>;
  /** The position of the last event visible to readAll now (START when empty). */
  headPosition(): Promise<GlobalPosition>;
  /**
   * The last event committed (matching `filter`), visible to readAll yet or not (START when none), where a
   * store holds commits back from readers (PostgreSQL's horizon); headPosition is that already elsewhere.
   */
  committedHead?(filter?: EventFilter): Promise<GlobalPosition>;
  subscribeToAll(options: SubscriptionOptions, handler: BatchHandler): Subscription;
  /** readAll's events as the store keeps them (see StoredBatch), where it can hand them over so; undefined when none are left. */
  readAllStored?(from: GlobalPosition, options: ReadAllOptions): Promise<StoredBatch | undefined>;
  /** The event with this id, if the store can look it up directly (idempotent command retries). */
  findEvent?(eventId: string): Promise<RecordedEvent | undefined>;
  /** The organisations' hash chains (the auditor's trail), where the store keeps them; absent: not supported by this store. */
  readonly chain?: AuditChain;
  close(): Promise<void>;
}

/** The last link of an organisation's hash chain. */
export interface ChainHead {
  eventId: string;
  position: GlobalPosition;
  /** sha256, hex. */
  hash: string;
  /** Links in the chain: the last one's seq. */
  eventCount: bigint;
}

/** One link as stored: the hash kept for it and the event it names (by position and id). */
export interface ChainLink {
  seq: bigint;
  eventId: string;
  position: GlobalPosition;
  /** sha256, hex, as stored. */
  hash: string;
}

/** The first link of a seq range that does not hold, and why. */
export interface ChainBreak {
  seq?: bigint;
  eventId: string;
  position: GlobalPosition;
  reason: string;
}

/** Each organisation's events chained by hash, in the order its appends committed (seq 1, 2, ...), not global order. */
export interface AuditChain {
  /** Undefined when the organisation has no events. */
  head(organisationId: string): Promise<ChainHead | undefined>;
  /** The link at seq, as stored (undefined when there is none). */
  link(organisationId: string, seq: bigint): Promise<ChainLink | undefined>;
  /**
   * Recomputes the links fromSeq ≤ seq ≤ toSeq (at most 25,000) from their events and the stored hash before each:
   * the lowest one that does not hold (a gap, its event missing or another organisation's, its hash not its content's).
   */
  check(organisationId: string, fromSeq: bigint, toSeq: bigint): Promise<ChainBreak | undefined>;
  /** The organisation's first event (global order) that no link of its own chain names: one stored around the chain. */
  unlinked(organisationId: string): Promise<{ eventId: string; position: GlobalPosition } | undefined>;
}

export const LIMITS = Object.freeze({
  maxEventsPerAppend: 1000,
  maxReadCount: 5000,
  defaultBatchSize: 500,
});
