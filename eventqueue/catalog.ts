/**
 * Which domain events reach trigger queues, and how they are named there: the object and the action
 * (`accountingEntry` / `after.create`), the record's key (its id) and its business id (code, number).
 * Trigger filters are written `object/action`, e.g. `accountingEntry/after.create`.
 */
import type { RecordedEvent } from '../eventstore/port.ts';

export interface QueueRecordContext {
  object: string;
  event: string;
  key: string;
  id: string;
}

type Describe = (data: Record<string, any>) => QueueRecordContext;

export const CATALOG: Record<string, Describe> = {
  AccountingEntryPosted: (d) => ({ object: 'accountingEntry', event: 'after.create', key: d.entryId, id: String(d.number) }),
  AccountingEntryDeleted: (d) => ({ object: 'accountingEntry', event: 'after.delete', key: d.entryId, id: String(d.number) }),
  AccountingAccountCreated: (d) => ({ object: 'accountingAccount', event: 'after.create', key: d.accountId, id: d.code }),
  AccountingAccountUpdated: (d) => ({ object: 'accountingAccount', event: 'after.update', key: d.accountId, id: d.accountId }),
  AccountingAccountDeleted: (d) => ({ object: 'accountingAccount', event: 'after.delete', key: d.accountId, id: d.code }),
  JournalTypeCreated: (d) => ({ object: 'journalType', event: 'after.create', key: d.journalTypeId, id: d.code }),
  JournalTypeUpdated: (d) => ({ object: 'journalType', event: 'after.update', key: d.journalTypeId, id: d.journalTypeId }),
  JournalTypeDeleted: (d) => ({ object: 'journalType', event: 'after.delete', key: d.journalTypeId, id: d.code }),
  AccountingExerciseCreated: (d) => ({ object: 'accountingExercise', event: 'after.create', key: d.exerciseId, id: String(d.exercise) }),
  AccountingExerciseClosed: (d) => ({ object: 'accountingExercise', event: 'after.close', key: d.exerciseId, id: d.exerciseId }),
  AccountingPeriodClosed: (d) => ({ object: 'accountingPeriod', event: 'after.close', key: d.periodId, id: d.periodId }),
  AccountingPeriodReopened: (d) => ({ object: 'accountingPeriod', event: 'after.reopen', key: d.periodId, id: d.periodId }),
};

export const QUEUED_EVENT_TYPES = Object.keys(CATALOG);

/** Every filter value a trigger may name. */
export const KNOWN_FILTERS = [...new Set(QUEUED_EVENT_TYPES.map((type) => {
  const sample = CATALOG[type]({});
  return `${sample.object}/${sample.event}`;
}))];

export function describe(event: RecordedEvent): QueueRecordContext | undefined {
  return CATALOG[event.type]?.(event.data);
}

/** The payload consumers decode: the domain event as recorded. */
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
    metadata: event.metadata,
  };
}
