/**
 * A token serves the organisation it was consented for, and only that one (issue 15, item 2): a user
 * who is a viewer in A and an admin in B and C consents an application for A; its token is refused with
 * any other X-Site / X-OrganizationId on GraphQL, REST lists and items, /triggers and the event queue,
 * and so cannot reach C, an organisation of another country group than the token endpoint it came from.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { approve, pkceRequest, postForm } from './helpers/oauth.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { base, service } = api;
const { commands, daemon, identity } = service;
const REDIRECT = 'https://app.example.com/callback';
const QUEUE = '/ia/api/v1/services/delivery/event';

const orgB = await commands.createOrganisation({}, { name: 'Admin Side SL', country: 'ES' });
const orgC = await commands.createOrganisation({}, { name: 'Over There Ltd', country: 'GB' });
await daemon.waitFor(orgC.position);
const A = api.organisationId;
const B = orgB.id;
const C = orgC.id;

const user = { email: `two-hats-${randomUUID().slice(0, 8)}@example.com`, password: 'a long enough password' };
await identity.createUser(A, user.email, user.password, 'viewer');
await identity.createUser(B, user.email, user.password, 'admin');
await identity.createUser(C, user.email, user.password, 'admin');

/** The user consents the application for A through the real pages; the token comes from /oauth/eu/token (A is Spanish). */
const app = await identity.createClient('Two Hats App', REDIRECT, false);
const request = await pkceRequest(base, app.client_id, REDIRECT, 'full_access');
const callback = await approve(base, request.url, user, A);
const exchanged = await postForm(`${base}/oauth/eu/token`, {
  grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: request.verifier,
  client_id: app.client_id, client_secret: app.client_secret!,
});
const token: string = exchanged.body.access_token;

const gql = (headers: Record<string, string>, query: string) => api.gql(query, undefined, headers);
const restAs = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
  const res = await fetch(`${base}${path}`, { method, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json() };
};
const WRITE = `mutation { createJournalType(input: { code: "HT", name: "Two hats", type: GENERAL }) { id } }`;
const READ = `{ journalTypes { totalCount } }`;
const triggerCount = async (organisationId: string) =>
  (await service.db.pool.query(`SELECT count(*)::int AS n FROM triggers WHERE organisation_id = $1`, [organisationId])).rows[0].n;

t.test('the consented token names A and serves A with the role held in A', async (t) => {
  t.equal(exchanged.status, 200);
  t.equal(exchanged.body.resource_owner_id, A);
  const own = { Authorization: `Bearer ${token}`, 'X-Site': A };
  t.equal((await gql(own, READ)).data.journalTypes.totalCount, 9, 'reads A');
  const write = await gql(own, WRITE);
  t.equal(write.errors?.[0]?.extensions?.code, 'AUTH_NOT_AUTHORIZED', 'a viewer in A cannot write in A');
  t.match(write.errors?.[0]?.message, /role viewer/);
});

t.test('GraphQL: X-Site or X-OrganizationId of another organisation is refused, reads and writes', async (t) => {
  for (const [header, site] of [['X-Site', B], ['X-OrganizationId', B], ['X-Site', C]]) {
    const headers = { Authorization: `Bearer ${token}`, [header]: site };
    const before = await api.eventCount();
    const write = await gql(headers, WRITE);
    t.equal(write.errors?.[0]?.extensions?.code, 'AUTH_NOT_AUTHENTICATED', `${header}: ${site === B ? 'B' : 'C'}: the admin role there does not reach the token`);
    t.match(write.errors?.[0]?.message, new RegExp(`not valid for this organisation: it serves only organisation ${A}`));
    t.equal(await api.eventCount(), before, 'nothing appended');
    const read = await gql(headers, READ);
    t.equal(read.errors?.[0]?.extensions?.code, 'AUTH_NOT_AUTHENTICATED', 'nor read');
    t.equal(read.data?.journalTypes ?? null, null);
  }
  const both = await gql({ Authorization: `Bearer ${token}`, 'X-Site': A, 'X-OrganizationId': B }, READ);
  t.match(both.errors?.[0]?.message, /name different organisations/, 'two headers naming two organisations are refused');
});

t.test('REST lists, items and /triggers: another X-Site gets 401 in the error array', async (t) => {
  const accountOfB = (await service.db.pool.query(`SELECT id FROM accounting_accounts WHERE organisation_id = $1 LIMIT 1`, [B])).rows[0].id;
  const triggersBefore = await triggerCount(B);
  for (const site of [B, C]) {
    const headers = { Authorization: `Bearer ${token}`, 'X-Site': site };
    for (const [method, path, body] of [
      ['GET', '/ledger_accounts'], ['GET', `/ledger_accounts/${accountOfB}`], ['GET', '/triggers'],
      ['POST', '/triggers', { type: 'event-queue', client_id: app.client_id }],
    ] as [string, string, unknown?][]) {
      const r = await restAs(method, path, headers, body);
      t.equal(r.status, 401, `${method} ${path} in ${site === B ? 'B' : 'C'}`);
      t.match(r.body, [{ $severity: 'error', $dataCode: 'Unauthorized', $message: /not valid for this organisation/, $source: 'Authorization' }]);
    }
  }
  t.equal(await triggerCount(B), triggersBefore, 'no trigger created in B');
  t.equal((await restAs('GET', '/ledger_accounts', { Authorization: `Bearer ${token}`, 'X-Site': A })).status, 200, 'A is served');
});

t.test('event queue: a header naming another organisation is refused; none means the token\'s own', async (t) => {
  const queue = (headers: Record<string, string>) => restAs('GET', `${QUEUE}/count`, headers);
  const other = await queue({ Authorization: `Bearer ${token}`, 'X-Site': B });
  t.equal(other.status, 401);
  t.equal(other.body['ia::result'].status, 'error');
  t.match(other.body['ia::result'].message, /not valid for this organisation/);
  t.equal((await queue({ Authorization: `Bearer ${token}`, 'X-OrganizationId': C })).status, 401);
  t.equal((await queue({ Authorization: `Bearer ${token}` })).status, 200, 'no header: the token\'s organisation');
  t.equal((await queue({ Authorization: `Bearer ${token}`, 'X-Site': A })).status, 200, 'its own organisation named');
});

t.test('a token stops serving its organisation once its user is no longer a member', async (t) => {
  const email = `leaver-${randomUUID().slice(0, 8)}@example.com`;
  const userId = await identity.createUser(A, email, 'a long enough password', 'admin');
  const issued = await identity.issueToken(A, email, api.clientId, 'full_access');
  const headers = { Authorization: `Bearer ${issued.access_token}`, 'X-Site': A };
  t.equal((await restAs('GET', '/ledger_accounts', headers)).status, 200);
  await service.db.pool.query(`DELETE FROM memberships WHERE user_id = $1`, [userId]);
  const r = await restAs('GET', '/ledger_accounts', headers);
  t.equal(r.status, 401);
  t.match(r.body[0].$message, /no longer a member/);
});
