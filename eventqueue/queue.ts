/**
 * The pull queue of one OAuth client within one organisation (SQS-like): `list` leases up to `size`
 * events as a batch with a new ackId; `ack` deletes the batch's events; a batch not acknowledged within
 * its lease comes back, in a new batch with a new ackId. Concurrent consumers never hold the same
 * event in two live batches (rows are picked FOR UPDATE SKIP LOCKED and leased in one statement).
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { comparePositions } from '../eventstore/port.ts';
import { inTransaction } from '../platform/database.ts';
import { isUuid } from '../domain/ids.ts';
import { publicPayloads } from './public-payload.ts';

export const QUEUE_LIMITS = Object.freeze({ defaultListSize: 100, maxListSize: 1000, defaultLeaseSeconds: 60, defaultRetentionDays: 7, sweepBatch: 10_000 });

export interface QueueOwner {
  organisationId: string;
  clientId: string;
}

export interface QueuedEvent {
  eventId: string;
  eventType: 'pull';
  contentType: 'application/json';
  clientContext: string;
  payload: string;
}

const base64Json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

const OWNED = `q.trigger_id = (SELECT id FROM triggers WHERE type = 'event-queue' AND organisation_id = $1 AND client_id = $2)`;

export async function countQueued(pool: pg.Pool, owner: QueueOwner): Promise<number> {
  const { rows } = await pool.query(`SELECT count(*)::int AS n FROM event_queue q WHERE ${OWNED}`, [owner.organisationId, owner.clientId]);
  return rows[0].n;
}

export async function listBatch(pool: pg.Pool, owner: QueueOwner, size: number, leaseSeconds: number): Promise<{ ackId: string | null; events: QueuedEvent[] }> {
  if (!Number.isInteger(size) || size < 1 || size > QUEUE_LIMITS.maxListSize) throw new RangeError(`size must be 1..${QUEUE_LIMITS.maxListSize}`);
  const ackId = randomUUID();
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query(
      `WITH picked AS (
         SELECT q.id FROM event_queue q
         WHERE ${OWNED} AND (q.leased_until IS NULL OR q.leased_until < now())
         ORDER BY q.commit_pos, q.prepare_pos
         LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE event_queue q SET batch_id = $4, leased_until = now() + make_interval(secs => $5), attempts = q.attempts + 1
       FROM picked WHERE q.id = picked.id
       RETURNING q.trigger_id, q.event_id, q.object, q.action, q.record_key, q.record_id, q.payload, q.commit_pos, q.prepare_pos`,
      [owner.organisationId, owner.clientId, size, ackId, leaseSeconds],
    );
    if (rows.length === 0) return { ackId: null, events: [] };
    // UPDATE ... RETURNING does not keep the picked order: restore commit order.
    const at = (r: { commit_pos: string; prepare_pos: string }) => ({ commit: BigInt(r.commit_pos), prepare: BigInt(r.prepare_pos) });
    rows.sort((a, b) => comparePositions(at(a), at(b)));
    await client.query(
      `INSERT INTO event_batches (ack_id, trigger_id, event_count, leased_until) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
      [ackId, rows[0].trigger_id, rows.length, leaseSeconds],
    );
    // Rendered now, not when queued: a party erased meanwhile is listed without its personal data.
    const payloads = await publicPayloads(client, rows.map((r) => r.payload));
    return {
      ackId,
      events: rows.map((r, i) => ({
        eventId: r.event_id,
        eventType: 'pull' as const,
        contentType: 'application/json' as const,
        clientContext: base64Json({ object: r.object, event: r.action, key: r.record_key, id: r.record_id }),
        payload: base64Json(payloads[i]),
      })),
    };
  });
}

export type AckStatus = 'success' | 'notFound' | 'expired' | 'alreadyAcknowledged';

export async function acknowledge(pool: pg.Pool, owner: QueueOwner, ackId: string): Promise<{ status: AckStatus; events: number }> {
  if (!isUuid(ackId)) return { status: 'notFound', events: 0 };
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query(
      `SELECT b.ack_id, b.leased_until < now() AS expired, b.acked_at IS NOT NULL AS acked, b.event_count FROM event_batches b
       JOIN triggers t ON t.id = b.trigger_id
       WHERE b.ack_id = $1 AND t.organisation_id = $2 AND t.client_id = $3 FOR UPDATE OF b`,
      [ackId, owner.organisationId, owner.clientId],
    );
    const batch = rows[0];
    if (!batch) return { status: 'notFound', events: 0 };
    if (batch.acked) return { status: 'alreadyAcknowledged', events: 0 };
    if (batch.expired) return { status: 'expired', events: 0 };
    const deleted = await client.query(`DELETE FROM event_queue WHERE batch_id = $1`, [ackId]);
    await client.query(`UPDATE event_batches SET acked_at = now() WHERE ack_id = $1`, [ackId]);
    return { status: 'success', events: deleted.rowCount ?? 0 };
  });
}

/** Drops queued events older than the retention, counting them per trigger; bounded per call. */
export async function sweepExpired(pool: pg.Pool, retentionDays: number): Promise<number> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query(
      `WITH old AS (
         DELETE FROM event_queue WHERE id IN (
           SELECT id FROM event_queue WHERE enqueued_at < now() - make_interval(days => $1) LIMIT $2)
         RETURNING trigger_id),
       counted AS (SELECT trigger_id, count(*) AS n FROM old GROUP BY trigger_id),
       recorded AS (
         INSERT INTO event_queue_drops (trigger_id, dropped) SELECT trigger_id, n FROM counted
         ON CONFLICT (trigger_id) DO UPDATE SET dropped = event_queue_drops.dropped + excluded.dropped)
       SELECT n FROM counted`,
      [retentionDays, QUEUE_LIMITS.sweepBatch],
    );
    await client.query(`DELETE FROM event_batches WHERE leased_until < now() - interval '1 day'`);
    return rows.reduce((sum, r) => sum + Number(r.n), 0);
  });
}
