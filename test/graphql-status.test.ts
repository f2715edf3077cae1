/**
 * One HTTP status convention for every GraphQL error, the GraphQL-over-HTTP specification's (api/graphql/responses.ts):
 * with application/json every well-formed request answers 200; when the client accepts
 * application/graphql-response+json, a request refused before execution (no `data`) answers 400 and an executed
 * one 200, with that media type. A request that is not well-formed answers 400 either way. Every error has a code.
 */
import t from 'tap';
import { runningService } from './helpers/service.ts';

const api = await runningService(t, { costBudget: 1000 });
const auth = { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId };
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

async function post(body: string, headers: Record<string, string>) {
  const res = await fetch(`${api.base}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.json() };
}

const year = new Date().getUTCFullYear();
// [name, body, headers, executed, first error code]
const CASES: [string, object, Record<string, string>, boolean, string][] = [
  ['a parse error', { query: '{ accountingEntries { ' }, auth, false, 'GRAPHQL_PARSE_FAILED'],
  ['one validation error', { query: '{ accountingEntries { nope } }' }, auth, false, 'GRAPHQL_VALIDATION_FAILED'],
  ['two validation errors', { query: '{ accountingEntries { nope nada } }' }, auth, false, 'GRAPHQL_VALIDATION_FAILED'],
  ['a variable of the wrong type', { query: 'query($n: Int) { accountingEntries(first: $n) { totalCount } }', variables: { n: 'x' } }, auth, false, 'GRAPHQL_VALIDATION_FAILED'],
  ['a cost refusal', { query: '{ accountingEntries(first: 500) { nodes { accountingEntryLines { id } } } }' }, auth, false, 'HC0047'],
  ['no token', { query: '{ accountingEntries { totalCount } }' }, { 'X-Site': api.organisationId }, true, 'AUTH_NOT_AUTHENTICATED'],
  ['a business error', {
    query: `mutation { createAccountingEntryUsingCodes(input: { date: "${year}-02-02", journalTypeCode: "GEN", accountingEntryLines: [{ subAccountCode: "5720000", debitAmount: "1" }, { subAccountCode: "1000000", creditAmount: "2" }] }) { id } }`,
  }, auth, true, 'accounting.businessErrors.unbalancedEntry'],
  ['an invalid filter', { query: '{ accountingEntries(after: "junk") { totalCount } }' }, auth, true, 'INVALID_QUERY'],
];

t.test('application/json: 200 for every error of a well-formed request', async (t) => {
  for (const [name, body, headers, , code] of CASES) {
    const r = await post(JSON.stringify(body), headers);
    t.equal(r.status, 200, `${name}: 200`);
    t.match(r.type, /^application\/json/, `${name}: application/json`);
    t.equal(r.body.errors?.[0]?.extensions?.code, code, `${name}: ${code}`);
    t.ok(r.body.errors.every((e: any) => typeof e.extensions?.code === 'string'), `${name}: every error has a code`);
  }
});

t.test('application/graphql-response+json: 400 without data, 200 with data', async (t) => {
  for (const accept of [GRAPHQL_RESPONSE, `${GRAPHQL_RESPONSE}, application/json;q=0.9`, `application/json;q=0.5, ${GRAPHQL_RESPONSE}`]) {
    for (const [name, body, headers, executed, code] of CASES) {
      const r = await post(JSON.stringify(body), { ...headers, Accept: accept });
      t.equal(r.status, executed ? 200 : 400, `${accept} / ${name}: ${executed ? 200 : 400}`);
      t.match(r.type, /^application\/graphql-response\+json/, `${name}: the accepted media type`);
      t.equal('data' in r.body, executed, `${name}: data ${executed ? 'present' : 'absent'}`);
      t.equal(r.body.errors?.[0]?.extensions?.code, code, `${name}: ${code}`);
    }
  }
  const preferred = await post(JSON.stringify(CASES[1][1]), { ...auth, Accept: `application/json, ${GRAPHQL_RESPONSE}` });
  t.same([preferred.status, preferred.type.split(';')[0]], [200, 'application/json'], 'application/json listed first wins a tie');
  const success = await post(JSON.stringify({ query: '{ accountingEntries { totalCount } }' }), { ...auth, Accept: GRAPHQL_RESPONSE });
  t.same([success.status, success.type.split(';')[0], typeof success.body.data.accountingEntries.totalCount], [200, GRAPHQL_RESPONSE, 'number'], 'a success');
});

t.test('a request that is not well-formed answers 400 with a code, in either media type', async (t) => {
  for (const accept of ['application/json', GRAPHQL_RESPONSE]) {
    const notJson = await post('{"query": ', { ...auth, Accept: accept });
    t.equal(notJson.status, 400, `${accept}: a body that is not JSON`);
    t.equal(notJson.body.errors?.[0]?.extensions?.code, 'BAD_REQUEST');
    const noQuery = await post(JSON.stringify({ variables: {} }), { ...auth, Accept: accept });
    t.equal(noQuery.status, 400, `${accept}: no query`);
    t.equal(noQuery.body.errors?.[0]?.extensions?.code, 'BAD_REQUEST');
  }
});
