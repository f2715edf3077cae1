/**
 * /metrics names every organisation's ids (issue 15, item 11): it is open only on a loopback-only
 * service outside production, needs METRICS_TOKEN anywhere else (the Bearer scheme in any case), is
 * closed without one, and the service says at start which applies. test/metrics.test.ts covers the
 * open case of the default configuration.
 */
import Fastify from 'fastify';
import t from 'tap';
import { metricsAccess } from '../api/metrics-access.ts';
import { metricsPlugin } from '../api/metrics.ts';
import { loadConfig } from '../platform/config.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t, { host: '0.0.0.0' });
const { db } = api.service;
db.pool.on('error', () => {}); // DROP DATABASE ... WITH (FORCE) may end pooled connections first

/** The real metrics plugin on its own HTTP port, configured from these environment variables. */
async function metricsServer(t: { teardown(fn: () => unknown): void }, env: Record<string, string>) {
  const logged: { level: number; msg: string }[] = [];
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => logged.push(JSON.parse(line)) } } });
  await app.register(metricsPlugin, { pool: db.pool, projections: [], processMetrics: false, access: metricsAccess(loadConfig(env)) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const scrape = async (headers: Record<string, string> = {}) => {
    const res = await fetch(`http://127.0.0.1:${(app.server.address() as { port: number }).port}/metrics`, { headers });
    return { status: res.status, text: await res.text() };
  };
  return { scrape, logged: logged.filter((l) => /\/metrics/.test(l.msg)) };
}

t.test('the service listening beyond loopback without METRICS_TOKEN keeps /metrics closed', async (t) => {
  const res = await fetch(`${api.base}/metrics`);
  t.equal(res.status, 403);
  const text = await res.text();
  t.match(text, /METRICS_TOKEN/, 'the answer says what to set');
  t.notMatch(text, api.organisationId, 'no organisation id');
});

t.test('METRICS_TOKEN: required, compared whatever the scheme\'s case', async (t) => {
  const { scrape, logged } = await metricsServer(t, { HOST: '0.0.0.0', METRICS_TOKEN: 'scrape-me-please' });
  t.equal((await scrape()).status, 401, 'no token');
  t.equal((await scrape({ Authorization: 'Bearer scrape-me-not' })).status, 401, 'a wrong token');
  for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
    const ok = await scrape({ Authorization: `${scheme} scrape-me-please` });
    t.equal(ok.status, 200, scheme);
    t.match(ok.text, /^# TYPE ledger_event_queue_depth gauge$/m);
  }
  t.match(logged, [{ level: 30, msg: /needs Authorization: Bearer <METRICS_TOKEN>/ }], 'said at start');
});

t.test('production on loopback without a token: closed, and a warning at start', async (t) => {
  const { scrape, logged } = await metricsServer(t, { HOST: '127.0.0.1', NODE_ENV: 'production' });
  t.equal((await scrape()).status, 403);
  t.match(logged, [{ level: 40, msg: /closed: NODE_ENV=production and METRICS_TOKEN is unset/ }]);
});

t.test('development on loopback: open, and said so at start', async (t) => {
  const { scrape, logged } = await metricsServer(t, { HOST: '127.0.0.1' });
  t.equal((await scrape()).status, 200);
  t.match(logged, [{ level: 30, msg: /open without a token: HOST=127\.0\.0\.1 is loopback only/ }]);
});
