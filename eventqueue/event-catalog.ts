/**
 * How an area's events reach trigger queues: each event type the area records is either queued, under
 * the object and action consumers filter on (`accountingEntry` / `after.create`), with the record's key
 * (its id) and business id (code, number), or deliberately kept out of queues, with the reason.
 *
 * An event whose data holds a part sealed with a data subject's key (a party's personal fields) is
 * queued as recorded, still sealed, and says how its public data is rendered when the message is read
 * or delivered (`personal`): the personal part in clear while the subject's key exists, nothing of it
 * (neither clear nor sealed) once the key is destroyed.
 */
import type pg from 'pg';

export interface QueueRecordContext {
  object: string;
  event: string;
  key: string;
  id: string;
}

export type Describe = (data: Record<string, any>) => QueueRecordContext;

/** The sealed part of an event's data and how the public data is made from it. */
export interface SealedPart<P = any> {
  /** The data subject whose key sealed the part (the key's owner, the envelope's authenticated data). */
  subjectOf(data: Record<string, any>): string;
  /** The field of `data` holding the sealed part (absent or null: the event carries none). */
  field: string;
  /** The public data: `data` without the sealed field, with `personal` (the part opened) merged in; null when erased. */
  publicData(data: Record<string, any>, personal: P | null): Record<string, unknown>;
}

/** A queued event whose data holds a sealed part. */
export interface QueuedSealed {
  describe: Describe;
  personal: SealedPart;
}

/**
 * A queued event whose data holds internal fields (ours, not the interface's): the queue keeps the data as
 * recorded and consumers read `publicData(data)`, rendered when the message is read or delivered.
 */
export interface QueuedPublic {
  describe: Describe;
  /** `context`: what `readContext` found for this message, when the entry has one and the message needs it. */
  publicData(data: Record<string, any>, context?: unknown): Record<string, unknown>;
  /** What some messages' rendering needs from the read models: entries sharing one read it in one query for a page. */
  readContext?: ContextRead;
}

/** A queued message as rendered: its data and metadata in the current shape. */
export interface QueuedMessage {
  data: Record<string, any>;
  metadata: Record<string, any>;
}

export interface ContextRead {
  /** Whether this message's rendering needs the read models at all (most do not). */
  needs(message: QueuedMessage): boolean;
  /** The context of each message (same order), in one query. */
  read(db: Pick<pg.Pool, 'query'> | pg.PoolClient, messages: QueuedMessage[]): Promise<unknown[]>;
}

/** A queued event whose object depends on its data (a sales document's kind): every `object/action` it may be queued under. */
export interface QueuedUnder {
  describe: Describe;
  under: readonly string[];
}

/** Not queued, and why (a reason a reviewer can check). */
export interface NotQueued {
  notQueued: string;
}

export type CatalogEntry = Describe | QueuedSealed | QueuedPublic | QueuedUnder | NotQueued;

export type EventCatalog<T extends string = string> = Readonly<Record<T, CatalogEntry>>;

export const isQueued = (entry: CatalogEntry): entry is Describe | QueuedSealed | QueuedPublic | QueuedUnder => !('notQueued' in entry);

export const describerOf = (entry: Describe | QueuedSealed | QueuedPublic | QueuedUnder): Describe => (typeof entry === 'function' ? entry : entry.describe);

/** The `object/action` names an entry may be queued under (trigger filters): its own list, or the one of its sample. */
export const filtersOf = (entry: Describe | QueuedSealed | QueuedPublic | QueuedUnder): readonly string[] => {
  if (typeof entry !== 'function' && 'under' in entry) return entry.under;
  const sample = describerOf(entry)({});
  return [`${sample.object}/${sample.event}`];
};

export const sealedPartOf = (entry: CatalogEntry | undefined): SealedPart | undefined =>
  entry && typeof entry !== 'function' && 'personal' in entry ? entry.personal : undefined;

/** How a queued event without a sealed part renders its public data, when it holds internal fields. */
export const publicDataOf = (entry: CatalogEntry | undefined): QueuedPublic['publicData'] | undefined =>
  entry && typeof entry !== 'function' && 'publicData' in entry ? entry.publicData : undefined;

/** What a queued event's rendering reads from the read models, if anything. */
export const contextReadOf = (entry: CatalogEntry | undefined): ContextRead | undefined =>
  entry && typeof entry !== 'function' && 'publicData' in entry ? entry.readContext : undefined;
