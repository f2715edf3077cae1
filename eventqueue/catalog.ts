/**
 * Which domain events reach trigger queues, and how they are named there: the object and the action
 * (`accountingEntry` / `after.create`), the record's key (its id) and its business id (code, number).
 * Trigger filters are written `object/action`, e.g. `accountingEntry/after.create`.
 */
import type { RecordedEvent } from '../eventstore/port.ts';
import { MODULES } from '../modules/index.ts';
import { describerOf, filtersOf, isQueued, type Describe, type QueuedSealed, type QueueRecordContext } from './event-catalog.ts';

export type { QueueRecordContext };

/** Every queued event type of every area's module, with how its record is named (and its sealed part, if any). */
export const CATALOG: Record<string, Describe | QueuedSealed> = Object.fromEntries(
  MODULES.flatMap((m) => Object.entries(m.events)).filter(([, entry]) => isQueued(entry)) as [string, Describe | QueuedSealed][],
);

export const QUEUED_EVENT_TYPES = Object.keys(CATALOG);

/** Every filter value a trigger may name. */
export const KNOWN_FILTERS = [...new Set(QUEUED_EVENT_TYPES.flatMap((type) => filtersOf(CATALOG[type])))];

export function describe(event: RecordedEvent): QueueRecordContext | undefined {
  const entry = CATALOG[event.type];
  return entry && describerOf(entry)(event.data);
}

/**
 * The payload as queued: the domain event as recorded, a sealed part still sealed (nothing personal is
 * stored in clear in the queue). Consumers get it through publicPayloads (public-payload.ts).
 */
export function payloadOf(event: RecordedEvent): Record<string, unknown> {
  return {
    id: event.id,
    type: event.type,
    streamId: event.streamId,
    revision: event.revision.toString(),
    position: `${event.position.commit}/${event.position.prepare}`,
    recordedAt: event.recordedAt.toISOString(),
    organisationId: event.metadata.organisationId,
    data: event.data,
    metadata: publicMetadata(event.metadata),
  };
}

/**
 * The metadata consumers see: not the request's fingerprint, a hash of the whole input (personal fields
 * included) that only idempotency needs and that would outlive an erasure in every consumer's copy.
 */
export function publicMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  const { requestFingerprint: _, ...shown } = metadata;
  return shown;
}
