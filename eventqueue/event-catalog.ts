/**
 * How an area's events reach trigger queues: each event type the area records is either queued, under
 * the object and action consumers filter on (`accountingEntry` / `after.create`), with the record's key
 * (its id) and business id (code, number), or deliberately kept out of queues, with the reason.
 */
export interface QueueRecordContext {
  object: string;
  event: string;
  key: string;
  id: string;
}

export type Describe = (data: Record<string, any>) => QueueRecordContext;

/** Not queued, and why (a reason a reviewer can check). */
export interface NotQueued {
  notQueued: string;
}

export type EventCatalog<T extends string = string> = Readonly<Record<T, Describe | NotQueued>>;

export const isQueued = (entry: Describe | NotQueued): entry is Describe => typeof entry === 'function';
