/**
 * The webhook dispatcher: delivers the event_queue rows of enabled http-post triggers.
 *
 * - Leasing: every poll (and at once when work frees up) it leases due rows (`next_attempt_at <= now()`,
 *   no live lease) with FOR UPDATE SKIP LOCKED, the oldest of each trigger first, a few per trigger, so
 *   any number of service processes can run it side by side and never hold one row twice.
 * - Sending: one lane per trigger (`perTriggerConcurrency` requests at a time, started oldest first:
 *   per-organisation order is best-effort), `concurrency` requests at most overall; each attempt re-vets
 *   the target (SSRF, target.ts), is signed by the Standard Webhooks spec and has `attemptTimeoutMs`.
 * - Outcome: 2xx deletes the row, logs the attempt and resets the trigger's consecutive failures (these
 *   writes are batched: one transaction for whatever was delivered while the previous one committed). Anything
 *   else (refused target, network error, timeout, non-2xx) logs the attempt, counts a failure on the row
 *   (`attempts`) and on the trigger, and schedules the row again after the backoff ladder's step (or the
 *   receiver's `Retry-After` on 429/5xx). The trigger's other leased rows go back to the queue and the
 *   trigger rests a little (`maxPauseMs`), so a dead endpoint is not hammered with the whole backlog.
 * - Disabling: on 410 Gone at once; otherwise after `disableAfterFailures` consecutive failures spanning
 *   at least `disableAfterMs`. Its events stay queued (until the retention drops them) for a redrive.
 * - At-least-once: a row is deleted only after its 2xx; a crash mid-request leaves the lease to expire and
 *   the event is sent again (receivers dedupe on `webhook-id`, the event id).
 */
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { inTransaction } from '../../platform/database.ts';
import { publicPayloads } from '../public-payload.ts';
import { DEFAULT_BACKOFF_MS, honoursRetryAfter, parseRetryAfter, retryDelayMs } from './backoff.ts';
import { newAgents, postOnce, type Agents } from './send.ts';
import { webhookHeaders } from './signature.ts';
import { TargetRefused, resolveTarget, type Resolver } from './target.ts';

export interface DispatcherOptions {
  /** Loopback targets allowed (WEBHOOK_ALLOW_LOOPBACK=1: tests, local use); other private ranges never. */
  allowLoopback: boolean;
  pollIntervalMs: number;
  /** Rows leased per poll, at most (and held locally at most). */
  batchSize: number;
  /** Rows of one trigger leased per poll, at most. */
  perTriggerBatch: number;
  /** How long leased rows are ours (at least 3 attempt timeouts); rows not started in time go back. */
  leaseMs: number;
  /** Requests in flight overall. */
  concurrency: number;
  /** Requests in flight to one trigger. */
  perTriggerConcurrency: number;
  attemptTimeoutMs: number;
  /** Wait after the 1st, 2nd, ... failure of an event; the last step repeats. */
  backoffMs: readonly number[];
  /** Spread of each wait, +-fraction. */
  jitter: number;
  /** Longest `Retry-After` obeyed; longer ones are cut to this. */
  maxRetryAfterMs: number;
  /** After a failure, the trigger's other events wait at most this long (or the failed event's backoff if shorter). */
  maxPauseMs: number;
  disableAfterFailures: number;
  disableAfterMs: number;
  /** Delivery log rows older than this are deleted. */
  logRetentionDays: number;
  /** DNS for target checks (tests inject one). */
  resolver?: Resolver;
}

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = Object.freeze({
  allowLoopback: false,
  pollIntervalMs: 500,
  batchSize: 200,
  perTriggerBatch: 50,
  leaseMs: 60_000,
  concurrency: 32,
  perTriggerConcurrency: 4,
  attemptTimeoutMs: 10_000,
  backoffMs: DEFAULT_BACKOFF_MS,
  jitter: 0.2,
  maxRetryAfterMs: 8 * 3_600_000,
  maxPauseMs: 60_000,
  disableAfterFailures: 20,
  disableAfterMs: 24 * 3_600_000,
  logRetentionDays: 30,
});

interface LeasedRow {
  id: string;
  triggerId: string;
  organisationId: string;
  eventId: string;
  object: string;
  action: string;
  payload: unknown;
  attempts: number;
  url: string;
  secret: string;
  /** The lease's token: the exact `leased_until` we set (a later lease of the row sets a later one). */
  lease: string;
  /** performance.now() until which our lease surely holds. */
  validUntil: number;
}

export interface AttemptReport {
  organisationId: string;
  triggerId: string;
  eventId: string;
  attempt: number;
  ok: boolean;
  status: number | null;
  /** 'delivered' | 'http_4xx' | 'http_429' | 'http_5xx' | 'http_3xx' | 'timeout' | 'network' | 'refused' */
  outcome: string;
  error: string | null;
  durationMs: number;
  disabled?: string;
}

interface Outcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  outcome: string;
  retryAfterMs?: number;
  gone?: boolean;
  shutdown?: boolean;
}

interface PendingSuccess {
  row: LeasedRow;
  status: number;
  durationMs: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Lane {
  queued: LeasedRow[];
  inFlight: number;
}

const statusOutcome = (status: number) => (status === 429 ? 'http_429' : status >= 500 ? 'http_5xx' : status >= 400 ? 'http_4xx' : status >= 300 ? 'http_3xx' : 'http_other');

const oneLine = (s: string, max = 300) => s.replace(/\s+/g, ' ').trim().slice(0, max);

function withSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Locks the trigger row before touching its queue rows: the same order as a trigger's deletion (which
 * cascades to its queue) and a redrive, so recording an attempt never deadlocks with them. False when
 * the trigger is gone.
 */
async function lockTrigger(client: pg.PoolClient, triggerId: string): Promise<boolean> {
  const { rowCount } = await client.query(`SELECT 1 FROM triggers WHERE id = $1 FOR NO KEY UPDATE`, [triggerId]);
  return (rowCount ?? 0) > 0;
}

/** Emits 'attempt' (AttemptReport) after every recorded attempt and 'disabled' ({ triggerId, reason }). */
export class WebhookDispatcher extends EventEmitter {
  readonly options: DispatcherOptions;
  private readonly lanes = new Map<string, Lane>();
  private readonly paused = new Map<string, number>(); // trigger -> Date.now() until which it rests
  private readonly inFlight = new Set<Promise<void>>();
  private readonly writes = new Set<Promise<void>>();
  private readonly successes: PendingSuccess[] = [];
  private flushing: Promise<void> | undefined;
  private readonly controllers = new Set<AbortController>();
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private again = false;
  private lastPrune = 0;
  private readonly agents: Agents = newAgents();

  constructor(
    private readonly pool: pg.Pool,
    options: Partial<DispatcherOptions> = {},
    private readonly log: (msg: string, extra?: object) => void = () => {},
  ) {
    super();
    this.options = { ...DEFAULT_DISPATCHER_OPTIONS, ...options };
  }

  /** Changes options of a running dispatcher (tests shorten the timings). */
  configure(options: Partial<DispatcherOptions>): void {
    Object.assign(this.options, options);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops leasing, aborts requests in flight and hands every held row back to the queue. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearTimeout(this.timer);
    for (const controller of this.controllers) controller.abort(new Error('dispatcher stopping'));
    await this.ticking?.catch(() => {});
    await Promise.allSettled([...this.inFlight]);
    while (this.writes.size > 0) await Promise.allSettled([...this.writes]);
    const held = [...this.lanes.values()].flatMap((l) => l.queued.splice(0));
    await this.release(held).catch(() => {});
    this.lanes.clear();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** Polls now instead of at the next interval; clears a trigger's rest (after a redrive). */
  wake(triggerId?: string): void {
    if (triggerId) this.paused.delete(triggerId);
    else this.paused.clear();
    if (this.running) this.schedule(0);
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    if (this.ticking) {
      if (ms === 0) this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), ms);
    this.timer.unref?.();
  }

  private tick(): void {
    this.ticking = (async () => {
      try {
        await this.lease();
        await this.prune();
      } catch (error) {
        if (this.running) this.log('webhook dispatcher: poll failed', { error: String(error) });
      }
    })();
    this.ticking.finally(() => {
      this.ticking = undefined;
      const again = this.again;
      this.again = false;
      this.schedule(again ? 0 : this.options.pollIntervalMs);
    });
  }

  private heldCount(): number {
    let n = 0;
    for (const lane of this.lanes.values()) n += lane.queued.length;
    return n;
  }

  private leaseMs(): number {
    return Math.max(this.options.leaseMs, 3 * this.options.attemptTimeoutMs);
  }

  /** A lane holding fewer rows than this asks for more, so it never runs dry between polls. */
  private lowWater(): number {
    return 2 * this.options.perTriggerConcurrency;
  }

  /** Leases due rows for triggers that hold few rows here and are not resting (held rows are leased: skipped). */
  private async lease(): Promise<void> {
    const o = this.options;
    const room = o.batchSize - this.heldCount();
    if (room <= 0 || !this.running) return;
    const now = Date.now();
    for (const [id, until] of this.paused) if (until <= now) this.paused.delete(id);
    if (this.paused.size > 0) {
      // A trigger reset elsewhere (a redrive, or a success in another process) rests no longer.
      const { rows } = await this.pool.query(`SELECT id FROM triggers WHERE id = ANY($1::uuid[]) AND consecutive_failures = 0 AND disabled_at IS NULL`, [[...this.paused.keys()]]);
      for (const r of rows) this.paused.delete(r.id);
    }
    const holding = [...this.lanes].filter(([, lane]) => lane.queued.length > 0).map(([id]) => id);
    if (holding.length > 0) {
      // A trigger deleted or disabled meanwhile (by another process): its held rows are not sent.
      const { rows: live } = await this.pool.query(`SELECT id FROM triggers WHERE id = ANY($1::uuid[]) AND disabled_at IS NULL`, [holding]);
      const alive = new Set(live.map((r) => r.id as string));
      for (const id of holding.filter((h) => !alive.has(h))) await this.release(this.lanes.get(id)?.queued.splice(0) ?? []);
    }
    const busy = [...this.lanes].filter(([, lane]) => lane.queued.length >= this.lowWater()).map(([id]) => id);
    const excluded = [...new Set([...busy, ...this.paused.keys()])];
    const leaseMs = this.leaseMs();
    const { rows } = await this.pool.query(
      `WITH picked AS (
         SELECT q.id FROM (
           SELECT id FROM triggers
           WHERE type = 'http-post' AND disabled_at IS NULL AND NOT (id = ANY($1::uuid[]))
           ORDER BY random()) t
         CROSS JOIN LATERAL (
           SELECT q.id FROM event_queue q
           WHERE q.trigger_id = t.id AND q.next_attempt_at <= now() AND (q.leased_until IS NULL OR q.leased_until < now())
           ORDER BY q.commit_pos, q.prepare_pos
           LIMIT $2
           FOR UPDATE OF q SKIP LOCKED) q
         LIMIT $3)
       UPDATE event_queue q SET leased_until = now() + make_interval(secs => $4)
       FROM picked, triggers t
       WHERE q.id = picked.id AND t.id = q.trigger_id
       RETURNING q.id, q.trigger_id, q.organisation_id, q.event_id, q.object, q.action, q.payload, q.attempts,
         q.commit_pos::text AS commit_pos, q.prepare_pos, q.leased_until::text AS lease, t.url, t.secret`,
      [excluded, o.perTriggerBatch, room, leaseMs / 1000],
    );
    if (rows.length === 0) return;
    const validUntil = performance.now() + leaseMs - 5_000;
    rows.sort((a, b) => {
      const c = BigInt(a.commit_pos) - BigInt(b.commit_pos);
      return c !== 0n ? (c < 0n ? -1 : 1) : Number(BigInt(a.prepare_pos) - BigInt(b.prepare_pos));
    });
    if (!this.running) {
      await this.release(rows.map((r) => ({ id: r.id, lease: r.lease })));
      return;
    }
    for (const r of rows) {
      const lane = this.lanes.get(r.trigger_id) ?? { queued: [], inFlight: 0 };
      this.lanes.set(r.trigger_id, lane);
      lane.queued.push({
        id: r.id, triggerId: r.trigger_id, organisationId: r.organisation_id, eventId: r.event_id, object: r.object, action: r.action,
        payload: r.payload, attempts: r.attempts, url: r.url, secret: r.secret, lease: r.lease, validUntil,
      });
    }
    this.pump();
    // A full lease means more is probably due: poll again as soon as there is room.
    if (rows.length >= room) this.again = true;
  }

  /** Starts requests while there is room, oldest first within each trigger, triggers taken in turn. */
  private pump(): void {
    const o = this.options;
    let started = true;
    while (started && this.running) {
      started = false;
      for (const [triggerId, lane] of this.lanes) {
        if (this.inFlight.size >= o.concurrency) return;
        if (lane.queued.length === 0 || lane.inFlight >= o.perTriggerConcurrency) continue;
        const row = lane.queued.shift()!;
        if (performance.now() + o.attemptTimeoutMs > row.validUntil) {
          // Our lease might lapse mid-request and another process send it too: leave it to the queue.
          this.release([row]).catch(() => {});
          started = true;
          continue;
        }
        lane.inFlight++;
        const job: Promise<void> = this.deliver(row)
          .catch((error) => this.log('webhook dispatcher: recording an attempt failed', { error: String(error), triggerId }))
          .finally(() => {
            lane.inFlight--;
            this.inFlight.delete(job);
            if (lane.inFlight === 0 && lane.queued.length === 0) this.lanes.delete(triggerId);
            if (!this.running) return;
            this.pump();
            // The lane runs low: fetch its next events now rather than at the next interval.
            if (lane.queued.length < this.lowWater()) this.schedule(0);
          });
        this.inFlight.add(job);
        started = true;
      }
    }
  }

  private async attempt(row: LeasedRow): Promise<Outcome> {
    const o = this.options;
    // One controller per attempt, aborted by its timeout or by stop(). (Not AbortSignal.any() with a
    // long-lived stop signal: that leaks in Node, nodejs/node#55351.)
    const controller = new AbortController();
    const signal = controller.signal;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`timeout after ${o.attemptTimeoutMs} ms`));
    }, o.attemptTimeoutMs);
    this.controllers.add(controller);
    try {
      const target = await withSignal(resolveTarget(row.url, { allowLoopback: o.allowLoopback, resolver: o.resolver }), signal);
      const body = JSON.stringify(row.payload);
      const headers = { ...webhookHeaders(row.secret, row.eventId, body), 'webhook-event': `${row.object}/${row.action}` };
      const res = await postOnce(target, headers, body, signal, this.agents);
      if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status, error: null, outcome: 'delivered' };
      const retryAfterMs = honoursRetryAfter(res.status) ? parseRetryAfter(res.retryAfter) : undefined;
      const detail = res.snippet ? `: ${oneLine(res.snippet, 200)}` : '';
      const redirect = res.status >= 300 && res.status < 400 ? ' (redirects are not followed)' : '';
      return { ok: false, status: res.status, error: `HTTP ${res.status}${redirect}${detail}`, outcome: statusOutcome(res.status), retryAfterMs, gone: res.status === 410 };
    } catch (error) {
      if (!this.running && !timedOut) return { ok: false, status: null, error: null, outcome: 'shutdown', shutdown: true };
      if (error instanceof TargetRefused) return { ok: false, status: null, error: error.message, outcome: 'refused' };
      if (timedOut) return { ok: false, status: null, error: `timeout: no answer within ${o.attemptTimeoutMs} ms`, outcome: 'timeout' };
      const e = error as { code?: string; message?: string };
      return { ok: false, status: null, error: `network error: ${oneLine([e.code, e.message].filter(Boolean).join(' '))}`, outcome: 'network' };
    } finally {
      clearTimeout(timer);
      this.controllers.delete(controller);
    }
  }

  private async deliver(leased: LeasedRow): Promise<void> {
    // Rendered for each attempt, just before it is sent: a party erased a moment ago goes without its personal data.
    // A failure here is ours, not the receiver's: nothing is recorded against the trigger, and the row comes back
    // when its lease lapses.
    let row: LeasedRow;
    try {
      const [payload] = await publicPayloads(this.pool, [leased.payload as Record<string, unknown>]);
      row = { ...leased, payload };
    } catch (error) {
      this.log('webhook dispatcher: rendering a payload failed; it is sent again after its lease', { error: String(error), triggerId: leased.triggerId, eventId: leased.eventId });
      return;
    }
    const started = performance.now();
    const result = await this.attempt(row);
    const durationMs = Math.round(performance.now() - started);
    if (result.shutdown) {
      await this.release([row]).catch(() => {});
      return;
    }
    const attempt = row.attempts + 1;
    const report: AttemptReport = {
      organisationId: row.organisationId, triggerId: row.triggerId, eventId: row.eventId, attempt,
      ok: result.ok, status: result.status, outcome: result.outcome, error: result.error, durationMs,
    };
    if (result.ok) {
      // The request slot frees now; the row's deletion joins the next batched write (group commit).
      this.paused.delete(row.triggerId);
      this.track(this.recordSuccess(row, result.status!, durationMs).then(
        () => {
          this.emit('attempt', report);
        },
        (error) => this.log('webhook dispatcher: recording deliveries failed (they will be sent again)', { error: String(error) }),
      ));
      return;
    }
    try {
      report.disabled = await this.recordFailure(row, result, durationMs);
    } catch (error) {
      if ((error as { code?: string }).code === '23503') return; // the trigger was deleted meanwhile
      throw error;
    }
    this.emit('attempt', report);
    if (report.disabled) {
      this.log('webhook trigger disabled', { triggerId: row.triggerId, reason: report.disabled });
      this.emit('disabled', { triggerId: row.triggerId, organisationId: row.organisationId, reason: report.disabled });
    }
  }

  private track(write: Promise<void>): void {
    this.writes.add(write);
    write.finally(() => this.writes.delete(write));
  }

  /** Queues a delivered row for the next batched write; resolves once it is committed. */
  private recordSuccess(row: LeasedRow, status: number, durationMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.successes.push({ row, status, durationMs, resolve, reject });
      this.flushSuccesses();
    });
  }

  /** One write at a time; what arrives meanwhile goes into the next one (at most 500 rows each). */
  private flushSuccesses(): void {
    if (this.flushing || this.successes.length === 0) return;
    const batch = this.successes.splice(0, 500);
    this.flushing = this.writeSuccesses(batch).then(
      () => batch.forEach((b) => b.resolve()),
      (error) => batch.forEach((b) => b.reject(error)),
    ).finally(() => {
      this.flushing = undefined;
      this.flushSuccesses();
    });
  }

  /** Deletes delivered rows, logs their attempts and resets their triggers' failure runs, in one transaction. */
  private async writeSuccesses(batch: PendingSuccess[]): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      // Trigger rows first (shared lock): the order of a trigger's deletion and of a redrive, so no deadlock.
      const { rows } = await client.query(`SELECT id FROM triggers WHERE id = ANY($1::uuid[]) ORDER BY id FOR KEY SHARE`, [[...new Set(batch.map((b) => b.row.triggerId))]]);
      const live = new Set(rows.map((r) => r.id as string));
      await client.query(`DELETE FROM event_queue WHERE id = ANY($1::bigint[])`, [batch.map((b) => b.row.id)]);
      const logged = batch.filter((b) => live.has(b.row.triggerId));
      if (logged.length === 0) return;
      await client.query(
        `INSERT INTO webhook_deliveries (trigger_id, event_id, attempt, status_code, error, duration_ms)
         SELECT t, e, a, s, NULL, d FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::int[], $5::int[]) AS x(t, e, a, s, d)`,
        [logged.map((b) => b.row.triggerId), logged.map((b) => b.row.eventId), logged.map((b) => b.row.attempts + 1), logged.map((b) => b.status), logged.map((b) => b.durationMs)],
      );
      await client.query(`UPDATE triggers SET consecutive_failures = 0 WHERE id = ANY($1::uuid[]) AND consecutive_failures <> 0`, [[...live]]);
    });
  }

  /** Returns the reason when this failure disabled the trigger. */
  private async recordFailure(row: LeasedRow, result: Outcome, durationMs: number): Promise<string | undefined> {
    const o = this.options;
    const failures = row.attempts + 1;
    let delay = retryDelayMs(failures, o.backoffMs, o.jitter);
    if (result.retryAfterMs !== undefined) delay = Math.min(result.retryAfterMs, o.maxRetryAfterMs);
    const disabled = await inTransaction(this.pool, async (client) => {
      if (!(await lockTrigger(client, row.triggerId))) return undefined;
      await client.query(`INSERT INTO webhook_deliveries (trigger_id, event_id, attempt, status_code, error, duration_ms) VALUES ($1, $2, $3, $4, $5, $6)`, [
        row.triggerId, row.eventId, failures, result.status, result.error, durationMs,
      ]);
      await client.query(
        `UPDATE event_queue SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => $3), leased_until = NULL
         WHERE id = $1 AND leased_until = $2::timestamptz`,
        [row.id, row.lease, delay / 1000],
      );
      const { rows } = await client.query(`UPDATE triggers SET consecutive_failures = consecutive_failures + 1 WHERE id = $1 RETURNING consecutive_failures, disabled_at`, [row.triggerId]);
      const trigger = rows[0];
      if (!trigger || trigger.disabled_at) return undefined;
      let reason: string | undefined;
      if (result.gone) reason = `the endpoint answered 410 Gone`;
      else if (trigger.consecutive_failures >= o.disableAfterFailures) {
        // The run began at the oldest of the last `consecutive_failures` attempts (all failures).
        const { rows: first } = await client.query(
          `SELECT extract(epoch FROM now() - delivered_at) * 1000 AS ms, delivered_at FROM webhook_deliveries WHERE trigger_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1`,
          [row.triggerId, trigger.consecutive_failures - 1],
        );
        const spanMs = first[0] ? Number(first[0].ms) : Infinity;
        if (spanMs >= o.disableAfterMs) {
          const since = first[0] ? ` since ${new Date(first[0].delivered_at).toISOString()}` : '';
          reason = `${trigger.consecutive_failures} consecutive failed attempts${since}; last: ${result.error}`;
        }
      }
      if (!reason) return undefined;
      await client.query(`UPDATE triggers SET disabled_at = now(), disabled_reason = $2 WHERE id = $1 AND disabled_at IS NULL`, [row.triggerId, reason.slice(0, 1000)]);
      return reason;
    });
    // The endpoint is failing: hand the trigger's other held rows back and let it rest a little.
    this.paused.set(row.triggerId, Date.now() + Math.min(delay, o.maxPauseMs));
    const lane = this.lanes.get(row.triggerId);
    if (lane) await this.release(lane.queued.splice(0));
    return disabled;
  }

  /** Ends our lease on rows not attempted (no attempt counted). */
  private async release(rows: Pick<LeasedRow, 'id' | 'lease'>[]): Promise<void> {
    if (rows.length === 0) return;
    await this.pool.query(
      `UPDATE event_queue q SET leased_until = NULL
       FROM unnest($1::bigint[], $2::timestamptz[]) AS r(id, lease) WHERE q.id = r.id AND q.leased_until = r.lease`,
      [rows.map((r) => r.id), rows.map((r) => r.lease)],
    );
  }

  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < 600_000) return;
    this.lastPrune = Date.now();
    await this.pool.query(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE delivered_at < now() - make_interval(days => $1) LIMIT 10000)`,
      [this.options.logRetentionDays],
    );
  }
}
