/**
 * The authentication headers as clients really send them (issue 15, items 5, 10 and 17), on every
 * interface that reads them: the Bearer scheme in any case, the organisation id in any case, a
 * malformed organisation header answered in the interface's own format (never a database message),
 * and with nothing sent, the missing token reported first.
 */
import t from 'tap';
import { approve, pkceRequest } from './helpers/oauth.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { base, service } = api;
const QUEUE = '/ia/api/v1/services/delivery/event';

const call = async (path: string, headers: Record<string, string>) => {
  const res = await fetch(`${base}${path}`, { headers });
  return { status: res.status, body: await res.json() };
};
const gql = async (query: string, headers: Record<string, string>) => {
  const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return { status: res.status, body: await res.json() };
};
const READ = `{ journalTypes { totalCount } }`;

t.test('the Bearer scheme is case-insensitive (RFC 7235) on GraphQL, REST and the event queue', async (t) => {
  for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
    const headers = { Authorization: `${scheme} ${api.token}`, 'X-Site': api.organisationId };
    t.equal((await gql(READ, headers)).body.data?.journalTypes.totalCount, 9, `GraphQL: ${scheme}`);
    t.equal((await call('/ledger_accounts', headers)).status, 200, `REST: ${scheme}`);
    t.equal((await call('/triggers', headers)).status, 200, `/triggers: ${scheme}`);
    t.equal((await call(`${QUEUE}/count`, { Authorization: `${scheme} ${api.token}` })).status, 200, `event queue: ${scheme}`);
  }
});

t.test('an organisation id in upper case is the same organisation, for writes as for reads', async (t) => {
  const upper = { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId.toUpperCase() };
  const created = await gql(`mutation { createJournalType(input: { code: "UP", name: "Upper", type: GENERAL }) { id } }`, upper);
  t.equal(created.body.errors, undefined, 'the write is accepted');
  t.ok(created.body.data.createJournalType.id);
  const read = await api.gql(`{ journalTypes(where: { code: { eq: "UP" } }) { totalCount } }`);
  t.equal(read.data.journalTypes.totalCount, 1, 'and lands in the organisation named in lower case');
  t.equal((await call('/journal_types', upper)).body.$total, 10, 'REST reads the same organisation');
  const token = await service.identity.issueToken(api.organisationId.toUpperCase(), 'demo@example.com', api.clientId, 'readonly');
  t.equal(token.resource_owner_id, api.organisationId, 'a token issued for the upper-case id names the canonical one');
  const REDIRECT = 'https://app.example.com/callback';
  const client = await service.identity.createClient('Upper App', REDIRECT, false);
  const consented = await approve(base, (await pkceRequest(base, client.client_id, REDIRECT)).url, undefined, api.organisationId.toUpperCase());
  t.ok(consented.searchParams.get('code'), 'a consent naming the organisation in upper case is accepted');
});

t.test('a malformed organisation header is refused in the interface\'s format, without a database message', async (t) => {
  for (const junk of ['-'.repeat(36), 'not-a-uuid', `${api.organisationId}x`]) {
    for (const header of ['X-Site', 'X-OrganizationId']) {
      const headers = { Authorization: `Bearer ${api.token}`, [header]: junk };
      const g = await gql(READ, headers);
      t.equal(g.status, 200, `GraphQL ${header}: ${junk}`);
      t.equal(g.body.errors?.[0]?.extensions?.code, 'AUTH_NOT_AUTHENTICATED');
      t.match(g.body.errors?.[0]?.message, /is not an organisation id/);
      const r = await call('/ledger_accounts', headers);
      t.equal(r.status, 400, `REST ${header}: ${junk}`);
      t.match(r.body, [{ $severity: 'error', $dataCode: 'InvalidParameter', $message: /is not an organisation id/, $source: 'X-Site' }]);
      const q = await call(`${QUEUE}/count`, headers);
      t.equal(q.status, 400, `event queue ${header}: ${junk}`);
      t.match(q.body['ia::result'].message, /is not an organisation id/);
      t.notMatch(JSON.stringify([g.body, r.body, q.body]), /invalid input syntax|type uuid/i, 'no database text');
    }
  }
});

t.test('missing headers: the token first, then the organisation, in Sage\'s words naming X-Site', async (t) => {
  const none = await gql(READ, {});
  t.equal(none.body.errors?.[0]?.extensions?.code, 'AUTH_NOT_AUTHENTICATED');
  t.match(none.body.errors?.[0]?.message, /not authenticated: send Authorization: Bearer/, 'GraphQL with no header at all: the token is missing');
  const siteOnly = await gql(READ, { 'X-Site': api.organisationId });
  t.match(siteOnly.body.errors?.[0]?.message, /send Authorization: Bearer/);
  const restNone = await call('/ledger_accounts', {});
  t.equal(restNone.status, 401);
  t.equal(restNone.body[0].$source, 'Authorization', 'REST with no header at all: the token is missing');

  const noSite = await gql(READ, { Authorization: `Bearer ${api.token}` });
  t.match(noSite.body.errors?.[0]?.message, /^X-OrganizationId header is mandatory/, 'Sage\'s sentence first');
  t.match(noSite.body.errors?.[0]?.message, /X-Site/, 'and the header the README teaches');
  const restNoSite = await call('/ledger_accounts', { Authorization: `Bearer ${api.token}` });
  t.equal(restNoSite.status, 401);
  t.match(restNoSite.body, [{ $message: /^X-OrganizationId header is mandatory.*X-Site/, $source: 'X-Site' }]);
});
