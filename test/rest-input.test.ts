/**
 * REST at its edge: ids, paging numbers and bodies are validated before anything reaches the database,
 * and every refusal (unknown routes too) is a Sage error array, never a database or framework message.
 */
import t, { type Test } from 'tap';
import { createTrigger } from '../eventqueue/triggers.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t); // WEBHOOK_ALLOW_LOOPBACK off
const { db } = api.service;
const headers = { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId };
const DASHES = '-'.repeat(36);

async function call(method: string, path: string, body?: unknown, extra: Record<string, string> = {}) {
  const res = await fetch(`${api.base}${path}`, {
    method, headers: { ...headers, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...extra },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A Sage error array whose text carries no database or framework wording. */
function sage(t: Test, answer: { status: number; body: any }, status: number, source?: string) {
  t.equal(answer.status, status, `status ${status}`);
  t.ok(Array.isArray(answer.body) && answer.body.length > 0, 'a Sage error array');
  for (const e of answer.body ?? []) t.match(e, { $severity: 'error', $dataCode: String, $message: String, $source: String });
  if (source !== undefined) t.ok(answer.body.some((e: any) => e.$source === source), `$source ${source}`);
  t.notMatch(JSON.stringify(answer.body), /syntax for type|bigint|out of range|statusCode|is not a function/i, 'no database or framework text');
}

const triggerCount = async () => (await db.pool.query(`SELECT count(*)::int AS n FROM triggers WHERE organisation_id = $1`, [api.organisationId])).rows[0].n;

t.test('ids that are not UUIDs are 404, never a database error', async (t) => {
  for (const id of [DASHES, 'g'.repeat(36), `${'0'.repeat(35)}-`]) {
    sage(t, await call('GET', `/ledger_accounts/${id}`), 404, 'id');
    sage(t, await call('GET', `/triggers/${id}`), 404, 'id');
    sage(t, await call('GET', `/triggers/${id}/deliveries`), 404, 'id');
    sage(t, await call('POST', `/triggers/${id}/redrive`), 404, 'id');
    sage(t, await call('DELETE', `/triggers/${id}`), 404, 'id');
  }
});

t.test('page and items_per_page: digits only, held to safe integers, a page past the end is the last', async (t) => {
  const hook = await createTrigger(db.pool, { organisationId: api.organisationId, type: 'http-post', url: 'https://93.184.216.34/hook' });
  for (const path of ['/ledger_accounts', `/triggers/${hook.id}/deliveries`, '/triggers']) {
    for (const page of ['1e20', '1.5', '-1', '0', '0x10', ' 2']) sage(t, await call('GET', `${path}?page=${encodeURIComponent(page)}`), 400, 'page');
    sage(t, await call('GET', `${path}?items_per_page=1e3`), 400, 'items_per_page');
    sage(t, await call('GET', `${path}?page=1&page=2`), 400, 'page');
    const huge = await call('GET', `${path}?page=${'9'.repeat(40)}&items_per_page=2`);
    t.equal(huge.status, 200, `${path}: a page far past the end`);
    t.equal(huge.body.$page, Math.max(1, Math.ceil(huge.body.$total / 2)), 'is the last page');
    t.equal(huge.body.$next, null);
  }
});

t.test('GET /triggers is paged like the other lists', async (t) => {
  for (let i = (await triggerCount()); i < 3; i++) await createTrigger(db.pool, { organisationId: api.organisationId, type: 'http-post', url: `https://93.184.216.34/hook${i}` });
  const all = await call('GET', '/triggers');
  t.equal(all.body.$itemsPerPage, 20, 'the default page size');
  const total = all.body.$total;
  t.ok(total >= 3);
  const first = await call('GET', '/triggers?items_per_page=2');
  t.match(first.body, { $total: total, $page: 1, $itemsPerPage: 2, $back: null, $next: '/triggers?page=2&items_per_page=2' });
  t.equal(first.body.$items.length, 2);
  const second = await call('GET', '/triggers?page=2&items_per_page=2');
  t.match(second.body, { $page: 2, $back: '/triggers?page=1&items_per_page=2' });
  t.same(second.body.$items.map((x: any) => x.id), all.body.$items.slice(2, 4).map((x: any) => x.id), 'the next items, in order');
});

t.test('POST /triggers validates the whole body and changes nothing on a refusal', async (t) => {
  const before = await triggerCount();
  const url = 'https://93.184.216.34/hook';
  sage(t, await call('POST', '/triggers', { type: 'http-post', url, events: 'accountingEntry/after.create' }), 422, 'events');
  sage(t, await call('POST', '/triggers', { type: 'http-post', url, events: [1] }), 422, 'events.0');
  sage(t, await call('POST', '/triggers', { type: 'http-post', url: 42 }), 422, 'url');
  sage(t, await call('POST', '/triggers', { type: 7, url }), 422, 'type');
  sage(t, await call('POST', '/triggers', { type: 'http-post', url, event: ['accountingEntry/after.create'] }), 422, 'body');
  sage(t, await call('POST', '/triggers', { type: 'http-post', url: `${url}?a=\u0000` }), 400, 'url'); // the service-wide text guard (api/text-guard.ts)
  sage(t, await call('POST', '/triggers', { type: 'event-queue', client_id: 'x\ud800' }), 400, 'client_id');
  sage(t, await call('POST', '/triggers', [1, 2]), 422);
  sage(t, await call('POST', '/triggers', '{"type": '), 400);
  sage(t, await call('POST', '/triggers', 'type=http-post', { 'Content-Type': 'application/xml' }), 415);
  const redrive = await call('POST', `/triggers/${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}/redrive`, { force: true });
  sage(t, redrive, 422, 'body');
  sage(t, await call('DELETE', `/triggers/${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`, { cascade: true }), 422, 'body');
  t.equal(await triggerCount(), before, 'nothing created');
  const created = await call('POST', '/triggers', { type: 'http-post', url, events: ['accountingEntry/after.create'] });
  t.equal(created.status, 201, 'a well-formed body is accepted');
});

t.test('a webhook to a private or loopback address is refused when created, as at delivery', async (t) => {
  const before = await triggerCount();
  for (const url of ['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://10.1.2.3/hook', 'http://169.254.169.254/latest', 'http://[::1]/hook', 'http://[::ffff:192.168.0.1]/hook']) {
    const refused = await call('POST', '/triggers', { type: 'http-post', url });
    sage(t, refused, 422, 'url');
    t.match(refused.body[0].$message, /refused target: .* range; webhooks only go to public addresses/, url);
  }
  t.equal(await triggerCount(), before, 'nothing created');
  // The host's addresses are what count, and WEBHOOK_ALLOW_LOOPBACK lets loopback (only) through, as at delivery.
  const privateName = async () => [{ address: '192.168.1.20', family: 4 }];
  const refusal = (url: string, check: object) => createTrigger(db.pool, { organisationId: api.organisationId, type: 'http-post', url }, check).then(() => undefined, (e) => e.params);
  t.match(await refusal('https://hooks.example/x', { resolver: privateName }), { field: 'url', reason: /192\.168\.1\.20 \(hooks\.example resolves to it\) is in the private range/ }, 'a name is judged by its addresses');
  t.match(await refusal('http://10.0.0.1/x', { allowLoopback: true }), { field: 'url', reason: /private range/ }, 'WEBHOOK_ALLOW_LOOPBACK lets only loopback through');
  t.ok((await createTrigger(db.pool, { organisationId: api.organisationId, type: 'http-post', url: 'http://127.0.0.1:9/x' }, { allowLoopback: true })).id);
});

t.test('unknown routes and wrong methods answer 404 in the format of their area', async (t) => {
  sage(t, await call('GET', '/no_such_collection'), 404, 'path');
  sage(t, await call('DELETE', '/ledger_accounts'), 404, 'path');
  sage(t, await call('PUT', '/triggers'), 404, 'path');
  sage(t, await call('POST', '/no_such_collection', '{"broken'), 404, 'path');
  sage(t, await call('GET', '/'), 404, 'path');
  const graphql = await call('PUT', '/graphql', {});
  t.equal(graphql.status, 404);
  t.match(graphql.body, { errors: [{ message: /No route PUT \/graphql/, extensions: { code: 'NOT_FOUND' } }] });
  const oauth = await call('GET', '/oauth/eu/token');
  t.equal(oauth.status, 404);
  t.match(oauth.body, { error: 'invalid_request', error_description: /No route GET \/oauth\/eu\/token/ });
  const queue = await call('GET', '/ia/api/v1/services/delivery/event/nothing');
  t.equal(queue.status, 404);
  t.match(queue.body, { 'ia::result': { status: 'error', message: /No route/ }, 'ia::meta': { totalCount: 1, totalSuccess: 0, totalError: 1 } });
});
