/**
 * Operator actions on webhook triggers: redrive (re-enable a disabled trigger and make its queued events
 * due now) and the delivery log (every attempt, newest first).
 */
import type pg from 'pg';
import { BusinessError, Errors } from '../../domain/errors.ts';
import { isUuid } from '../../domain/ids.ts';
import { inTransaction } from '../../platform/database.ts';

export interface RedriveResult {
  id: string;
  /** Whether the trigger was disabled before (and why). */
  wasDisabled: boolean;
  disabledReason: string | null;
  /** Queued events made due now. */
  requeued: number;
}

/**
 * Re-enables an http-post trigger, resets its failure count and makes every queued event due now (with a
 * fresh backoff ladder). Events leased right now keep their lease (their attempt is in flight).
 * `undefined` when the organisation has no such trigger.
 */
export async function redriveTrigger(pool: pg.Pool, organisationId: string, id: string): Promise<RedriveResult | undefined> {
  if (!isUuid(id)) return undefined;
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query(`SELECT type, disabled_at, disabled_reason FROM triggers WHERE organisation_id = $1 AND id = $2 FOR UPDATE`, [organisationId, id]);
    const trigger = rows[0];
    if (!trigger) return undefined;
    if (trigger.type !== 'http-post') throw new BusinessError(Errors.invalidInput, { field: 'id', reason: 'only http-post triggers are delivered by the dispatcher and can be redriven; event-queue events wait for their consumer' });
    await client.query(`UPDATE triggers SET disabled_at = NULL, disabled_reason = NULL, consecutive_failures = 0 WHERE id = $1`, [id]);
    const requeued = await client.query(`UPDATE event_queue SET next_attempt_at = now(), attempts = 0 WHERE trigger_id = $1`, [id]);
    return { id, wasDisabled: trigger.disabled_at !== null, disabledReason: trigger.disabled_reason, requeued: requeued.rowCount ?? 0 };
  });
}

export interface DeliveryAttempt {
  id: string;
  eventId: string;
  attempt: number;
  statusCode: number | null;
  delivered: boolean;
  error: string | null;
  durationMs: number;
  at: string;
}

export const DELIVERY_LOG_LIMITS = Object.freeze({ defaultLimit: 20, maxLimit: 200 });

/** One page of a trigger's delivery log, newest first; `undefined` when the organisation has no such trigger. */
export async function listDeliveries(
  pool: pg.Pool,
  organisationId: string,
  triggerId: string,
  page: { limit?: number; offset?: number } = {},
): Promise<{ total: number; items: DeliveryAttempt[] } | undefined> {
  if (!isUuid(triggerId)) return undefined;
  const { rows: found } = await pool.query(`SELECT 1 FROM triggers WHERE organisation_id = $1 AND id = $2`, [organisationId, triggerId]);
  if (found.length === 0) return undefined;
  const limit = Math.min(Math.max(1, Math.floor(page.limit ?? DELIVERY_LOG_LIMITS.defaultLimit)), DELIVERY_LOG_LIMITS.maxLimit);
  const offset = Math.min(Math.max(0, Math.floor(page.offset ?? 0)), Number.MAX_SAFE_INTEGER); // within bigint, whatever a caller passes
  const [{ rows: count }, { rows }] = await Promise.all([
    pool.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE trigger_id = $1`, [triggerId]),
    pool.query(`SELECT * FROM webhook_deliveries WHERE trigger_id = $1 ORDER BY delivered_at DESC, id DESC LIMIT $2 OFFSET $3`, [triggerId, limit, offset]),
  ]);
  return {
    total: count[0].n,
    items: rows.map((r) => ({
      id: String(r.id), eventId: r.event_id, attempt: r.attempt, statusCode: r.status_code,
      delivered: r.status_code !== null && r.status_code >= 200 && r.status_code < 300 && r.error === null,
      error: r.error, durationMs: r.duration_ms, at: new Date(r.delivered_at).toISOString(),
    })),
  };
}
