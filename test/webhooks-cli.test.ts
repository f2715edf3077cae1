/** The operator CLI for triggers and queues, run as a real process against the test service's database. */
import { execFile } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
import t from 'tap';
import { deleteTrigger } from '../eventqueue/triggers.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t, { webhookAllowLoopback: true });
const { db, mutate, fanout, webhooks, identity } = api.service;
// The helper's DROP DATABASE ... WITH (FORCE) can hit pooled connections still closing: not a test failure.
db.pool.on('error', () => {});
webhooks.configure({ pollIntervalMs: 50, backoffMs: [200], jitter: 0, maxPauseMs: 200 });

const env = { ...process.env, DATABASE_URL: db.url, DEMO: '0', LOG_LEVEL: 'error', WEBHOOK_ALLOW_LOOPBACK: '1' };
async function ledger(...args: string[]) {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'cli/ledger.ts', ...args, '--json'], { env, cwd: process.cwd() });
  return JSON.parse(stdout);
}
async function ledgerFails(...args: string[]): Promise<string> {
  const error = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'cli/ledger.ts', ...args], { env, cwd: process.cwd() }).then(() => undefined, (e) => e);
  if (!error) throw new Error(`ledger ${args.join(' ')} succeeded`);
  return error.stderr as string;
}

t.test('trigger create, list, queue status, redrive, delete', async (t) => {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    req.resume();
    res.writeHead(503).end('down');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
  const other = await identity.createClient('CLI queue app', 'http://127.0.0.1:9/cb', false);

  const [created, queue, badEvent] = await Promise.all([
    ledger('trigger', 'create', '--org', api.organisationId, '--type', 'http-post', '--url', url, '--events', 'accountingEntry/after.create'),
    ledger('trigger', 'create', '--org', api.organisationId, '--type', 'event-queue', '--client-id', other.client_id),
    ledgerFails('trigger', 'create', '--org', api.organisationId, '--type', 'http-post', '--url', url, '--events', 'nothing/after.create'),
  ]);
  t.same(Object.keys(created).sort(), ['id', 'secret'], 'an http-post trigger prints its id and secret');
  t.match(created.secret, /^whsec_/);
  t.same(Object.keys(queue), ['id'], 'an event-queue trigger prints only its id');
  t.match(badEvent, /^ledger trigger create: --events 'nothing\/after\.create' is not supported; each one of: accountingEntry\/after\.create, /, 'a readable error');
  t.teardown(() => deleteTrigger(db.pool, api.organisationId, created.id));

  const year = new Date().getUTCFullYear();
  const entry = await mutate.createAccountingEntryUsingCodes({ organisationId: api.organisationId }, {
    date: `${year}-09-09`, journalTypeCode: 'GEN', accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '9.00' }, { subAccountCode: '1000000', creditAmount: '9.00' }],
  });
  await fanout.waitFor(entry.position);
  for (let waited = 0; requests === 0 && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  await db.pool.query(`UPDATE triggers SET disabled_at = now(), disabled_reason = 'by test' WHERE id = $1`, [created.id]);

  const human = async (...args: string[]) => (await promisify(execFile)(process.execPath, ['--import', 'tsx', 'cli/ledger.ts', ...args], { env, cwd: process.cwd() })).stdout;
  const [listed, status, table] = await Promise.all([
    ledger('trigger', 'list', '--org', api.organisationId), ledger('queue', 'status', '--org', api.organisationId), human('queue', 'status'),
  ]);
  t.match(table, /^trigger\s+type\s+client \/ url\s+depth\s+oldest\s+leased\s+dropped\s+state$/m, 'a table for people');
  t.match(table, new RegExp(`^${created.id}  http-post .* 1 +\\d+\\.\\ds +0 +0  DISABLED since .*: by test$`, 'm'));
  t.ok(listed.triggers.some((x: any) => x.id === created.id && x.url === url && x.disabledReason === 'by test'));
  t.ok(listed.triggers.some((x: any) => x.id === queue.id && x.clientId === other.client_id));
  const mine = status.triggers.find((s: any) => s.triggerId === created.id);
  t.match(mine, { type: 'http-post', url, depth: 1, retrying: 1, dropped: 0, disabledReason: 'by test' });
  t.ok(mine.oldestAgeSeconds >= 0 && mine.disabledAt && mine.consecutiveFailures >= 1);
  t.match(status.triggers.find((s: any) => s.triggerId === queue.id), { type: 'event-queue', clientId: other.client_id, depth: 1, leased: 0, disabledAt: null });

  const [redriven, deleted] = await Promise.all([
    ledger('trigger', 'redrive', '--org', api.organisationId, '--id', created.id),
    ledger('trigger', 'delete', '--org', api.organisationId, '--id', queue.id),
  ]);
  t.match(redriven, { id: created.id, wasDisabled: true, disabledReason: 'by test', requeued: 1 });
  t.same(deleted, { id: queue.id, deleted: true });
  const row = (await db.pool.query(`SELECT disabled_at, consecutive_failures FROM triggers WHERE id = $1`, [created.id])).rows[0];
  t.equal(row.disabled_at, null, 're-enabled');
  const before = requests;
  for (let waited = 0; requests === before && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  t.ok(requests > before, 'and its event is attempted again');
});
