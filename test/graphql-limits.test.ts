/**
 * Input that would overflow a recursive walker (graphql-js's parser, validation and value coercion, cost
 * analysis, the commands' zod schemas) is refused before any of them runs: brackets and braces nested deeper
 * than INPUT_LIMITS.maxNesting, in the document or in the variables, and documents of more than maxTokens tokens.
 * Each refusal is coded, appends nothing, and never says "Maximum call stack size exceeded".
 */
import t from 'tap';
import { INPUT_LIMITS } from '../api/graphql/request-gate.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const DEEP = 5000;
/** JSON text nested `depth` deep, written out (JSON.stringify is recursive itself). */
const nested = (depth: number, open = '[', inner = '"x"', close = ']') => `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
const ENTRY = `mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id } }`;

/** POSTs `query` with `variables`, JSON text as it is. */
async function post(query: string, variables = 'null') {
  const res = await fetch(`${api.base}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId },
    body: `{"query": ${JSON.stringify(query)}, "variables": ${variables}}`,
  });
  return res.json();
}

async function refused(t: { equal: Function; notMatch: Function }, name: string, query: string, variables: string | undefined, code: string) {
  const before = await api.eventCount();
  const r = await post(query, variables);
  t.equal(r.errors?.[0]?.extensions?.code, code, `${name}: ${code}`);
  t.notMatch(JSON.stringify(r), /call stack/i, `${name}: no stack overflow`);
  t.equal(await api.eventCount(), before, `${name}: nothing appended`);
}

t.test('nested [ thousands deep, in a literal and in variables', async (t) => {
  const brackets = `${'['.repeat(DEEP)}"x"${']'.repeat(DEEP)}`;
  await refused(t, 'a literal argument', `{ accountingEntries(where: { id: { in: ${brackets} } }) { totalCount } }`, undefined, 'MAX_NESTING_EXCEEDED');
  await refused(t, 'a literal mutation input', `mutation { createAccountingEntryUsingCodes(input: { date: ${brackets}, journalTypeCode: "GEN", accountingEntryLines: [] }) { id } }`, undefined, 'MAX_NESTING_EXCEEDED');
  await refused(t, 'a literal in an unknown field', `{ a(x: ${brackets}) }`, undefined, 'MAX_NESTING_EXCEEDED');
  await refused(t, 'a variable list', `query($v: [UUID]) { accountingEntries(where: { id: { in: $v } }) { totalCount } }`, `{"v": ${nested(DEEP)}}`, 'MAX_NESTING_EXCEEDED');
  await refused(t, 'a mutation input', ENTRY, `{"v": {"date": "2026-01-01", "journalTypeCode": "GEN", "description": ${nested(DEEP)}, "accountingEntryLines": ${nested(DEEP)}}}`, 'MAX_NESTING_EXCEEDED');
  const filter = nested(DEEP, '{"and": [', '{"id": {"eq": null}}', ']}');
  await refused(t, 'a filter of nested and', `query($w: AccountingEntryFilterInput) { accountingEntries(where: $w) { totalCount } }`, `{"w": ${filter}}`, 'MAX_NESTING_EXCEEDED');
  await refused(t, 'nested selections', `{ accountingEntries ${'{ nodes '.repeat(DEEP)}${'}'.repeat(DEEP)} }`, undefined, 'MAX_NESTING_EXCEEDED');
});

t.test('brackets inside strings and comments do not count', async (t) => {
  const r = await api.gql(`{ # ${'['.repeat(DEEP)}
    accountingEntries(where: { description: { contains: "${'['.repeat(DEEP)}" } }) { totalCount } }`);
  t.notOk(r.errors, 'a long string and comment of brackets are fine');
  const block = await api.gql(`{ accountingEntries(where: { description: { contains: """${'{'.repeat(DEEP)} \\""" ["""} }) { totalCount } }`);
  t.notOk(block.errors, 'a block string of braces is fine');
});

t.test('nesting up to the limit is served; past the limit it is refused', async (t) => {
  let filter: Record<string, unknown> = { id: { neq: null } };
  for (let i = 0; i < 9; i++) filter = { and: [filter] };
  const r = await api.gql(`query($w: AccountingEntryFilterInput) { accountingEntries(where: $w) { totalCount } }`, { w: filter });
  t.notOk(r.errors, 'nine nested and (the filter depth limit) pass the gate');
  const ok = await post(`query($v: [UUID]) { accountingEntries(where: { id: { in: $v } }) { totalCount } }`, `{"v": ${nested(INPUT_LIMITS.maxNesting - 1)}}`);
  t.not(ok.errors?.[0]?.extensions?.code, 'MAX_NESTING_EXCEEDED', 'variables at the limit pass the gate (and are refused as the wrong type)');
});

t.test('a document of more tokens than the limit is refused', async (t) => {
  const fields = Array.from({ length: INPUT_LIMITS.maxTokens }, () => 'totalCount').join(' ');
  await refused(t, 'many tokens', `{ accountingEntries { ${fields} } }`, undefined, 'MAX_TOKENS_EXCEEDED');
});

t.test('a query that is not GraphQL is a parse error, not a JSON syntax tree', async (t) => {
  const ast = JSON.stringify({ kind: 'Document', definitions: [] });
  await refused(t, 'a JSON document as query', ast, undefined, 'GRAPHQL_PARSE_FAILED');
});
