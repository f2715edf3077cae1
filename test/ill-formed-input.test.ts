/**
 * Ill-formed Unicode (a lone surrogate, which JSON spells `\ud800`) and NUL in any string of any mutation
 * are refused at the boundary with a coded error naming the field, and append nothing. The walk is
 * generic: every mutation of MUTATIONS, every String-like leaf of its generated input type (nested
 * objects and lists included), so a new mutation or field is covered without touching this test.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import {
  buildSchema, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType,
  type GraphQLInputType, type GraphQLNamedType,
} from 'graphql';
import { MUTATIONS } from '../api/graphql/mutations.ts';
import { buildSdl } from '../api/graphql/sdl.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const schema = buildSchema(buildSdl());
const fields = schema.getMutationType()!.getFields();
const year = new Date().getUTCFullYear();

/** Scalars a client sends as JSON strings: each is a string field for this test. */
const STRING_SCALARS = new Set(['String', 'ID', 'UUID', 'DateTime', 'Decimal']);
const SAMPLES: Record<string, () => unknown> = {
  String: () => 'x', ID: () => 'x', UUID: () => randomUUID(), DateTime: () => `${year}-03-15`, Decimal: () => '1.00', Int: () => 1, Float: () => 1, Boolean: () => false, JSON: () => ({}),
};

/** A value of the type, every optional field included (so every string field is there), and the paths of its string leaves. */
/** A string leaf: where it is and its scalar (a Decimal is refused by its scalar, before the command sees it). */
interface Leaf {
  path: (string | number)[];
  scalar: string;
}

function sample(type: GraphQLInputType, path: (string | number)[], leaves: Leaf[], depth = 0): unknown {
  if (isNonNullType(type)) return sample(type.ofType, path, leaves, depth);
  if (isListType(type)) return [sample(type.ofType, [...path, 0], leaves, depth)];
  const named = type as GraphQLNamedType;
  if (isEnumType(named)) return named.getValues()[0].value;
  if (isScalarType(named)) {
    if (STRING_SCALARS.has(named.name)) leaves.push({ path, scalar: named.name });
    return (SAMPLES[named.name] ?? (() => 'x'))();
  }
  if (isInputObjectType(named)) {
    if (depth > 5) return {};
    return Object.fromEntries(Object.values(named.getFields()).map((f) => [f.name, sample(f.type, [...path, f.name], leaves, depth + 1)]));
  }
  throw new Error(`unexpected input type ${String(type)}`);
}

function withValue(input: unknown, path: (string | number)[], value: string): unknown {
  const copy = structuredClone(input) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path[path.length - 1]] = value;
  return copy;
}

t.test('every string field of every mutation refuses a lone surrogate and NUL, naming the field, and appends nothing', async (t) => {
  let checked = 0;
  for (const mutation of MUTATIONS) {
    const arg = fields[mutation.name].args.find((a) => a.name === 'input')!;
    const leaves: Leaf[] = [];
    const input = sample(arg.type, [], leaves);
    t.ok(leaves.length > 0, `${mutation.name} has string fields`);
    for (const { path: leaf, scalar } of leaves) {
      for (const bad of ['x\ud800', '\udc00x', 'a\u0000b']) {
        const before = await api.eventCount();
        const r = await api.gql(`mutation($values: ${mutation.input}!) { ${mutation.name}(input: $values) { __typename } }`, { values: withValue(input, leaf, bad) });
        const error = r.errors?.[0];
        const where = `${mutation.name}.${leaf.join('.')} = ${JSON.stringify(bad)}`;
        if (scalar === 'Decimal') {
          // The Decimal scalar takes only digits: refused while the variables are read, the path in the message.
          t.equal(error?.extensions?.code, 'INVALID_DECIMAL', `${where}: coded refusal (${error?.message})`);
          const graphqlPath = leaf.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('');
          t.ok(error?.message?.includes(`values${graphqlPath}`), `${where}: names the field`);
        } else {
          t.equal(error?.extensions?.code, 'global.businessErrors.invalidInput', `${where}: coded refusal (${error?.message})`);
          const field = leaf.reduce<string>((at, k) => (typeof k === 'number' ? `${at}[${k}]` : at ? `${at}.${k}` : String(k)), '');
          t.equal(error?.extensions?.parameters?.field, field, `${where}: names the field`);
        }
        t.equal(await api.eventCount(), before, `${where}: nothing appended`);
        checked++;
      }
    }
  }
  t.ok(checked >= MUTATIONS.length * 3, `${checked} refusals checked`);
});

t.test('a lone surrogate in a GraphQL literal is a syntax error, not an input', async (t) => {
  const before = await api.eventCount();
  for (const literal of ['"evil \\ud800"', '"evil \ud800"']) {
    const r = await api.gql(`mutation { createAccountingAccount(input: { code: "5720777", name: ${literal} }) { id } }`);
    t.ok(r.errors?.length, `refused: ${r.errors?.[0]?.message}`);
    t.notOk(r.data?.createAccountingAccount, 'no account');
  }
  t.equal(await api.eventCount(), before, 'nothing appended');
});

t.test('a well-formed pair (an emoji) is text like any other', async (t) => {
  const r = await api.gql(`mutation($values: AccountingAccountCreateGLDtoInput!) { createAccountingAccount(input: $values) { id } }`, { values: { code: '5720778', name: 'Caja \ud83d\udcb0' } });
  t.equal(r.errors, undefined);
  const read = await api.gql(`{ accountingAccounts(where: { code: { eq: "5720778" } }) { nodes { name } } }`);
  t.equal(read.data.accountingAccounts.nodes[0].name, 'Caja \ud83d\udcb0');
});

t.test('REST, OAuth, trigger and queue bodies, queries and path parameters refuse it too, in their own formats', async (t) => {
  const auth = { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId };
  const send = async (method: string, path: string, body?: string, type = 'application/json', headers: Record<string, string> = auth) => {
    const res = await fetch(`${api.base}${path}`, { method, headers: { ...headers, ...(body !== undefined ? { 'Content-Type': type } : {}) }, body });
    return { status: res.status, body: await res.json() };
  };
  const triggersBefore = (await api.service.db.pool.query(`SELECT count(*)::int AS n FROM triggers`)).rows[0].n;
  for (const bad of ['x\\ud800', 'a\\u0000b']) {
    const trigger = await send('POST', '/triggers', `{"type": "http-post", "url": "https://example.com/${bad}"}`);
    t.equal(trigger.status, 400, `POST /triggers ${bad}`);
    t.same(trigger.body, [{ $severity: 'error', $dataCode: 'InvalidParameter', $message: trigger.body[0]?.$message, $source: 'url' }], 'the REST error array, naming the field');
    const ack = await send('POST', '/ia/api/v1/services/delivery/event/ack', `{"ackId": "${bad}"}`, 'application/json', { Authorization: `Bearer ${api.token}` });
    t.equal(ack.status, 400, `POST /ack ${bad}`);
    t.equal(ack.body['ia::meta']?.totalError, 1, 'the queue format');
  }
  const token = await send('POST', '/oauth/eu/token', `grant_type=client_credentials&client_id=${api.clientId}%00&client_secret=x`, 'application/x-www-form-urlencoded', {});
  t.equal(token.status, 400);
  t.equal(token.body.error, 'invalid_request', 'OAuth answers as OAuth');
  const list = await send('GET', '/ledger_accounts?items_per_page=1%00');
  t.equal(list.status, 400, 'a query parameter');
  t.equal(list.body[0]?.$source, 'items_per_page');
  const filter = await api.gql(`query($v: String) { accountingAccounts(where: { name: { eq: $v } }) { totalCount } }`, { v: 'a\u0000b' });
  t.equal(filter.errors?.[0]?.extensions?.code, 'INVALID_QUERY', 'a GraphQL filter: a coded error, not the database’s');
  t.equal((await api.service.db.pool.query(`SELECT count(*)::int AS n FROM triggers`)).rows[0].n, triggersBefore, 'no trigger made');
});
