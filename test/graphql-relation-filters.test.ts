/**
 * Filters and sorts through related objects and lists, as Sage clients write them (`journalType: { code: { eq } }`,
 * `accountingEntryLines: { some: { subAccount: { code: { startsWith } } } }`, all, none, any, `order` through a
 * reference): validated against the SDL, run against the service, and each answer compared with the same data
 * filtered by ids. Depth beyond the limit is refused, a deep filter costs more, and a relation never reaches rows
 * of another organisation, even where row-level security is not in force.
 */
import t, { type Test } from 'tap';
import { randomUUID } from 'node:crypto';
import { buildSchema, parse, validate } from 'graphql';
import { operationCost } from '../api/graphql/cost.ts';
import { listQuery } from '../api/graphql/query-builder.ts';
import { MAX_RELATION_DEPTH, RELATION_FILTER_WEIGHT } from '../api/graphql/relation-filters.ts';
import { buildSdl } from '../api/graphql/sdl.ts';
import { AccountingEntry } from '../projections/accounting/read-models.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const schema = buildSchema(buildSdl());
// Set-up throws rather than asserts: tap ends a file's root test once its top level goes idle.
async function ok(query: string, variables?: object): Promise<any> {
  const r = await api.gql(query, variables);
  if (r.errors) throw new Error(`${query.slice(0, 80)}: ${JSON.stringify(r.errors)}`);
  return r.data;
}

/** Runs an operation only once it validates against the SDL, as a Sage client's would. */
async function sage(t: Test, query: string, variables?: object): Promise<any> {
  t.same(validate(schema, parse(query)).map((e) => e.message), [], 'validates against the SDL');
  return ok(query, variables);
}

const year = new Date().getUTCFullYear();
const POST = `mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id } }`;
const posted: [string, [string, string | null, string | null][]][] = [
  ['VEN', [['4300001', '121.00', null], ['7000000', null, '100.00'], ['4770000', null, '21.00']]],
  ['VEN', [['4300001', '50.00', null], ['4300001', null, '50.00']]],
  ['GEN', [['5720000', '10.00', null], ['1000000', null, '10.00']]],
  ['BAN', [['5720000', '2000.00', null], ['4300001', null, '2000.00']]],
];
for (const [i, [journalTypeCode, lines]] of posted.entries()) {
  await ok(POST, { v: { date: `${year}-02-${String(10 + i).padStart(2, '0')}`, journalTypeCode, description: `posted ${i}`, accountingEntryLines: lines.map(([subAccountCode, debitAmount, creditAmount]) => ({ subAccountCode, debitAmount, creditAmount })) } });
}

interface Entry { id: string; journalTypeId: string; accountingEntryLines: { subAccountId: string; debitAmount: string | null }[] }
const entries: Entry[] = (await ok(`{ accountingEntries(first: 500) { nodes { id journalTypeId accountingEntryLines { subAccountId debitAmount } } } }`)).accountingEntries.nodes;
const sorted = (ids: string[]) => [...ids].sort();
const allIds = sorted(entries.map((e) => e.id));
const journalId = async (code: string) => (await ok(`query($c: String) { journalTypes(where: { code: { eq: $c } }) { nodes { id } } }`, { c: code })).journalTypes.nodes[0].id as string;
const accounts43: string[] = (await ok(`{ accountingAccounts(first: 500, where: { code: { startsWith: "43" } }) { nodes { id } } }`)).accountingAccounts.nodes.map((a: any) => a.id);
/** Entries with a line on a 43 account, by ids: the lines list filtered on the accounts' ids. */
const with43 = new Set<string>((await ok(`query($a: [UUID]) { accountingEntryLines(first: 500, where: { subAccountId: { in: $a } }) { nodes { accountingEntryId } } }`, { a: accounts43 })).accountingEntryLines.nodes.map((l: any) => l.accountingEntryId));

const ENTRY_IDS = `totalCount nodes { id }`;
const idsOf = (c: { totalCount: number; nodes: { id: string }[] }, t: Test) => {
  t.equal(c.totalCount, c.nodes.length, 'totalCount counts the same rows');
  return sorted(c.nodes.map((n) => n.id));
};

t.test('entries by journal code: the entries of that journal id, sorted through the reference as pm-034 does', async (t) => {
  const r = await sage(t, `query { accountingEntries(first: 500, where: { journalType: { code: { eq: "VEN" } } }, order: [{ journalType: { code: ASC } }, { date: ASC }]) { ${ENTRY_IDS} } }`);
  const byId = (await ok(`query($j: UUID) { accountingEntries(first: 500, where: { journalTypeId: { eq: $j } }) { ${ENTRY_IDS} } }`, { j: await journalId('VEN') })).accountingEntries;
  t.ok(byId.nodes.length >= 3, 'the demo and this test post sales entries');
  t.same(idsOf(r.accountingEntries, t), idsOf(byId, t));
  const none = await ok(`{ accountingEntries(where: { journalType: { code: { eq: "NOPE" } } }) { ${ENTRY_IDS} } }`);
  t.same(none.accountingEntries, { totalCount: 0, nodes: [] });

  const ordered = await sage(t, `query { accountingEntries(first: 500, order: [{ journalType: { code: DESC } }, { number: ASC }]) { nodes { number journalType { code } } } }`);
  const codes = ordered.accountingEntries.nodes.map((n: any) => n.journalType.code);
  t.same(codes, [...codes].sort().reverse(), 'ordered by the journal code, descending');
  t.equal(codes.length, entries.length);
  const single = await ok(`{ accountingEntries(first: 500, order: { journalType: { code: ASC } }) { nodes { journalType { code } } } }`);
  t.same(single.accountingEntries.nodes.map((n: any) => n.journalType.code), [...codes].sort(), 'a single sort object is a list of one');
});

t.test("entries by a line's account: some, none, all, any", async (t) => {
  const some = await sage(t, `query($p: String!) { accountingEntries(first: 500, where: { accountingEntryLines: { some: { subAccount: { code: { startsWith: $p } } } } }) { ${ENTRY_IDS} } }`, { p: '43' });
  t.ok(with43.size >= 4);
  t.same(idsOf(some.accountingEntries, t), sorted([...with43]), 'some: the entries of the lines on those accounts');

  const none = await sage(t, `{ accountingEntries(first: 500, where: { accountingEntryLines: { none: { subAccount: { code: { startsWith: "43" } } } } }) { ${ENTRY_IDS} } }`);
  t.same(idsOf(none.accountingEntries, t), allIds.filter((id) => !with43.has(id)), 'none: every other entry');

  const all = await sage(t, `{ accountingEntries(first: 500, where: { accountingEntryLines: { all: { subAccount: { code: { startsWith: "43" } } } } }) { ${ENTRY_IDS} } }`);
  const allExpected = entries.filter((e) => e.accountingEntryLines.every((l) => accounts43.includes(l.subAccountId))).map((e) => e.id);
  t.equal(allExpected.length, 1, 'one entry has only 43 lines');
  t.same(idsOf(all.accountingEntries, t), sorted(allExpected), 'all: entries whose every line is on a 43 account');

  // A line without a debit compares unknown: it fails `all`, as it matches neither `some` nor `none` of its negation.
  const debited = await ok(`{ accountingEntries(first: 500, where: { accountingEntryLines: { all: { debitAmount: { gt: "0" } } } }) { ${ENTRY_IDS} } }`);
  t.same(debited.accountingEntries, { totalCount: 0, nodes: [] }, 'every entry has a line with no debit');

  const any = await sage(t, `{ accountingEntries(first: 500, where: { accountingEntryLines: { any: true } }) { ${ENTRY_IDS} } }`);
  t.same(idsOf(any.accountingEntries, t), allIds);
  const noLines = await ok(`{ accountingEntries(where: { accountingEntryLines: { any: false } }) { ${ENTRY_IDS} } }`);
  t.same(noLines.accountingEntries, { totalCount: 0, nodes: [] });

  const combined = await ok(`{ accountingEntries(first: 500, where: { or: [{ journalType: { code: { eq: "GEN" } } }, { accountingEntryLines: { some: { debitAmount: { gte: "2000" } } } }] }) { ${ENTRY_IDS} } }`);
  const gen = await journalId('GEN');
  const expected = entries.filter((e) => e.journalTypeId === gen || e.accountingEntryLines.some((l) => l.debitAmount !== null && Number(l.debitAmount) >= 2000)).map((e) => e.id);
  t.same(idsOf(combined.accountingEntries, t), sorted(expected), 'relations inside or');
});

t.test("entries with a line on one account named by its code: each entry once, however many of its lines are on it", async (t) => {
  const code = '4300001';
  const [account] = (await ok(`query($c: String) { accountingAccounts(where: { code: { eq: $c } }) { nodes { id } } }`, { c: code })).accountingAccounts.nodes;
  const expected = entries.filter((e) => e.accountingEntryLines.some((l) => l.subAccountId === account.id)).map((e) => e.id);
  t.ok(entries.some((e) => e.accountingEntryLines.filter((l) => l.subAccountId === account.id).length > 1), 'an entry has two lines on the account');
  const some = await sage(t, `query($c: String) { accountingEntries(first: 500, where: { accountingEntryLines: { some: { subAccount: { code: { eq: $c } } } } }) { ${ENTRY_IDS} } }`, { c: code });
  t.same(idsOf(some.accountingEntries, t), sorted(expected));
  const page = await ok(`query($c: String) { accountingEntries(first: 1, where: { accountingEntryLines: { some: { subAccount: { code: { eq: $c } } } } }) { totalCount nodes { id } } }`, { c: code });
  t.equal(page.accountingEntries.totalCount, expected.length, 'a page counts every matching entry');
  const unknown = await ok(`{ accountingEntries(where: { accountingEntryLines: { some: { subAccount: { code: { eq: "no such" } } } } }) { ${ENTRY_IDS} } }`);
  t.same(unknown.accountingEntries, { totalCount: 0, nodes: [] });
});

t.test('lines through their entry and its journal, sorted through two references (pm-035..038)', async (t) => {
  const r = await sage(t, `query { accountingEntryLines(first: 500, where: { accountingEntry: { journalType: { type: { eq: SALES_INVOICE } } } }, order: [{ accountingEntry: { journalType: { code: ASC } } }, { accountingEntry: { date: DESC } }, { subAccount: { code: ASC } }]) {
    totalCount nodes { accountingEntryId subAccount { code } accountingEntry { date journalType { code type } } } } }`);
  const lines = r.accountingEntryLines.nodes;
  const ven = await journalId('VEN');
  const expectedEntries = entries.filter((e) => e.journalTypeId === ven);
  t.equal(lines.length, expectedEntries.reduce((n, e) => n + e.accountingEntryLines.length, 0), 'the lines of the sales entries');
  t.ok(lines.every((l: any) => l.accountingEntry.journalType.type === 'SALES_INVOICE'));
  const keys = lines.map((l: any) => `${l.accountingEntry.date}|${l.subAccount.code}`);
  const expectedOrder = [...keys].sort((a, b) => (a.split('|')[0] === b.split('|')[0] ? a.localeCompare(b) : b.localeCompare(a)));
  t.same(keys, expectedOrder, 'by date descending, then account code');
});

t.test('customers through contacts and their e-mails (pm-009); a customer without contacts satisfies all', async (t) => {
  const CREATE = `mutation($v: CustomerCreateGLDtoInput!) { createCustomer(input: $v) { id } }`;
  const alone = (await ok(CREATE, { v: { socialName: 'Sin Contactos S.L.' } })).createCustomer.id;
  const ana = (await ok(CREATE, { v: { socialName: 'Ana S.L.', contacts: [{ name: 'Ana', surname: 'Ruiz', emails: [{ emailAddress: 'ana@ana.example' }] }] } })).createCustomer.id;
  const mixed = (await ok(CREATE, { v: { socialName: 'Mixta S.L.', contacts: [{ name: 'Ana', surname: 'Rey' }, { name: 'Luis', emails: [{ emailAddress: 'luis@mixta.example' }] }] } })).createCustomer.id;
  const list = async (where: string, variables?: object) => sorted((await sage(t, `query${variables ? '($e: String)' : ''} { customers(first: 500, where: ${where}) { nodes { id } } }`, variables)).customers.nodes.map((n: any) => n.id));

  t.same(await list(`{ contacts: { some: { emails: { some: { emailAddress: { eq: $e } } } } } }`, { e: 'ana@ana.example' }), [ana]);
  t.same(await list(`{ contacts: { none: { emails: { none: { emailAddress: { neq: null } } } } } }`), sorted([alone, ana]), 'none nested twice: no contact without an e-mail');
  t.same(await list(`{ contacts: { all: { name: { eq: "Ana" } } } }`), sorted([alone, ana]), 'all: vacuously true without contacts');
  t.same(await list(`{ contacts: { any: false } }`), [alone]);
  t.same(await list(`{ contacts: { all: { surname: { startsWith: "R" } } } }`), sorted([alone, ana]), 'a contact without a surname fails all');
  t.same(await list(`{ and: [{ contacts: { some: { name: { eq: "Ana" } } } }, { contacts: { some: { name: { eq: "Luis" } } } }] }`), [mixed]);
});

t.test(`nesting beyond ${MAX_RELATION_DEPTH} relations is refused as INVALID_QUERY`, async (t) => {
  const three = await api.gql(`{ accountingEntryLines(where: { accountingEntry: { journalType: { accountingAccount: { code: { eq: "x" } } } } }) { totalCount } }`);
  t.same(three.errors, undefined, 'three levels answer');
  t.equal(three.data.accountingEntryLines.totalCount, 0);
  const deep = [
    `{ accountingEntryLines(where: { accountingEntry: { journalType: { accountingAccount: { yearEndClosingAccount: { code: { eq: "x" } } } } } }) { totalCount } }`,
    `{ accountingEntries(where: { accountingEntryLines: { some: { accountingEntry: { accountingEntryLines: { all: { accountingEntry: { id: { eq: null } } } } } } } }) { totalCount } }`,
    `{ accountingEntryLines(order: [{ accountingEntry: { journalType: { accountingAccount: { yearEndClosingAccount: { code: ASC } } } } }]) { totalCount } }`,
  ];
  for (const query of deep) {
    t.same(validate(schema, parse(query)), [], 'valid by the SDL');
    const r = await api.gql(query);
    t.equal(r.errors?.[0]?.extensions?.code, 'INVALID_QUERY', query.slice(2, 60));
    t.match(r.errors?.[0]?.message, /at most 3 related/);
  }
  const wrong = await api.gql(`{ accountingEntries(where: { accountingEntryLines: { some: null } }) { totalCount } }`);
  t.equal(wrong.errors?.[0]?.extensions?.code, 'INVALID_QUERY', 'a null list filter is refused, not ignored');
});

t.test('a reference under a list beyond the depth limit is refused whether or not the lookup finds its row', async (t) => {
  // subAccount's `or` reaches 4 relations down; the code either names one account (the lookup resolves it) or none.
  const deep = (code: string) => `{ accountingEntries(first: 1, where: { accountingEntryLines: { some: { subAccount: { or: [{ code: { eq: "${code}" } }, { yearEndClosingAccount: { yearEndClosingAccount: { code: { eq: "x" } } } }] } } } }) { totalCount } }`;
  for (const code of ['4300001', 'no such']) {
    const r = await api.gql(deep(code));
    t.equal(r.errors?.[0]?.extensions?.code, 'INVALID_QUERY', `code ${code}: ${JSON.stringify(r)}`);
    t.match(r.errors?.[0]?.message, /at most 3 related/);
  }
});

t.test("customers through addresses or contacts count customers only, not the suppliers sharing those tables", async (t) => {
  const customer = (await ok(`mutation($v: CustomerCreateGLDtoInput!) { createCustomer(input: $v) { id } }`, { v: { socialName: 'Cliente Toledo', addresses: [{ firstLine: 'Calle 1', city: 'Toledo', countryIsoCodeAlpha2: 'ES' }], contacts: [{ name: 'Anabel' }] } })).createCustomer.id;
  for (const [i, contacts] of [[{ name: 'Anabel' }], []].entries()) {
    await ok(`mutation($v: SupplierCreateGLDtoInput!) { createSupplier(input: $v) { id } }`, { v: { socialName: `Proveedor Toledo ${i}`, addresses: [{ firstLine: `Calle ${i + 2}`, city: 'Toledo', countryIsoCodeAlpha2: 'ES' }], contacts } });
  }
  const withAddress = sorted((await ok(`{ customers(first: 500) { nodes { id addresses { id } } } }`)).customers.nodes.filter((c: any) => c.addresses.length > 0).map((c: any) => c.id));
  for (const [where, expected] of [
    ['{ addresses: { some: { city: { eq: "Toledo" } } } }', [customer]],
    ['{ contacts: { some: { name: { eq: "Anabel" } } } }', [customer]],
    ['{ addresses: { any: true } }', withAddress],
  ] as const) {
    const all = (await sage(t, `{ customers(first: 500, where: ${where}) { ${ENTRY_IDS} } }`)).customers;
    t.same(idsOf(all, t), sorted([...expected]), where);
    const last = (await ok(`{ customers(last: 1, where: ${where}) { totalCount nodes { id } } }`)).customers;
    t.same(last, { totalCount: expected.length, nodes: [{ id: all.nodes.at(-1).id }] }, `last: 1 is the last customer (${where})`);
  }
});

t.test('each relation level of a filter or sort costs like a field, through variables too', async (t) => {
  const cost = (query: string, variables?: Record<string, unknown>) => operationCost(schema, parse(query), variables).fieldCost;
  const flat = cost(`{ accountingEntryLines(first: 1, where: { accountingEntryId: { eq: null } }) { totalCount } }`);
  const one = cost(`{ accountingEntryLines(first: 1, where: { accountingEntry: { id: { eq: null } } }) { totalCount } }`);
  const three = cost(`query($w: AccountingEntryLineFilterInput) { accountingEntryLines(first: 1, where: $w) { totalCount } }`, {
    w: { accountingEntry: { accountingEntryLines: { some: { subAccount: { code: { eq: '4' } } } } } },
  });
  const sortTwo = cost(`{ accountingEntryLines(first: 1, order: [{ accountingEntry: { journalType: { code: ASC } } }]) { totalCount } }`);
  t.equal(one - flat, RELATION_FILTER_WEIGHT);
  t.equal(three - flat, 3 * RELATION_FILTER_WEIGHT, 'a variable filter is priced by its value');
  t.equal(sortTwo - flat, 2 * RELATION_FILTER_WEIGHT);
  const many = cost(`{ accountingEntryLines(first: 1, where: { or: [${Array(20).fill('{ accountingEntry: { journalType: { code: { eq: "V" } } } }').join(', ')}] }) { totalCount } }`);
  t.equal(many - flat, 40 * RELATION_FILTER_WEIGHT, 'each branch is priced');
});

t.test("a relation filter never matches another organisation's rows, row-level security aside", async (t) => {
  const { db, commands, daemon } = api.service;
  const other = await commands.createOrganisation({}, { name: 'Neighbour Ltd', country: 'GB' });
  await daemon.waitFor(other.position);
  const mine = entries[0].id;
  // Rows of the other organisation pointing at ours: a foreign line under our entry, a foreign journal type our entry names.
  const foreignJournal = randomUUID();
  await db.pool.query(`INSERT INTO journal_types (organisation_id, id, code, name) VALUES ($1, $2, 'AAA', 'foreign')`, [other.id, foreignJournal]);
  await db.pool.query(`INSERT INTO accounting_entry_lines (organisation_id, id, accounting_entry_id, description) VALUES ($1, $2, $3, 'foreign')`, [other.id, randomUUID(), mine]);
  const { rows } = await db.pool.query(`SELECT journal_type_id FROM accounting_entries WHERE id = $1`, [mine]);
  await db.pool.query(`UPDATE accounting_entries SET journal_type_id = $2 WHERE id = $1`, [mine, foreignJournal]);
  t.teardown(() => db.pool.query(`UPDATE accounting_entries SET journal_type_id = $2 WHERE id = $1`, [mine, rows[0].journal_type_id]));

  // The owner's pool bypasses row-level security: only the queries' own organisation conditions keep the rows apart.
  const direct = (where: Record<string, unknown>) => listQuery(db.pool, AccountingEntry, api.organisationId, { first: 500, where });
  t.equal((await direct({ journalType: { code: { eq: 'AAA' } } })).totalCount, 0, 'a foreign referenced row matches nothing');
  t.equal((await direct({ accountingEntryLines: { some: { description: { eq: 'foreign' } } } })).totalCount, 0, 'a foreign child is not some');
  t.equal((await direct({ accountingEntryLines: { none: { description: { eq: 'foreign' } } } })).totalCount, entries.length, 'nor excludes under none');
  const allMine = await direct({ accountingEntryLines: { all: { description: { neq: 'foreign' } } } });
  t.equal(allMine.totalCount, entries.length, 'nor fails all');
  const sortedByForeign = await listQuery(db.pool, AccountingEntry, api.organisationId, { first: 500, order: [{ journalType: { code: 'ASC' } }] });
  t.equal(sortedByForeign.nodes.at(-1)!.id, mine, "a foreign journal's code (AAA) is not sorted by: the entry sorts as one without a journal, last");

  const viaApi = await ok(`{ accountingEntries(where: { journalType: { code: { eq: "AAA" } } }) { totalCount } }`);
  t.equal(viaApi.accountingEntries.totalCount, 0, 'nor through the API');
});
