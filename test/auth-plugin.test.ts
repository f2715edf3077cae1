/**
 * Authentication is one plugin that each area opts into (api/auth/plugin.ts): the routes of GraphQL, REST,
 * /triggers and the event queue refuse a token nobody holds, each in its own format, while the routes that
 * did not opt in (unknown paths under every area, the GraphiQL page, /health) never authenticate at all.
 */
import t from 'tap';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const QUEUE = '/ia/api/v1/services/delivery/event';
const nobodys = { Authorization: `Bearer ${'x'.repeat(40)}`, 'X-Site': api.organisationId };

const call = async (method: string, path: string) => {
  const res = await fetch(`${api.base}${path}`, { method, headers: nobodys });
  const text = await res.text();
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
};

t.test('the areas that opted in refuse a token nobody holds, each in its own format', async (t) => {
  t.match(await call('GET', '/ledger_accounts'), { status: 401, body: [{ $dataCode: 'Unauthorized', $source: 'Authorization', $message: /invalid, expired or revoked/ }] }, 'REST');
  t.match(await call('GET', '/triggers'), { status: 401, body: [{ $dataCode: 'Unauthorized', $source: 'Authorization' }] }, '/triggers');
  t.match(await call('GET', `${QUEUE}/count`), { status: 401, body: { 'ia::result': { status: 'error', message: /invalid, expired or revoked/ } } }, 'event queue');
  const graphql = await api.gql('{ journalTypes { totalCount } }', undefined, nobodys);
  t.match(graphql, { errors: [{ message: /invalid, expired or revoked/, extensions: { code: 'AUTH_NOT_AUTHENTICATED' } }] }, 'GraphQL refuses per field');
});

t.test('routes that did not opt in never authenticate: unknown paths of every area, GraphiQL and /health', async (t) => {
  t.match(await call('GET', '/no_such_collection'), { status: 404, body: [{ $dataCode: 'NotFound', $source: 'path' }] });
  t.match(await call('DELETE', '/ledger_accounts'), { status: 404, body: [{ $dataCode: 'NotFound' }] }, 'a wrong method on a REST collection');
  t.match(await call('PUT', '/triggers'), { status: 404, body: [{ $dataCode: 'NotFound' }] });
  t.match(await call('GET', `${QUEUE}/nothing`), { status: 404, body: { 'ia::result': { message: /No route/ } } });
  t.match(await call('PUT', '/graphql'), { status: 404, body: { errors: [{ extensions: { code: 'NOT_FOUND' } }] } });
  t.equal((await call('GET', '/graphiql')).status, 200, 'the GraphiQL page');
  t.equal((await call('GET', '/health')).status, 200);
});
