/**
 * SSRF protection: without WEBHOOK_ALLOW_LOOPBACK no request leaves for a private, loopback, link-local,
 * unique-local, multicast, reserved or CGNAT address (nor their IPv4-mapped forms); each refusal is a
 * failed attempt with a clear error in the delivery log. The address classification is checked too.
 */
import http from 'node:http';
import t from 'tap';
import { parseRetryAfter, retryDelayMs } from '../eventqueue/webhooks/backoff.ts';
import { sign } from '../eventqueue/webhooks/signature.ts';
import { TargetRefused, refusedRange, resolveTarget } from '../eventqueue/webhooks/target.ts';
import { createTrigger } from '../eventqueue/triggers.ts';
import { Webhook } from 'standardwebhooks';
import { runningService } from './helpers/service.ts';

t.test('address classification', async (t) => {
  const refused: Record<string, string> = {
    '10.0.0.1': 'private', '172.16.5.4': 'private', '192.168.1.1': 'private', '127.0.0.1': 'loopback', '127.8.9.10': 'loopback',
    '169.254.169.254': 'linkLocal', '100.64.0.1': 'carrierGradeNat', '0.0.0.0': 'unspecified', '0.1.2.3': 'unspecified',
    '224.0.0.1': 'multicast', '255.255.255.255': 'broadcast', '240.0.0.1': 'reserved', '192.0.2.1': 'reserved', '198.18.0.1': 'reserved',
    '::': 'unspecified', '::1': 'loopback', 'fe80::1': 'linkLocal', 'fe80::1%eth0': 'linkLocal', 'fd00::1': 'uniqueLocal', 'fc00::1': 'uniqueLocal',
    'ff02::1': 'multicast', '::ffff:127.0.0.1': 'loopback', '::ffff:10.0.0.1': 'private', '::ffff:169.254.169.254': 'linkLocal',
    '::127.0.0.1': 'loopback', '::7f00:1': 'reserved', '::a00:1': 'reserved', '::1:2': 'reserved', '4000::1': 'reserved', '64:ff9b::a00:1': 'rfc6052', '2002:a00:1::': '6to4', '2001:db8::1': 'reserved', 'fec0::1': 'deprecatedSiteLocal', '100::1': 'discard',
  };
  for (const [address, range] of Object.entries(refused)) t.equal(refusedRange(address), range, `${address} refused (${range})`);
  for (const address of ['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4007:80f::200e', '::ffff:8.8.8.8']) {
    t.equal(refusedRange(address), undefined, `${address} allowed`);
  }
  t.equal(refusedRange('127.0.0.1', true), undefined, 'loopback allowed by configuration');
  t.equal(refusedRange('::1', true), undefined);
  t.equal(refusedRange('::ffff:127.0.0.1', true), undefined);
  t.equal(refusedRange('10.0.0.1', true), 'private', 'and only loopback');
  t.equal(refusedRange('169.254.169.254', true), 'linkLocal');
  t.equal(refusedRange('not an ip'), 'unparseable');
});

t.test('resolveTarget vets every address of a name and the URL itself', async (t) => {
  const resolver = async (host: string) =>
    ({
      'public.test': [{ address: '93.184.216.34', family: 4 }],
      'mixed.test': [{ address: '93.184.216.34', family: 4 }, { address: '192.168.0.10', family: 4 }],
      'metadata.test': [{ address: '169.254.169.254', family: 4 }],
    })[host] ?? Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' }));
  const ok = await resolveTarget('https://public.test/hook', { resolver });
  t.match(ok, { hostname: 'public.test', address: '93.184.216.34', family: 4 });
  await t.rejects(resolveTarget('https://mixed.test/', { resolver }), /192\.168\.0\.10 \(mixed\.test resolves to it\) is in the private range/);
  await t.rejects(resolveTarget('https://metadata.test/', { resolver }), /linkLocal/);
  await t.rejects(resolveTarget('https://nowhere.test/', { resolver }), /does not resolve \(ENOTFOUND\)/);
  await t.rejects(resolveTarget('http://2130706433/'), /127\.0\.0\.1 is in the loopback range/, 'numeric host forms are normalised first');
  await t.rejects(resolveTarget('http://0x7f.1/'), /loopback/);
  await t.rejects(resolveTarget('http://[::ffff:7f00:1]/'), /loopback/);
  await t.rejects(resolveTarget('ftp://public.test/', { resolver }), /not http/);
  await t.rejects(resolveTarget('http://user:pw@public.test/', { resolver }), /credentials/);
  const refusal = await resolveTarget('http://localhost/').catch((e) => e);
  t.ok(refusal instanceof TargetRefused, 'localhost resolves to loopback and is refused');
  t.match(refusal.message, /WEBHOOK_ALLOW_LOOPBACK/);
  t.match(await resolveTarget('http://[::1]:8080/', { allowLoopback: true }), { hostname: '::1', address: '::1', family: 6 });
});

t.test('backoff, Retry-After and signatures', async (t) => {
  const ladder = [5_000, 30_000, 120_000];
  t.same([1, 2, 3, 4, 9].map((n) => retryDelayMs(n, ladder, 0)), [5_000, 30_000, 120_000, 120_000, 120_000], 'the last step repeats');
  const spread = Array.from({ length: 200 }, () => retryDelayMs(1, ladder, 0.2));
  t.ok(spread.every((d) => d >= 4_000 && d <= 6_000) && new Set(spread).size > 10, 'jitter spreads +-20 %');
  t.equal(parseRetryAfter('120'), 120_000);
  t.equal(parseRetryAfter('0'), 0);
  const now = Date.parse('2026-01-01T00:00:00Z');
  t.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now), 30_000, 'an HTTP date');
  t.equal(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now), 0, 'a past date: now');
  t.equal(parseRetryAfter('soon'), undefined);
  t.equal(parseRetryAfter('-5'), undefined);
  t.equal(parseRetryAfter(undefined), undefined);
  const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
  const ts = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ hello: 'world', amount: '10.00' });
  t.equal(sign(secret, 'msg_1', ts, body), new Webhook(secret).sign('msg_1', new Date(ts * 1000), body), 'our signature is the reference one');
});

t.test('the dispatcher refuses private targets and makes no request', async (t) => {
  const api = await runningService(t); // WEBHOOK_ALLOW_LOOPBACK off
  const { db, mutate, fanout, webhooks } = api.service;
  // The helper's DROP DATABASE ... WITH (FORCE) can hit pooled connections still closing: not a test failure.
  db.pool.on('error', () => {});
  webhooks.configure({ pollIntervalMs: 50, backoffMs: [60_000], jitter: 0 });
  const hits: string[] = [];
  const listen = async (host: string) => {
    const server = http.createServer((req, res) => {
      hits.push(`${host} ${req.url}`);
      res.end('ok');
    });
    try {
      await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
    } catch {
      return undefined; // no IPv6 loopback here
    }
    t.teardown(() => new Promise((resolve) => server.close(resolve)));
    return (server.address() as { port: number }).port;
  };
  const port4 = await listen('127.0.0.1');
  const port6 = await listen('::1');
  const urls = [
    'http://10.0.0.1/hook', 'http://169.254.169.254/latest/meta-data/', 'http://100.64.0.1/', 'http://0.0.0.0/', 'http://224.0.0.1/',
    'http://[fd00::1]/', 'http://[fe80::1]/', 'http://[::ffff:10.0.0.1]/',
    `http://127.0.0.1:${port4}/hook`, `http://localhost:${port4}/hook`, `http://[::ffff:127.0.0.1]:${port4}/hook`, `http://0.0.0.0:${port4}/hook`,
    ...(port6 ? [`http://[::1]:${port6}/hook`] : []),
  ];
  const triggers = new Map<string, string>();
  // Creation refuses these targets too; delivery must hold on its own (a name's addresses change after creation):
  // each trigger is created with a public target, then pointed at the private one.
  for (const url of urls) {
    const { id } = await createTrigger(db.pool, { organisationId: api.organisationId, type: 'http-post', url: 'https://93.184.216.34/hook', events: ['accountingEntry/after.create'] });
    await db.pool.query(`UPDATE triggers SET url = $2 WHERE id = $1`, [id, url]);
    triggers.set(id, url);
  }
  const year = new Date().getUTCFullYear();
  const entry = await mutate.createAccountingEntryUsingCodes({ organisationId: api.organisationId }, {
    date: `${year}-07-07`, journalTypeCode: 'GEN', accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '5.00' }, { subAccountCode: '1000000', creditAmount: '5.00' }],
  });
  await fanout.waitFor(entry.position);
  const logOf = async () => (await db.pool.query(`SELECT trigger_id, attempt, status_code, error FROM webhook_deliveries`)).rows;
  for (let waited = 0; (await logOf()).length < urls.length && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  const log = await logOf();
  t.equal(log.length, urls.length, 'one attempt logged per target');
  for (const row of log) {
    t.match(row, { attempt: 1, status_code: null }, String(triggers.get(row.trigger_id)));
    t.match(row.error, /^refused target: .* is in the (private|linkLocal|carrierGradeNat|unspecified|multicast|uniqueLocal|loopback) range/, `${triggers.get(row.trigger_id)}: ${row.error}`);
  }
  t.same(hits, [], 'no request reached the loopback receivers');
  const queued = await db.pool.query(`SELECT attempts, next_attempt_at > now() + interval '30 seconds' AS later FROM event_queue`);
  t.equal(queued.rows.length, urls.length, 'the events stay queued');
  t.ok(queued.rows.every((r) => r.attempts === 1 && r.later), 'each refusal is a failed attempt, retried with backoff');
  const failing = await db.pool.query(`SELECT count(*)::int AS n FROM triggers WHERE consecutive_failures = 1`);
  t.equal(failing.rows[0].n, urls.length);
});
