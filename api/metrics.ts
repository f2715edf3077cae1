/**
 * `GET /metrics` in the Prometheus text format, on the service's own HOST:PORT (no separate listener).
 * Open, token-protected or closed as metrics-access.ts decides from HOST, NODE_ENV and METRICS_TOKEN; the
 * decision is logged when the plugin starts.
 *
 * Queue and projection gauges are computed from SQL at scrape time, so every process reports the shared
 * truth; delivery counters are this process's own (prom-client counters; Prometheus sums processes).
 * Its own Registry: nothing global, several services in one process (tests) do not collide.
 */
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import client from 'prom-client';
import type { AttemptReport, WebhookDispatcher } from '../eventqueue/webhooks/dispatcher.ts';
import { queueStatus } from '../eventqueue/webhooks/status.ts';
import type { ProjectionDaemon } from '../projections/engine/daemon.ts';
import type { Projection } from '../projections/engine/projection.ts';
import { listParked } from '../projections/engine/parked.ts';
import { projectionStatus } from '../projections/engine/rebuild.ts';
import { sameHash, sha256 } from './auth/identity.ts';
import { bearerToken } from './auth/request.ts';
import type { MetricsAccess } from './metrics-access.ts';
import { describeOnly } from './openapi.ts';

export interface MetricsOptions {
  pool: pg.Pool;
  /** Projections whose lag is reported (the read models and the fan-out). */
  projections: Projection[];
  /** This process's daemons: which projections they set aside (stopped on a fault, or rebuilding to a new version). */
  daemons?: ProjectionDaemon[];
  webhooks?: WebhookDispatcher;
  /** Who may scrape (metricsAccess(config)). */
  access: MetricsAccess;
  /** Node.js process metrics (event loop lag, heap, GC); default on. */
  processMetrics?: boolean;
}

const QUEUE_LABELS = ['organisation', 'trigger', 'type', 'client'] as const;

/** The `client` label: the OAuth client of a pull queue, the origin (never path or query) of a webhook. */
function clientLabel(s: { clientId: string | null; url: string | null }): string {
  if (s.clientId) return s.clientId;
  try {
    return new URL(s.url ?? '').origin;
  } catch {
    return '';
  }
}

export function createMetrics(options: MetricsOptions) {
  const registry = new client.Registry();
  if (options.processMetrics !== false) client.collectDefaultMetrics({ register: registry });
  const gauge = (name: string, help: string, labelNames: readonly string[]) => new client.Gauge({ name, help, labelNames, registers: [registry] });
  const depth = gauge('ledger_event_queue_depth', 'Events waiting in a trigger queue (leased or not).', QUEUE_LABELS);
  const oldest = gauge('ledger_event_queue_oldest_age_seconds', 'Seconds since the oldest waiting event of a trigger queue was enqueued (0 when empty).', QUEUE_LABELS);
  const leased = gauge('ledger_event_queue_leased', 'Events of a trigger queue held by a live lease (listed batch or webhook attempt in flight).', QUEUE_LABELS);
  const retrying = gauge('ledger_event_queue_retrying', 'Events of a trigger queue that already had an attempt (webhook retries, re-listed batches).', QUEUE_LABELS);
  const disabled = gauge('ledger_webhook_trigger_disabled', '1 when a webhook trigger is disabled (needs a redrive).', QUEUE_LABELS);
  const failing = gauge('ledger_webhook_consecutive_failures', 'Consecutive failed delivery attempts of a webhook trigger.', QUEUE_LABELS);
  const dropped = new client.Counter({ name: 'ledger_event_queue_dropped_events_total', help: 'Events dropped from a trigger queue by the retention.', labelNames: QUEUE_LABELS, registers: [registry] });
  const behind = gauge('ledger_projection_events_behind', 'Events a projection has not applied yet.', ['projection']);
  const lag = gauge('ledger_projection_lag_seconds', 'Age of the oldest event a projection has not applied yet (0 when caught up).', ['projection']);
  const parked = gauge('ledger_projection_parked_events', 'Events of an organisation a projection holds behind one it could not apply, that one included (absent when none; ledger projections retry).', ['projection', 'organisation']);
  const outdated = gauge('ledger_projection_version_outdated', '1 when a read model\'s tables are of another version than the code\'s (rebuilt in the background, or READ_MODEL_UPGRADE=refuse).', ['projection']);
  const setAside = gauge('ledger_projection_set_aside', '1 when this process does not apply a projection: stopped on a fault of its own (tried again by itself), or rebuilding to a new version (absent otherwise).', ['projection', 'reason']);
  const rebuilt = gauge('ledger_projection_rebuild_events_done', 'Events a rebuild under way or interrupted has applied to its shadow tables (absent when none).', ['projection']);
  const deliveries = new client.Counter({ name: 'ledger_webhook_deliveries_total', help: 'Webhook events delivered (2xx) by this process.', labelNames: ['organisation', 'trigger'], registers: [registry] });
  const failures = new client.Counter({
    name: 'ledger_webhook_delivery_failures_total', help: 'Failed webhook attempts by this process, by reason (http_4xx, http_429, http_5xx, http_3xx, timeout, network, refused).',
    labelNames: ['organisation', 'trigger', 'reason'], registers: [registry],
  });
  const disabledTotal = new client.Counter({ name: 'ledger_webhook_triggers_disabled_total', help: 'Webhook triggers this process disabled (410 or a long run of failures).', labelNames: ['organisation', 'trigger'], registers: [registry] });
  const duration = new client.Histogram({
    name: 'ledger_webhook_attempt_duration_seconds', help: 'Duration of webhook attempts by this process.', labelNames: ['outcome'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [registry],
  });

  const onAttempt = (r: AttemptReport) => {
    const labels = { organisation: r.organisationId, trigger: r.triggerId };
    if (r.ok) deliveries.inc(labels);
    else failures.inc({ ...labels, reason: r.outcome });
    if (r.disabled) disabledTotal.inc(labels);
    duration.observe({ outcome: r.ok ? 'delivered' : 'failed' }, r.durationMs / 1000);
  };
  options.webhooks?.on('attempt', onAttempt);

  async function refresh(): Promise<void> {
    const [queues, projections, held] = await Promise.all([
      queueStatus(options.pool), projectionStatus(options.pool, options.projections), listParked(options.pool, options.projections.map((p) => p.name)),
    ]);
    for (const m of [depth, oldest, leased, retrying, disabled, failing, behind, lag, rebuilt, parked, outdated, setAside]) m.reset();
    for (const daemon of options.daemons ?? []) {
      for (const [projection, aside] of Object.entries(daemon.health().setAside ?? {})) setAside.set({ projection, reason: aside.reason }, 1);
    }
    for (const p of held) parked.set({ projection: p.projection, organisation: p.organisationId }, p.heldEvents + 1);
    dropped.reset();
    for (const q of queues) {
      const labels = { organisation: q.organisationId, trigger: q.triggerId, type: q.type, client: clientLabel(q) };
      depth.set(labels, q.depth);
      oldest.set(labels, q.oldestAgeSeconds);
      leased.set(labels, q.leased);
      retrying.set(labels, q.retrying);
      dropped.inc(labels, q.dropped);
      if (q.type === 'http-post') {
        disabled.set(labels, q.disabledAt ? 1 : 0);
        failing.set(labels, q.consecutiveFailures);
      }
    }
    for (const p of projections) {
      behind.set({ projection: p.name }, Math.max(0, p.eventsBehind));
      lag.set({ projection: p.name }, Math.max(0, p.lagSeconds));
      if (p.rebuild) rebuilt.set({ projection: p.name }, p.rebuild.eventsDone);
      // (Only read models have versions: the fan-out writes queues, never rebuilt.)
      if (options.projections.find((x) => x.name === p.name)?.resources.length) outdated.set({ projection: p.name }, p.version.stored === p.version.code ? 0 : 1);
    }
  }

  // One scrape at a time: a refresh resets the gauges the other would be reading.
  let last: Promise<unknown> = Promise.resolve();
  async function scrape(): Promise<string> {
    const run = last.catch(() => {}).then(async () => {
      await refresh();
      return registry.metrics();
    });
    last = run;
    return run;
  }

  return { registry, scrape, close: () => options.webhooks?.off('attempt', onAttempt) };
}

export async function metricsPlugin(app: FastifyInstance, options: MetricsOptions): Promise<void> {
  const metrics = createMetrics(options);
  const { access } = options;
  if (access.kind === 'closed') app.log.warn(access.reason);
  else app.log.info(access.reason);
  app.addHook('onClose', async () => metrics.close());
  describeOnly(app);
  const refused = { type: 'object', required: ['error'], properties: { error: { type: 'string' } } };
  const schema = {
    summary: 'Prometheus metrics: queues, webhooks, projections, the process.',
    tags: ['service'],
    description: 'Open, behind METRICS_TOKEN (Authorization: Bearer), or closed, as the configuration decides.',
    security: [{}, { bearer: [] }] as Array<Record<string, string[]>>,
    response: {
      200: { description: 'The Prometheus text format.', content: { 'text/plain': { schema: { type: 'string' } } } },
      401: { description: 'METRICS_TOKEN is required and was not sent.', ...refused },
      403: { description: 'Metrics are closed on this address (metrics-access.ts).', ...refused },
    },
  };
  app.get('/metrics', { schema }, async (request, reply) => {
    if (access.kind === 'closed') return reply.code(403).send({ error: access.reason });
    if (access.kind === 'token') {
      const given = bearerToken(request.headers.authorization);
      // Digests compared in constant time: the token's length and prefix do not leak.
      if (!given || !sameHash(sha256(given), sha256(access.token))) {
        return reply.code(401).header('www-authenticate', 'Bearer realm="metrics"').send({ error: 'send Authorization: Bearer <METRICS_TOKEN>' });
      }
    }
    const body = await metrics.scrape();
    return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(body);
  });
}
