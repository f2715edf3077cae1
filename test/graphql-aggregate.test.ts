/**
 * `aggregate(...)` on connections, as Sage's clients write it: `["__count"]` on customers, `debitAmount|SUM` of entry
 * lines grouped by account, checked against the same lines summed here; the connection's `where` (relation filters
 * too) applies; unknown fields and functions are refused as INVALID_QUERY; an organisation's aggregate never counts
 * another's rows; the cost analysis prices it by the groups it may answer.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { buildSchema, parse, validate } from 'graphql';
import { operationCost } from '../api/graphql/cost.ts';
import { AGGREGATE_LIMITS, aggregateQuery } from '../api/graphql/aggregate.ts';
import type { Resource } from '../projections/engine/resource.ts';
import { AccountingEntryLine } from '../projections/accounting/read-models.ts';
import { Customer } from '../projections/parties/read-models.ts';
import { buildSdl } from '../api/graphql/sdl.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const schema = buildSchema(buildSdl());
async function ok(query: string, variables?: object, headers?: Record<string, string>): Promise<any> {
  if (validate(schema, parse(query)).length > 0) throw new Error(`${query.slice(0, 80)} does not validate: ${JSON.stringify(validate(schema, parse(query)))}`);
  const r = await api.gql(query, variables, headers);
  if (r.errors) throw new Error(`${query.slice(0, 80)}: ${JSON.stringify(r.errors)}`);
  return r.data;
}

/** An amount in millionths, exactly (amounts carry at most 6 decimals here). */
const micros = (amount: string): bigint => {
  const [whole, fraction = ''] = amount.split('.');
  const sign = whole.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(whole.replace('-', '')) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6)));
};

const year = new Date().getUTCFullYear();
const POST = `mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id } }`;
for (const [i, lines] of [
  [['4300001', '121.10', null], ['7000000', null, '100.10'], ['4770000', null, '21.00']],
  [['4300001', '0.07', null], ['7000000', null, '0.07']],
  [['5720000', '2000.33', null], ['4300001', null, '2000.33']],
].entries()) {
  await ok(POST, { v: { date: `${year}-03-${10 + i}`, journalTypeCode: 'VEN', description: `aggregated ${i}`, accountingEntryLines: (lines as [string, string | null, string | null][]).map(([subAccountCode, debitAmount, creditAmount]) => ({ subAccountCode, debitAmount, creditAmount })) } });
}
for (const socialName of ['Uno S.L.', 'Dos S.L.', 'Tres S.A.']) await ok(`mutation($n: String!) { createCustomer(input: { socialName: $n }) { id } }`, { n: socialName });
const lines: { subAccountId: string; debitAmount: string | null; subAccount: { code: string } }[] = [];
for (let after: string | null = null; ; ) {
  const page: any = (await ok(`query($a: String) { accountingEntryLines(first: 500, after: $a) { pageInfo { hasNextPage endCursor } nodes { subAccountId debitAmount subAccount { code } } } }`, { a: after })).accountingEntryLines;
  lines.push(...page.nodes);
  if (!page.pageInfo.hasNextPage) break;
  after = page.pageInfo.endCursor;
}

const groupsOf = (answer: any[]) => answer.map((g) => ({ ...Object.fromEntries(g.groupValues.map((v: any) => [v.name, v.value])), ...Object.fromEntries(g.aggregates.map((v: any) => [v.name, v.value])) }));

t.test('customers: aggregateFields ["__count"] counts the rows, as Sage\'s s1-068 asks', async (t) => {
  const data = await ok(`{ customers { totalCount aggregate(aggregateFields: ["__count"]) { groupValues { name value } aggregates { name value } } } }`);
  t.same(data.customers.aggregate, [{ groupValues: [], aggregates: [{ name: '__count', value: String(data.customers.totalCount) }] }]);
  t.equal(data.customers.totalCount, 3);
  const filtered = await ok(`{ customers(where: { socialName: { endsWith: "S.L." } }) { aggregate(aggregateFields: ["__count"]) { aggregates { name value } } } }`);
  t.same(filtered.customers.aggregate, [{ aggregates: [{ name: '__count', value: '2' }] }], 'counts what the where selects');
});

t.test('lines: debitAmount|SUM, MIN, MAX, COUNT and __count grouped by account equal the lines summed here', async (t) => {
  const data = await ok(`{ accountingEntryLines { aggregate(aggregateFields: ["debitAmount|SUM", "debitAmount|MAX", "debitAmount|COUNT", "__count"], groupFields: ["subAccountId"]) { groupValues { name value } aggregates { name value } } } }`);
  const groups = groupsOf(data.accountingEntryLines.aggregate);
  const accounts = [...new Set(lines.map((l) => l.subAccountId))].sort();
  t.same(groups.map((g) => g.subAccountId), accounts, 'one group per account, in the group values\' order');
  for (const g of groups) {
    const mine = lines.filter((l) => l.subAccountId === g.subAccountId);
    const debits = mine.flatMap((l) => (l.debitAmount === null ? [] : [micros(l.debitAmount)]));
    t.equal(g['__count'], String(mine.length), `__count of ${g.subAccountId}`);
    t.equal(g['debitAmount|COUNT'], String(debits.length), 'COUNT counts the values there are');
    t.equal(g['debitAmount|SUM'] === '' ? 0n : micros(g['debitAmount|SUM']), debits.reduce((a, b) => a + b, 0n), 'SUM exact');
    if (debits.length) t.equal(micros(g['debitAmount|MAX']), debits.reduce((a, b) => (b > a ? b : a)), 'MAX');
  }
  const ventas = groups.find((g) => g.subAccountId === lines.find((l) => l.subAccount.code === '5720000')!.subAccountId)!;
  t.match(ventas['debitAmount|SUM'], /\.33$/, 'a decimal sum keeps its cents (a string, not a float)');
});

t.test("the connection's where applies, relation filters included, and orderFields orders the groups", async (t) => {
  const data = await ok(`{ accountingEntryLines(where: { subAccount: { code: { startsWith: "43" } }, debitAmount: { gt: "0" } }) {
    aggregate(aggregateFields: ["__count", "debitAmount|SUM"], groupFields: ["subAccountId"], orderFields: ["debitAmount|SUM DESC"]) { groupValues { name value } aggregates { name value } } } }`);
  const groups = groupsOf(data.accountingEntryLines.aggregate);
  const chosen = lines.filter((l) => l.subAccount.code.startsWith('43') && l.debitAmount !== null && micros(l.debitAmount) > 0n);
  t.equal(groups.reduce((n, g) => n + Number(g['__count']), 0), chosen.length, 'only the lines the filter selects');
  t.same(groups.map((g) => g.subAccountId).sort(), [...new Set(chosen.map((l) => l.subAccountId))].sort());
  const sums = groups.map((g) => micros(g['debitAmount|SUM']));
  t.same(sums, [...sums].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)), 'ordered by the sum, largest first');

  const none = await ok(`{ accountingEntryLines(where: { subAccount: { code: { eq: "no such" } } }) { aggregate(aggregateFields: ["__count", "debitAmount|SUM"]) { aggregates { name value } } } }`);
  t.same(none.accountingEntryLines.aggregate, [{ aggregates: [{ name: '__count', value: '0' }, { name: 'debitAmount|SUM', value: '' }] }], 'no rows: a count of 0, no sum');

  const byMonth = await ok(`{ accountingEntries(where: { description: { startsWith: "aggregated" } }) { aggregate(aggregateFields: ["number|DISTINCTCOUNT"], groupFields: ["date|Month"]) { groupValues { name value } aggregates { name value } } } }`);
  t.same(groupsOf(byMonth.accountingEntries.aggregate), [{ 'date|Month': `${year}-03-01T00:00:00.000Z`, 'number|DISTINCTCOUNT': '3' }], 'a date groups by its month\'s first instant');
});

t.test('unknown fields, functions, and too many items are refused as INVALID_QUERY, naming the item', async (t) => {
  for (const [args, says] of [
    ['aggregateFields: ["nope|SUM"]', /nope/],
    ['aggregateFields: ["debitAmount|MEDIAN"]', /debitAmount\|MEDIAN/],
    ['aggregateFields: ["description|SUM"]', /SUM does not apply to description/],
    ['aggregateFields: ["__count"], groupFields: ["thirdCode"]', /thirdCode/],
    ['aggregateFields: ["__count"], groupFields: ["subAccount"]', /subAccount/],
    ['aggregateFields: ["__count"], orderFields: ["creditAmount|SUM"]', /orderFields/],
    ['groupFields: []', /aggregateFields/],
    [`aggregateFields: [${Array(AGGREGATE_LIMITS.maxAggregateFields + 1).fill('"__count"').join(', ')}]`, new RegExp(`at most ${AGGREGATE_LIMITS.maxAggregateFields}`)],
  ] as const) {
    const r = await api.gql(`{ accountingEntryLines { aggregate(${args}) { aggregates { name value } } } }`);
    t.equal(r.errors?.[0]?.extensions?.code, 'INVALID_QUERY', args);
    t.match(r.errors?.[0]?.message, says, args);
  }
});

t.test("an organisation's aggregate counts its own rows only, row-level security aside", async (t) => {
  const { db, identity, commands, daemon } = api.service;
  const other = await commands.createOrganisation({}, { name: 'Aggregates Elsewhere SL', country: 'ES' });
  await daemon.waitFor(other.position);
  const email = `agg-${randomUUID().slice(0, 8)}@example.com`;
  await identity.createUser(other.id, email, 'a-long-password', 'admin');
  const headers = { Authorization: `Bearer ${(await identity.issueToken(other.id, email, api.clientId, 'full_access')).access_token}`, 'X-Site': other.id };
  // Lines of the other organisation too, then its customer through the API, which waits for them all.
  const elsewhere = { organisationId: other.id };
  await api.service.mutate.createAccountingExercise(elsewhere, { startDate: `${year}-01-01`, endDate: `${year}-12-31` });
  await api.service.mutate.createAccountingEntryUsingCodes(elsewhere, { date: `${year}-03-20`, journalTypeCode: 'VEN', accountingEntryLines: [{ subAccountCode: '4300000', debitAmount: '5.00' }, { subAccountCode: '7000000', creditAmount: '5.00' }] });
  await ok(`mutation { createCustomer(input: { socialName: "Solo S.L." }) { id } }`, undefined, headers);
  const count = `{ customers { totalCount aggregate(aggregateFields: ["__count"]) { aggregates { value } } } }`;
  t.same((await ok(count, undefined, headers)).customers.aggregate, [{ aggregates: [{ value: '1' }] }], 'the other organisation counts its one customer');

  // The owner's pool bypasses row-level security: only the aggregate's own organisation condition keeps the rows apart.
  const stored = async (table: string, organisationId: string) => String((await db.pool.query(`SELECT count(*) AS n FROM ${table} WHERE organisation_id = $1`, [organisationId])).rows[0].n);
  const direct = async (resource: Resource, organisationId: string) => (await aggregateQuery(db.pool, resource, organisationId, undefined, { aggregateFields: ['__count'] }))[0].aggregates[0].value;
  for (const [resource, table] of [[Customer, 'customers'], [AccountingEntryLine, 'accounting_entry_lines']] as const) {
    for (const organisationId of [api.organisationId, other.id]) {
      const n = await stored(table, organisationId);
      t.not(n, '0', `${table}: each organisation has rows`);
      t.equal(await direct(resource, organisationId), n, `${table}: an organisation counts its own rows only`);
    }
  }
  const mine = (await ok(count)).customers;
  t.same(mine.aggregate, [{ aggregates: [{ value: String(mine.totalCount) }] }], 'and through the API');
});

t.test('the cost analysis prices an aggregate by the groups it may answer', async (t) => {
  const cost = (q: string) => operationCost(schema, parse(q), {}).total;
  const base = cost(`{ accountingEntryLines(first: 1) { totalCount } }`);
  const one = cost(`{ accountingEntryLines(first: 1) { totalCount aggregate(aggregateFields: ["__count"]) { aggregates { name value } } } }`);
  const grouped = cost(`{ accountingEntryLines(first: 1) { totalCount aggregate(aggregateFields: ["__count"], groupFields: ["subAccountId"]) { aggregates { name value } } } }`);
  t.ok(one > base, 'an aggregate costs');
  t.ok(grouped >= base + AGGREGATE_LIMITS.maxGroups * (one - base - 10), `grouped, it costs as ${AGGREGATE_LIMITS.maxGroups} groups (${grouped} vs ${one})`);
});

t.test(`a grouping of more than ${AGGREGATE_LIMITS.maxGroups} groups is refused, not cut; groups tied in orderFields come in their values' order`, async (t) => {
  // One customer past the limit, each its own group by socialName; the last through the API, which waits for them all.
  const names = Array.from({ length: AGGREGATE_LIMITS.maxGroups + 1 }, (_, i) => `Grouped ${String(i).padStart(3, '0')}`);
  const ctx = { organisationId: api.organisationId };
  for (const socialName of names.slice(0, -1)) await api.service.mutate.createCustomer(ctx, { socialName });
  await ok(`mutation($n: String!) { createCustomer(input: { socialName: $n }) { id } }`, { n: names.at(-1) });
  const grouped = (where: string) => `{ customers(where: ${where}) { aggregate(aggregateFields: ["__count"], groupFields: ["socialName"], orderFields: ["__count DESC"]) { groupValues { value } } } }`;

  const atLimit = (await ok(grouped(`{ socialName: { startsWith: "Grouped ", neq: "${names.at(-1)}" } }`))).customers.aggregate.map((g: any) => g.groupValues[0].value);
  t.same(atLimit, names.slice(0, -1), 'exactly the limit answers; every count is 1, so the groups come in their names\' order');
  const over = await api.gql(grouped(`{ socialName: { startsWith: "Grouped " } }`));
  t.equal(over.errors?.[0]?.extensions?.code, 'INVALID_QUERY', JSON.stringify(over).slice(0, 300));
  t.equal(over.errors?.[0]?.message, `aggregate: more than ${AGGREGATE_LIMITS.maxGroups} groups: narrow the filter or group by fewer fields`);
});
