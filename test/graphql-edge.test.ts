/**
 * No database text reaches a client. List filters and cursors are checked at the edge (INVALID_QUERY naming the
 * value), and when the database fails anyway, GraphQL answers INTERNAL_SERVER_ERROR and REST a 500 Sage error
 * array, both with a generic message and the request id, never PostgreSQL's own words.
 */
import t from 'tap';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const PG_WORDS = /invalid input syntax|out of range|relation "|column "|does not exist|byte sequence|encoding "UTF8"|syntax error at|for type (uuid|timestamp|bigint|integer|numeric)/i;
const b64 = (text: string) => Buffer.from(text).toString('base64');

t.test('junk in filters and cursors is refused as INVALID_QUERY, in our words', async (t) => {
  const cases: [string, string, object][] = [
    ['a uuid of 36 dashes', `query($v: UUID) { accountingEntries(where: { id: { eq: $v } }) { totalCount } }`, { v: '-'.repeat(36) }],
    ['a uuid that is a number', `query($v: UUID) { accountingEntries(where: { journalTypeId: { eq: $v } }) { totalCount } }`, { v: 42 }],
    ['a junk uuid in a list', `query($v: [UUID]) { accountingEntries(where: { id: { in: $v } }) { totalCount } }`, { v: ['3f2504e0-4f89-11d3-9a0c-0305e82c3301', 'nope'] }],
    ['a junk date', `query($v: DateTime) { accountingEntries(where: { date: { gt: $v } }) { totalCount } }`, { v: 'junk' }],
    ['a 13th month', `query($v: DateTime) { accountingEntries(where: { creationDate: { lt: $v } }) { totalCount } }`, { v: '2026-13-01' }],
    ['a 30th of February', `query($v: DateTime) { accountingEntries(where: { date: { eq: $v } }) { totalCount } }`, { v: '2026-02-30T10:00:00Z' }],
    ['a date as an object', `query($v: DateTime) { accountingEntries(where: { date: { eq: $v } }) { totalCount } }`, { v: { a: 1 } }],
    ['a NUL in text', `query($v: String) { accountingEntries(where: { description: { contains: $v } }) { totalCount } }`, { v: 'a\u0000b' }],
    ['a cursor that is not base64 of an offset', `{ accountingEntries(after: "junk") { totalCount } }`, {}],
    ['a cursor of 1e20', `query($c: String) { accountingEntries(after: $c) { totalCount } }`, { c: b64('1e20') }],
    ['a cursor past bigint', `query($c: String) { accountingEntries(first: 1, after: $c) { nodes { id } } }`, { c: b64('99999999999999999999') }],
    ['a negative cursor', `query($c: String) { accountingEntries(before: $c) { nodes { id } } }`, { c: b64('-5') }],
  ];
  for (const [name, query, variables] of cases) {
    const r = await api.gql(query, variables);
    t.equal(r.errors?.[0]?.extensions?.code, 'INVALID_QUERY', `${name}: INVALID_QUERY`);
    t.notMatch(r.errors?.[0]?.message ?? '', PG_WORDS, `${name}: no database text (${r.errors?.[0]?.message})`);
  }
  const good = await api.gql(`query($v: DateTime, $c: String) { accountingEntries(first: 1, after: $c, where: { date: { gte: $v } }) { nodes { id } } }`, { v: '2000-01-01T00:00:00+01:00', c: b64('0') });
  t.notOk(good.errors, 'well-formed values and cursors still work');
});

t.test('a null where a filter, or a list of filters, belongs is refused as INVALID_QUERY (it failed as INTERNAL_SERVER_ERROR)', async (t) => {
  const cases: [string, string][] = [
    ['and: null', `{ accountingEntries(where: { and: null }) { totalCount } }`],
    ['or: null', `{ accountingEntries(where: { or: null }) { totalCount } }`],
    ['a field filter of null', `{ accountingEntries(where: { description: null }) { totalCount } }`],
    ['a field filter of null inside or', `{ accountingEntries(where: { or: [{ journalTypeId: null }] }) { totalCount } }`],
  ];
  for (const [name, query] of cases) {
    const r = await api.gql(query);
    t.equal(r.errors?.[0]?.extensions?.code, 'INVALID_QUERY', `${name}: INVALID_QUERY (${r.errors?.[0]?.message})`);
  }
});

t.test('a database failure answers a generic error with the request id, on GraphQL and REST', async (t) => {
  const pool = api.service.db.pool;
  await pool.query(`ALTER TABLE accounting_entries RENAME TO accounting_entries_away`);
  t.teardown(() => pool.query(`ALTER TABLE accounting_entries_away RENAME TO accounting_entries`));

  const res = await fetch(`${api.base}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId },
    body: JSON.stringify({ query: '{ accountingEntries { totalCount } }' }),
  });
  const body = await res.json();
  t.equal(body.errors?.[0]?.extensions?.code, 'INTERNAL_SERVER_ERROR');
  t.notMatch(body.errors[0].message, PG_WORDS, 'GraphQL: no database text');
  t.ok(body.errors[0].extensions.requestId, 'GraphQL: the request id to report');

  const rest = await api.rest('/journals');
  t.equal(rest.status, 500);
  t.same(Object.keys(rest.body[0]).sort(), ['$dataCode', '$message', '$severity', '$source']);
  t.equal(rest.body[0].$dataCode, 'InternalError');
  t.notMatch(rest.body[0].$message, PG_WORDS, 'REST: no database text');
});

t.test('a malformed REST body is answered in the Sage error format', async (t) => {
  const res = await fetch(`${api.base}/triggers`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId },
    body: '{"type": ',
  });
  t.equal(res.status, 400);
  const body = await res.json();
  t.equal(body[0]?.$severity, 'error', 'an error array');
});
