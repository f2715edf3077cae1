/** Per-trigger queue state, for `ledger queue status` and the /metrics gauges. */
import type pg from 'pg';

export interface TriggerQueueStatus {
  organisationId: string;
  triggerId: string;
  type: 'event-queue' | 'http-post';
  clientId: string | null;
  url: string | null;
  /** Events waiting (leased or not). */
  depth: number;
  /** Events held by a live lease (a listed batch, or a webhook attempt in flight). */
  leased: number;
  /** Events that failed at least one attempt (webhooks) or were listed before (queues). */
  retrying: number;
  /** Seconds since the oldest waiting event entered the queue (0 when empty). */
  oldestAgeSeconds: number;
  /** Events dropped by the retention so far. */
  dropped: number;
  disabledAt: string | null;
  disabledReason: string | null;
  consecutiveFailures: number;
}

export async function queueStatus(pool: pg.Pool, organisationId?: string): Promise<TriggerQueueStatus[]> {
  const { rows } = await pool.query(
    `SELECT t.id, t.organisation_id, t.type, t.client_id, t.url, t.disabled_at, t.disabled_reason, t.consecutive_failures,
       coalesce(q.depth, 0) AS depth, coalesce(q.leased, 0) AS leased, coalesce(q.retrying, 0) AS retrying,
       coalesce(q.oldest_age, 0) AS oldest_age, coalesce(d.dropped, 0) AS dropped
     FROM triggers t
     LEFT JOIN (
       SELECT trigger_id, count(*) AS depth, count(*) FILTER (WHERE leased_until > now()) AS leased,
         count(*) FILTER (WHERE attempts > 0) AS retrying, extract(epoch FROM now() - min(enqueued_at)) AS oldest_age
       FROM event_queue GROUP BY trigger_id) q ON q.trigger_id = t.id
     LEFT JOIN event_queue_drops d ON d.trigger_id = t.id
     WHERE $1::uuid IS NULL OR t.organisation_id = $1::uuid
     ORDER BY t.organisation_id, t.created_at, t.id`,
    [organisationId ?? null],
  );
  return rows.map((r) => ({
    organisationId: r.organisation_id, triggerId: r.id, type: r.type, clientId: r.client_id, url: r.url,
    depth: Number(r.depth), leased: Number(r.leased), retrying: Number(r.retrying), oldestAgeSeconds: Math.max(0, Number(r.oldest_age)),
    dropped: Number(r.dropped), disabledAt: r.disabled_at ? new Date(r.disabled_at).toISOString() : null, disabledReason: r.disabled_reason,
    consecutiveFailures: r.consecutive_failures,
  }));
}
