/**
 * Fan-out: every queued kind of domain event into the queue of every matching trigger of its
 * organisation. It runs as a projection of its own (checkpoint `fanout`, own daemon), so its queue
 * rows and its checkpoint commit in one transaction: after a crash the batch is redone, and the
 * (trigger, event) uniqueness makes the redo a no-op. It is never rebuilt: queues are not read models.
 *
 * A trigger receives the events after its start (triggers.starts_after_*, or the transactions its
 * creation's snapshot did not see: schema.ts), whenever the fan-out gets to them: one created while the fan-out is stopped or behind gets the same events as if it had
 * been running. Payloads are jsonb: what an event stored by an older version holds that jsonb refuses
 * (a lone surrogate, NUL) is sent as U+FFFD rather than stopping the queue.
 */
import type { RecordedEvent } from '../eventstore/port.ts';
import type { Projection } from '../projections/engine/projection.ts';
import type { Writes } from '../projections/engine/writes.ts';
import { storableJson, storableText } from '../platform/storable-text.ts';
import { QUEUED_EVENT_TYPES, describe, payloadOf } from './catalog.ts';

const text = (v: unknown) => (typeof v === 'string' ? storableText(v) : v);

export const fanoutProjection: Projection = {
  name: 'fanout',
  resources: [],
  eventTypes: QUEUED_EVENT_TYPES,
  apply() {
    throw new Error('fan-out applies whole batches');
  },
  applyBatch(events, writes) {
    enqueue(events, writes);
  },
};

/** Queues `events` for the matching triggers of their organisations (only for `onlyTrigger`, when given: a new trigger's backfill). */
export function enqueue(events: RecordedEvent[], writes: Writes, onlyTrigger?: string): void {
  const rows = events.flatMap((e) => {
    const context = describe(e);
    const organisationId = e.metadata.organisationId;
    return context && organisationId ? [{ e, context, organisationId }] : [];
  });
  if (rows.length === 0) return;
  // Triggers are matched in the same statement, inside the batch's transaction.
  writes.sql(
    `INSERT INTO event_queue (trigger_id, organisation_id, event_id, commit_pos, prepare_pos, object, action, record_key, record_id, payload, recorded_at)
     SELECT t.id, e.org, e.id, e.commit::xid8, e.prepare, e.object, e.action, e.key, e.rid, e.payload, e.recorded_at
     FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[], $9::jsonb[], $10::timestamptz[])
       AS e(org, id, commit, prepare, object, action, key, rid, payload, recorded_at)
     JOIN triggers t ON t.organisation_id = e.org
       AND CASE WHEN t.starts_at_snapshot IS NULL THEN (e.commit::xid8, e.prepare) > (t.starts_after_commit, t.starts_after_prepare)
         ELSE NOT pg_visible_in_snapshot(e.commit::xid8, t.starts_at_snapshot) END
       AND (cardinality(t.events) = 0 OR (e.object || '/' || e.action) = ANY(t.events)) AND ($11::uuid IS NULL OR t.id = $11)
     ORDER BY e.commit::xid8, e.prepare
     ON CONFLICT (trigger_id, event_id) DO NOTHING`,
    [
      rows.map((r) => r.organisationId),
      rows.map((r) => r.e.id),
      rows.map((r) => r.e.position.commit.toString()),
      rows.map((r) => r.e.position.prepare.toString()),
      rows.map((r) => text(r.context.object)),
      rows.map((r) => text(r.context.event)),
      rows.map((r) => text(r.context.key)),
      rows.map((r) => text(r.context.id)),
      rows.map((r) => storableJson(JSON.stringify(payloadOf(r.e)))),
      rows.map((r) => r.e.recordedAt.toISOString()),
      onlyTrigger ?? null,
    ],
  );
}
