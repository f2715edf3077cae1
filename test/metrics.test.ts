/** /metrics: Prometheus text with queue, webhook and projection metrics, computed at scrape time. */
import t from 'tap';
import { createTrigger } from '../eventqueue/triggers.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { db, mutate, fanout, webhooks } = api.service;
// The helper's DROP DATABASE ... WITH (FORCE) can hit pooled connections still closing: not a test failure.
db.pool.on('error', () => {});
webhooks.configure({ pollIntervalMs: 50, backoffMs: [60_000], jitter: 0 });

const scrape = async () => {
  const res = await fetch(`${api.base}/metrics`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};
/** The value of one sample, found by metric name and a subset of its labels. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

t.test('/metrics answers Prometheus text, without a token', async (t) => {
  const { status, type, text } = await scrape();
  t.equal(status, 200);
  t.match(type, /^text\/plain; version=0\.0\.4/);
  for (const name of ['ledger_event_queue_depth', 'ledger_event_queue_oldest_age_seconds', 'ledger_webhook_deliveries_total', 'ledger_webhook_delivery_failures_total', 'ledger_event_queue_dropped_events_total', 'ledger_projection_lag_seconds', 'ledger_projection_events_behind']) {
    t.match(text, new RegExp(`^# TYPE ${name} (gauge|counter)$`, 'm'), `${name} declared`);
  }
  t.match(text, /^process_cpu_user_seconds_total /m, 'process metrics too');
  for (const projection of ['organisations', 'fanout']) {
    t.equal(sample(text, 'ledger_projection_events_behind', { projection }), 0, `${projection} caught up`);
    t.type(sample(text, 'ledger_projection_lag_seconds', { projection }), 'number');
  }
});

t.test('queue depth and oldest age per trigger and client; webhook failures counted', async (t) => {
  const queue = await createTrigger(db.pool, { organisationId: api.organisationId, type: 'event-queue', clientId: api.clientId });
  // Loopback is not allowed in this service's deliveries (only at this creation): the webhook's attempts fail (refused) and its event stays queued.
  const hook = await createTrigger(db.pool, { organisationId: api.organisationId, type: 'http-post', url: 'http://127.0.0.1:9/hook?token=secret', events: ['accountingEntry/after.create'] }, { allowLoopback: true });
  const year = new Date().getUTCFullYear();
  const entry = await mutate.createAccountingEntryUsingCodes({ organisationId: api.organisationId }, {
    date: `${year}-08-08`, journalTypeCode: 'GEN', accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '8.00' }, { subAccountCode: '1000000', creditAmount: '8.00' }],
  });
  await fanout.waitFor(entry.position);
  for (let waited = 0; waited < 10_000; waited += 50) {
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE trigger_id = $1`, [hook.id]);
    if (rows[0].n > 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 1100));
  const { text } = await scrape();
  const queueLabels = { organisation: api.organisationId, trigger: queue.id, type: 'event-queue', client: api.clientId };
  const hookLabels = { organisation: api.organisationId, trigger: hook.id, type: 'http-post', client: 'http://127.0.0.1:9' };
  t.ok(sample(text, 'ledger_event_queue_depth', queueLabels)! >= 1, 'the pull queue holds the entry (and its accounts)');
  t.equal(sample(text, 'ledger_event_queue_depth', hookLabels), 1, 'the webhook queue holds the entry');
  t.ok(sample(text, 'ledger_event_queue_oldest_age_seconds', queueLabels)! >= 1, 'oldest age grows');
  t.ok(sample(text, 'ledger_event_queue_oldest_age_seconds', hookLabels)! >= 1);
  t.equal(sample(text, 'ledger_event_queue_retrying', hookLabels), 1);
  t.equal(sample(text, 'ledger_event_queue_dropped_events_total', queueLabels), 0);
  t.equal(sample(text, 'ledger_webhook_trigger_disabled', hookLabels), 0);
  t.equal(sample(text, 'ledger_webhook_consecutive_failures', hookLabels), 1);
  t.equal(sample(text, 'ledger_webhook_delivery_failures_total', { trigger: hook.id, reason: 'refused' }), 1, 'the refused attempt counted');
  t.notMatch(text, /token=secret/, 'a webhook URL never shows its path or query');

  // Drops by the retention are reported per trigger.
  await db.pool.query(`INSERT INTO event_queue_drops (trigger_id, dropped) VALUES ($1, 7)`, [queue.id]);
  t.equal(sample((await scrape()).text, 'ledger_event_queue_dropped_events_total', queueLabels), 7);
  // Acknowledged or delivered events leave the gauges.
  await db.pool.query(`DELETE FROM event_queue WHERE trigger_id = $1`, [queue.id]);
  const after = (await scrape()).text;
  t.equal(sample(after, 'ledger_event_queue_depth', queueLabels), 0);
  t.equal(sample(after, 'ledger_event_queue_oldest_age_seconds', queueLabels), 0);
});

t.test('projection lag shows events not applied yet', async (t) => {
  await api.service.fanout.stop();
  const year = new Date().getUTCFullYear();
  const entry = await mutate.createAccountingEntryUsingCodes({ organisationId: api.organisationId }, {
    date: `${year}-08-09`, journalTypeCode: 'GEN', accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '9.00' }, { subAccountCode: '1000000', creditAmount: '9.00' }],
  });
  t.ok(entry.id);
  const { text } = await scrape();
  t.ok(sample(text, 'ledger_projection_events_behind', { projection: 'fanout' })! >= 1, 'the stopped fan-out is behind');
  t.ok(sample(text, 'ledger_projection_lag_seconds', { projection: 'fanout' })! >= 0);
});

t.test('a rebuild under way or interrupted shows how far it got', async (t) => {
  const { pool } = api.service.db;
  await pool.query(`INSERT INTO projection_rebuilds (name, commit_pos, prepare_pos, events_done) VALUES ('entries', '0', 0, 1234)`);
  t.equal(sample((await scrape()).text, 'ledger_projection_rebuild_events_done', { projection: 'entries' }), 1234);
  await pool.query(`DELETE FROM projection_rebuilds WHERE name = 'entries'`);
  t.equal(sample((await scrape()).text, 'ledger_projection_rebuild_events_done', { projection: 'entries' }), undefined, 'absent once done');
});
