/**
 * aggregationCatalog / aggregationExecute and listCatalog / listExecute through the real service. A Spanish
 * organisation of our own books a few entries this year and last (amounts below), and a few sales invoices; the
 * demo organisation's books stand beside it and must never show. Every expected figure is computed by hand here.
 */
import t from 'tap';
import { clientOf } from './helpers/organisation-client.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, daemon, store } = api.service as any;
const year = new Date().getUTCFullYear();
const last = year - 1;
const projected = async () => daemon.waitFor(await store.committedHead());

const mine = await clientOf(api, 'ES', 'Analítica S.L.', 'analitica@example.es');
const ctx = { organisationId: mine.orgId };
await mutate.createAccountingExercise(ctx, { startDate: `${last}-01-01`, endDate: `${last}-12-31`, description: `Ejercicio ${last}` });

// [date, journal, debit account, credit account, amount]
const ENTRIES: [string, string, string, string, string][] = [
  [`${year}-03-05`, 'GEN', '6210000', '5720000', '100.00'],
  [`${year}-03-10`, 'GEN', '6280000', '5720000', '50.00'],
  [`${year}-04-02`, 'GEN', '6290000', '5720000', '30.00'],
  [`${year}-04-20`, 'VEN', '4300000', '7000000', '400.00'],
  [`${year}-05-03`, 'VEN', '4300000', '7050000', '200.00'],
  [`${year}-05-10`, 'COM', '6400000', '4000000', '70.00'],
  [`${last}-03-07`, 'GEN', '6210000', '5720000', '80.00'],
  [`${last}-04-15`, 'VEN', '4300000', '7000000', '300.00'],
];
for (const [date, journal, debit, credit, amount] of ENTRIES) {
  await mutate.createAccountingEntryUsingCodes(ctx, {
    description: `${debit} / ${credit}`, date, journalTypeCode: journal,
    accountingEntryLines: [{ subAccountCode: debit, debitAmount: amount, creditAmount: null }, { subAccountCode: credit, debitAmount: null, creditAmount: amount }],
  });
}

// Sales: Cliente Uno 2 x 100.00 and Cliente Dos 1 x 100.00, closed (not posted: the ledger above stays as it is);
// Cliente Dos also has a 50.00 draft. IVA 21 %.
const product = await mutate.createProduct(ctx, { code: 'SRV', name: 'Servicio', category: 'PRODUCT', salesUnitPrice: '100.00' });
const uno = (await mutate.createCustomer(ctx, { socialName: 'Cliente Uno' })).id;
const dos = (await mutate.createCustomer(ctx, { socialName: 'Cliente Dos' })).id;
const invoice = async (customerId: string, quantity: string, unitPrice: string, close: boolean) => {
  const id = (await mutate.createSalesInvoice(ctx, { customerId, documentDate: `${year}-03-02`, lines: [{ productId: product.id, totalQuantity: quantity, unitPrice }] })).id;
  if (close) await mutate.closeSalesInvoice(ctx, { salesInvoiceId: id });
  return id;
};
await invoice(uno, '2', '100.00', true);
await invoice(dos, '1', '100.00', true);
await invoice(dos, '1', '50.00', false);
await projected();

const EXECUTE = `query($input: AggregationExecuteDtoInput!) { aggregationExecute(input: $input) {
  meta { entityKey context aggregationType periodType dateMin dateMax compare top includeOthers othersLabel filterName groupByName valueColumn1 valueColumn2 distinctCountName search searchScope }
  rows { groupValue secondValue period value1 value2 periodN periodN_1 valueN valueN_1 deltaPercent } } }`;
const LIST = `query($input: ListExecuteDtoInput!) { listExecute(input: $input) { meta { entityKey context filterName orderByName dateMin dateMax search } rows totalCount pageInfo { hasNextPage endCursor } } }`;
const BY_ACCOUNT = 'queryAggregateAccountingEntryLines';
const THIS_YEAR = { dateMin: `${year}-01-01`, dateMax: `${year}-12-31` };

async function execute(input: object, headers = mine.headers) {
  const r = await api.gql(EXECUTE, { input: { entityKey: BY_ACCOUNT, aggregationType: 'SUM', periodType: 'None', ...THIS_YEAR, ...input } }, headers);
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data.aggregationExecute;
}
const pairs = (rows: any[], value = 'value1') => rows.map((r) => [r.groupValue, r[value]]);

async function list(input: object, headers = mine.headers) {
  const r = await api.gql(LIST, { input }, headers);
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data.listExecute;
}

t.test('the catalogs list every context, and contextContains narrows them', async (t) => {
  const r = await api.gql(`{ aggregationCatalog { definitions { entityKey context aggregationTypes periodTypes filters groupBy { name title1 title2 } valueColumns distinctCounts searchScopes } } }`, {}, mine.headers);
  const byKey = Object.fromEntries(r.data.aggregationCatalog.definitions.map((d: any) => [d.entityKey, d]));
  t.same(Object.values(byKey).map((d: any) => d.context).sort(), [
    'Accounting Entry Lines by Account', 'Accounting Entry Lines by Journal',
    'Sales Delivery Note Lines by Product', 'Sales Delivery Notes by Customer', 'Sales Invoice Lines by Product', 'Sales Invoice Payments by Customer',
    'Sales Invoices by Customer', 'Sales Order Lines by Product', 'Sales Orders by Customer', 'Sales Quote Lines by Product', 'Sales Quotes by Customer',
  ]);
  const ledger = byKey[BY_ACCOUNT];
  t.same(ledger.filters, ['All accounts', 'Charges & Revenues', 'Charges', 'Revenues', 'Suppliers & Customers']);
  t.same(ledger.groupBy.map((g: any) => g.name), ['None', 'Account Code', 'First 2 Digits', 'First 3 Digits']);
  t.same(ledger.valueColumns, ['Debit', 'Credit']);
  t.same(ledger.distinctCounts, ['Accounting Entries', 'Accounting Exercises', 'Journal Types']);
  t.same(ledger.periodTypes, ['Day', 'Week', 'Month', 'Quarter', 'Year', 'None']);
  t.same(byKey.queryAggregateSalesInvoices.groupBy.map((g: any) => g.name), ['None', 'Customer']);
  t.same(byKey.queryAggregateSalesInvoices.valueColumns, ['Total Net', 'Total Liquid']);
  t.notOk(Object.keys(byKey).some((k) => /Purchase/.test(k)), 'no purchase context while purchases are not built');
  // Every context answers every group-by, period type and distinct count it lists (its SQL is sound).
  for (const d of Object.values(byKey) as any[]) {
    for (const [i, g] of d.groupBy.entries()) {
      const periodType = d.periodTypes[i % d.periodTypes.length];
      const input = { entityKey: d.entityKey, aggregationType: 'SUM', periodType, valueColumn1: d.valueColumns[0], valueColumn2: d.valueColumns.at(-1), groupByName: g.name, top: 2, includeOthers: true, compare: true, filterName: d.filters.at(-1) };
      const r = await api.gql(EXECUTE, { input: { ...THIS_YEAR, ...input } }, mine.headers);
      t.equal(r.errors, undefined, `${d.entityKey} by ${g.name}, ${periodType}`);
    }
    for (const name of d.distinctCounts) {
      const r = await api.gql(EXECUTE, { input: { ...THIS_YEAR, entityKey: d.entityKey, aggregationType: 'DISTINCTCOUNT', periodType: 'Week', distinctCountName: name } }, mine.headers);
      t.equal(r.errors, undefined, `${d.entityKey}: distinct ${name}`);
    }
  }
  const narrowed = await api.gql(`{ aggregationCatalog(contextContains: "by journal") { definitions { entityKey } } }`, {}, mine.headers);
  t.same(narrowed.data.aggregationCatalog.definitions, [{ entityKey: 'queryAggregateAccountingEntryLinesByJournal' }]);

  const lists = await api.gql(`{ listCatalog { definitions { entityKey context filters orderBy supportsDateRange } } }`, {}, mine.headers);
  const listKeys = Object.fromEntries(lists.data.listCatalog.definitions.map((d: any) => [d.entityKey, d]));
  t.same(Object.keys(listKeys).sort(), [
    'accountingEntries', 'accountingEntryLines', 'customers', 'products', 'salesDeliveryNoteLines', 'salesDeliveryNotes', 'salesInvoiceLines',
    'salesInvoiceOpenItems', 'salesInvoices', 'salesOrderLines', 'salesOrders', 'salesQuoteLines', 'salesQuotes', 'suppliers',
  ]);
  // Every list answers every filter and order it lists.
  for (const d of Object.values(listKeys) as any[]) {
    for (const [i, filterName] of d.filters.entries()) {
      const search = !filterName.startsWith('Search') ? undefined : / id$/.test(filterName) ? uno : 'C';
      const dates = d.supportsDateRange ? THIS_YEAR : {};
      const r = await api.gql(LIST, { input: { entityKey: d.entityKey, filterName, orderByName: d.orderBy[i % d.orderBy.length], search, first: 1, ...dates } }, mine.headers);
      t.equal(r.errors, undefined, `${d.entityKey}: ${filterName}`);
    }
  }
  t.same(listKeys.salesInvoices.orderBy, ['Invoice date desc', 'Invoice number']);
  t.ok(listKeys.salesInvoices.filters.includes('Unpaid - overdue') && listKeys.salesInvoices.supportsDateRange);
  t.equal(listKeys.customers.supportsDateRange, false);
});

t.test('the roots are served: userAccessPolicyCheck allows them', async (t) => {
  const actions = ['aggregationCatalog', 'aggregationExecute', 'listCatalog', 'listExecute'];
  const r = await api.gql(`query($a: [String!]!) { userAccessPolicyCheck(actions: $a) { action isAllowed } }`, { a: actions }, mine.headers);
  t.same(r.data.userAccessPolicyCheck, actions.map((action) => ({ action, isAllowed: true })));
});

t.test('top 3 and Others add up to the total; ranking is on valueColumn1', async (t) => {
  const total = await execute({ valueColumn1: 'Debit', valueColumn2: 'Credit' });
  t.same(total.rows.map((r: any) => [r.groupValue, r.period, r.value1, r.value2]), [[null, null, '850.00', '850.00']], 'debits 100+50+30+400+200+70');
  const top = await execute({ valueColumn1: 'Debit', groupByName: 'Account Code', top: 3, includeOthers: true, othersLabel: 'Resto' });
  t.same(pairs(top.rows), [['4300000', '600.00'], ['6210000', '100.00'], ['6400000', '70.00'], ['Resto', '80.00']]);
  t.same(top.rows.map((r: any) => r.secondValue), ['Clientes', 'Arrendamientos y cánones', 'Sueldos y salarios', null]);
  t.equal(top.rows.reduce((sum: number, r: any) => sum + Number(r.value1), 0).toFixed(2), total.rows[0].value1);
  t.same(pairs((await execute({ valueColumn1: 'Debit', groupByName: 'Account Code', top: 3 })).rows), [['4300000', '600.00'], ['6210000', '100.00'], ['6400000', '70.00']], 'without includeOthers: the 3 alone');
  const all = await execute({ valueColumn1: 'Credit', groupByName: 'Account Code', top: 0 });
  // Every account with a line this year; the debited ones credit 0.00 and rank last, ties by code.
  const zero = ['4300000', '6210000', '6280000', '6290000', '6400000'].map((code) => [code, '0.00']);
  t.same(pairs(all.rows), [['7000000', '400.00'], ['7050000', '200.00'], ['5720000', '180.00'], ['4000000', '70.00'], ...zero], 'top 0: every group, ranked');
  const unranked = await execute({ valueColumn1: 'Credit', groupByName: 'Account Code', top: -1 });
  t.same(pairs(unranked.rows).map((p) => p[0]), ['4000000', '4300000', '5720000', '6210000', '6280000', '6290000', '6400000', '7000000', '7050000'], 'top -1: by group');
});

t.test('group by the first 2 or 3 digits, filters, distinct counts and periods equal hand-computed sums', async (t) => {
  t.same(pairs((await execute({ valueColumn1: 'Debit', filterName: 'Charges', groupByName: 'First 2 Digits' })).rows), [['62', '180.00'], ['64', '70.00']]);
  t.same(pairs((await execute({ valueColumn1: 'Credit', filterName: 'Revenues', groupByName: 'First 3 Digits' })).rows), [['700', '400.00'], ['705', '200.00']]);
  t.same(pairs((await execute({ valueColumn1: 'Debit', filterName: 'Suppliers & Customers', groupByName: 'Account Code' })).rows), [['4000000', '0.00'], ['4300000', '600.00']]);
  t.same(pairs((await execute({ valueColumn1: 'Credit', valueColumn2: 'Debit', filterName: 'Suppliers & Customers', groupByName: 'Account Code' }))
    .rows, 'value2'), [['4000000', '0.00'], ['4300000', '600.00']], 'value2: the second column');
  const entries = await execute({ aggregationType: 'DISTINCTCOUNT', distinctCountName: 'Accounting Entries', filterName: 'Charges' });
  t.same(pairs(entries.rows), [[null, '4']], 'four entries charge an expense this year');
  t.same(pairs((await execute({ aggregationType: 'AVG', valueColumn1: 'Debit', filterName: 'Charges' })).rows), [[null, '62.50']], 'the mean line: (100 + 50 + 30 + 70) / 4');
  t.same(pairs((await execute({ aggregationType: 'MAX', valueColumn1: 'Debit', filterName: 'Charges', groupByName: 'First 2 Digits' })).rows), [['62', '100.00'], ['64', '70.00']]);
  const journals = await execute({ entityKey: 'queryAggregateAccountingEntryLinesByJournal', aggregationType: 'COUNT', groupByName: 'Journal' });
  t.same(pairs(journals.rows), [['COM', '2'], ['GEN', '6'], ['VEN', '4']], 'lines by journal');
  const monthly = await execute({ valueColumn1: 'Debit', filterName: 'Charges', periodType: 'Month' });
  t.same(monthly.rows.map((r: any) => [r.period, r.value1]), [[`${year}-03-01T00:00:00.000Z`, '150.00'], [`${year}-04-01T00:00:00.000Z`, '30.00'], [`${year}-05-01T00:00:00.000Z`, '70.00']]);
  const searched = await execute({ valueColumn1: 'Debit', search: '62', searchScope: 'Account Code', groupByName: 'Account Code' });
  t.same(pairs(searched.rows), [['6210000', '100.00'], ['6280000', '50.00'], ['6290000', '30.00']]);
  // A group-by, a period type and top N: dateMin goes back to its month's first day, so 5 March counts.
  const realigned = await execute({ valueColumn1: 'Debit', filterName: 'Charges', groupByName: 'Account Code', periodType: 'Month', top: 1, dateMin: `${year}-03-15`, dateMax: `${year}-03-31` });
  t.equal(realigned.meta.dateMin, `${year}-03-01`);
  t.same(pairs(realigned.rows), [['6210000', '100.00']]);
  const asGiven = await execute({ valueColumn1: 'Debit', filterName: 'Charges', periodType: 'Month', top: 1, dateMin: `${year}-03-15`, dateMax: `${year}-03-31` });
  t.same(asGiven.rows, [], 'groupBy None: the dates as given');
});

t.test('compare: the same range a year earlier, deltaPercent null when it was 0', async (t) => {
  const r = await execute({ valueColumn1: 'Debit', filterName: 'Charges', groupByName: 'Account Code', periodType: 'Month', compare: true, dateMin: `${year}-03-01`, dateMax: `${year}-04-30` });
  t.same(r.rows.map((x: any) => [x.groupValue, x.periodN, x.periodN_1, x.valueN, x.valueN_1, x.deltaPercent]), [
    ['6210000', `${year}-03-01T00:00:00.000Z`, `${last}-03-01T00:00:00.000Z`, '100.00', '80.00', '25.00'], // (100 - 80) / 80
    ['6280000', `${year}-03-01T00:00:00.000Z`, `${last}-03-01T00:00:00.000Z`, '50.00', '0.00', null],
    ['6290000', `${year}-04-01T00:00:00.000Z`, `${last}-04-01T00:00:00.000Z`, '30.00', '0.00', null],
  ]);
  t.ok(r.rows.every((x: any) => x.value1 === null && x.value2 === null && x.period === null), 'value1, value2 and period null with compare');
  const revenues = await execute({ valueColumn1: 'Credit', filterName: 'Revenues', periodType: 'Month', compare: true, dateMin: `${year}-04-01`, dateMax: `${year}-05-31` });
  t.same(revenues.rows.map((x: any) => [x.periodN, x.valueN, x.valueN_1, x.deltaPercent]), [
    [`${year}-04-01T00:00:00.000Z`, '400.00', '300.00', '33.33'],
    [`${year}-05-01T00:00:00.000Z`, '200.00', '0.00', null],
  ]);
  const lastYearOnly = await execute({ valueColumn1: 'Debit', filterName: 'Charges', compare: true, dateMin: `${year}-03-06`, dateMax: `${year}-03-07` });
  t.same(lastYearOnly.rows.map((x: any) => [x.valueN, x.valueN_1, x.deltaPercent]), [['0.00', '80.00', '-100.00']], 'nothing this year, 80.00 a year earlier');
  const plain = await execute({ valueColumn1: 'Debit' });
  t.ok(plain.rows.every((x: any) => x.valueN === null && x.deltaPercent === null && x.periodN === null), 'compare fields null without compare');
});

t.test('sales contexts: invoices by customer and lines by product, converted and filtered', async (t) => {
  const byCustomer = await execute({ entityKey: 'queryAggregateSalesInvoices', groupByName: 'Customer', valueColumn1: 'Total Net', valueColumn2: 'Total Liquid', top: 0 });
  t.same(byCustomer.rows.map((r: any) => [r.secondValue, r.value1, r.value2]), [['Cliente Uno', '200.00', '242.00'], ['Cliente Dos', '150.00', '181.50']]);
  const issued = await execute({ entityKey: 'queryAggregateSalesInvoices', filterName: 'Issued invoices', groupByName: 'Customer', valueColumn1: 'Total Net', top: 0 });
  t.same(issued.rows.map((r: any) => [r.secondValue, r.value1]), [['Cliente Uno', '200.00'], ['Cliente Dos', '100.00']], 'the draft left out');
  const one = await execute({ entityKey: 'queryAggregateSalesInvoices', valueColumn1: 'Total Net', search: dos, searchScope: 'CustomerId' });
  t.same(pairs(one.rows), [[null, '150.00']]);
  const lines = await execute({ entityKey: 'queryAggregateSalesInvoiceLines', groupByName: 'Product', valueColumn1: 'Total Net' });
  t.same(lines.rows.map((r: any) => [r.groupValue, r.secondValue, r.value1]), [['SRV', 'Servicio', '350.00']]);
});

t.test('listExecute: paging walks every row once; filters, search and dates narrow it', async (t) => {
  const seen: string[] = [];
  let after: string | null = null;
  let pages = 0;
  let totalCount = 0;
  do {
    const page: any = await list({ entityKey: 'accountingEntryLines', filterName: 'All lines', orderByName: 'Entry and order', first: 5, after });
    totalCount = page.totalCount;
    seen.push(...page.rows.map((r: any) => r.id));
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    pages++;
  } while (after && pages < 20);
  t.equal(totalCount, 16, 'eight entries of two lines');
  t.equal(seen.length, 16);
  t.equal(new Set(seen).size, 16, 'each once');
  t.equal(pages, 4);
  const searched = await list({ entityKey: 'accountingEntryLines', filterName: 'Search by account code', orderByName: 'Entry and order', search: '62' });
  t.equal(searched.totalCount, 4, '6210000 twice, 6280000, 6290000');
  t.same(searched.meta, { entityKey: 'accountingEntryLines', context: 'Accounting Entry Lines', filterName: 'Search by account code', orderByName: 'Entry and order', dateMin: null, dateMax: null, search: '62' });
  t.notOk('thirdPartyId' in searched.rows[0], 'hidden columns stay hidden');
  t.ok(searched.rows[0].debitAmount !== undefined && searched.rows[0].subAccountId, 'the row as its GraphQL node');
  const march = await list({ entityKey: 'accountingEntries', filterName: 'All entries', orderByName: 'Entry date desc', dateMin: `${year}-03-01`, dateMax: `${year}-03-31` });
  t.same(march.rows.map((r: any) => r.description), ['6280000 / 5720000', '6210000 / 5720000']);
  const linesInMarch = await list({ entityKey: 'accountingEntryLines', filterName: 'All lines', orderByName: 'Entry and order', dateMin: `${year}-03-05`, dateMax: `${year}-03-05` });
  t.equal(linesInMarch.totalCount, 2, 'dated by their entry');
  const drafts = await list({ entityKey: 'salesInvoices', filterName: 'Draft', orderByName: 'Invoice number' });
  t.same(drafts.rows.map((r: any) => [r.customerId, r.totalNet]), [[dos, '50.00']]);
  const validated = await list({ entityKey: 'salesInvoices', filterName: 'Validated invoices', orderByName: 'Invoice number' });
  t.equal(validated.totalCount, 2);
  const national = await list({ entityKey: 'salesInvoices', filterName: 'National invoices', orderByName: 'Invoice date desc' });
  t.equal(national.totalCount, 3, 'customers of no recorded country are national');
  const customers = await list({ entityKey: 'customers', filterName: 'Search by name or code', orderByName: 'Name', search: 'Cliente' });
  t.same(customers.rows.map((r: any) => r.socialName), ['Cliente Dos', 'Cliente Uno']);
});

t.test('unknown names and bad values are refused with INVALID_QUERY naming the field', async (t) => {
  const base = { entityKey: BY_ACCOUNT, aggregationType: 'SUM', periodType: 'None', ...THIS_YEAR };
  const refusals: [object, string][] = [
    [{ entityKey: 'queryAggregateNothing' }, 'entityKey'],
    [{ entityKey: 'queryAggregatePurchaseInvoices' }, 'entityKey'],
    [{ aggregationType: 'MEDIAN' }, 'aggregationType'],
    [{ periodType: 'Fortnight' }, 'periodType'],
    [{ filterName: 'Some accounts' }, 'filterName'],
    [{ groupByName: 'First 4 Digits' }, 'groupByName'],
    [{ valueColumn1: 'Balance' }, 'valueColumn1'],
    [{ aggregationType: 'DISTINCTCOUNT', distinctCountName: 'Lines' }, 'distinctCountName'],
    [{ search: 'x', searchScope: 'ProductId' }, 'searchScope'],
    [{ search: 'not-a-uuid', searchScope: 'CustomerId' }, 'search'],
    [{ top: -2 }, 'top'],
    [{ dateMin: 'yesterday' }, 'dateMin'],
    [{ dateMin: `${year}-05-01`, dateMax: `${year}-04-01` }, 'dateMax'],
  ];
  for (const [input, field] of refusals) {
    const r = await api.gql(EXECUTE, { input: { ...base, ...input } }, mine.headers);
    t.equal(r.errors?.[0]?.extensions?.code, 'INVALID_QUERY', `${JSON.stringify(input)} refused`);
    t.match(r.errors?.[0]?.message, `input.${field}`, `naming ${field}`);
  }
  const listBase = { entityKey: 'accountingEntryLines', filterName: 'All lines', orderByName: 'Entry and order' };
  const listRefusals: [object, string][] = [
    [{ entityKey: 'purchaseInvoices' }, 'entityKey'],
    [{ filterName: 'Some lines' }, 'filterName'],
    [{ orderByName: 'Amount' }, 'orderByName'],
    [{ filterName: 'Search by account code' }, 'search'],
    [{ search: '62' }, 'search'],
    [{ filterName: 'Search by entry id', search: 'nope' }, 'search'],
    [{ first: 501 }, 'first'],
    [{ after: 'bm90LWEtY3Vyc29y' }, 'after'],
    [{ entityKey: 'customers', filterName: 'All customers', orderByName: 'Code', dateMin: `${year}-01-01` }, 'dateMin'],
  ];
  for (const [input, field] of listRefusals) {
    const r = await api.gql(LIST, { input: { ...listBase, ...input } }, mine.headers);
    t.equal(r.errors?.[0]?.extensions?.code, 'INVALID_QUERY', `${JSON.stringify(input)} refused`);
    t.match(r.errors?.[0]?.message, `input.${field}`, `naming ${field}`);
  }
});

t.test('more than 500 rows are refused, not cut', async (t) => {
  // 251 days with a line on two accounts each: 502 account-days (another organisation, so the figures above stay).
  const busy = await clientOf(api, 'ES', 'Muchos Días S.L.', 'dias@example.es');
  for (let i = 0; i < 251; i++) {
    const date = new Date(Date.UTC(year, 0, 1 + i)).toISOString().slice(0, 10);
    await mutate.createAccountingEntryUsingCodes({ organisationId: busy.orgId }, {
      description: `Día ${i}`, date, journalTypeCode: 'GEN',
      accountingEntryLines: [{ subAccountCode: '6290000', debitAmount: '1.00', creditAmount: null }, { subAccountCode: '5720000', debitAmount: null, creditAmount: '1.00' }],
    });
  }
  await projected();
  const input = { entityKey: BY_ACCOUNT, aggregationType: 'SUM', valueColumn1: 'Debit', groupByName: 'Account Code', periodType: 'Day', ...THIS_YEAR };
  const r = await api.gql(EXECUTE, { input }, busy.headers);
  t.equal(r.errors?.[0]?.extensions?.code, 'INVALID_QUERY');
  t.match(r.errors?.[0]?.message, /input\.periodType: more than 500 rows/);
  const top = await api.gql(EXECUTE, { input: { ...input, top: 1 } }, busy.headers);
  t.equal(top.data.aggregationExecute.rows.length, 251, 'one account a day: 251 rows');
});

t.test("another organisation's rows never appear", async (t) => {
  const demo = { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId };
  // The demo books: 30000 + 1210 + 500 + 105 + 1210 debited this year.
  t.same(pairs((await execute({ valueColumn1: 'Debit' }, demo)).rows), [[null, '33025.00']]);
  t.same(pairs((await execute({ valueColumn1: 'Debit' })).rows), [[null, '850.00']], 'ours alone');
  t.equal((await list({ entityKey: 'accountingEntryLines', filterName: 'All lines', orderByName: 'Entry and order' }, demo)).totalCount, 10);
  t.equal((await list({ entityKey: 'customers', filterName: 'All customers', orderByName: 'Code' }, demo)).totalCount, 0, 'our customers are not the demo\'s');
  t.same((await execute({ entityKey: 'queryAggregateSalesInvoices', valueColumn1: 'Total Net' }, demo)).rows, [], 'nor our invoices');
  // Naming another organisation's customer finds nothing.
  t.same((await execute({ entityKey: 'queryAggregateSalesInvoices', valueColumn1: 'Total Net', search: dos, searchScope: 'CustomerId' }, demo)).rows, []);
});

t.test('the ledger searched by customer: the lines of a posted invoice that name the customer', async (t) => {
  const { commands } = api.service as any;
  const org = await commands.organisation(mine.orgId);
  const ids = (await list({ entityKey: 'salesInvoices', filterName: 'Search by customer id', orderByName: 'Invoice number', search: uno })).rows.map((r: any) => r.id);
  await mutate.postSalesInvoice(ctx, { salesInvoiceId: ids[0], journalTypeId: org.journalTypeIdByCode.get('VEN') });
  await projected();
  // 2 x 100.00 + IVA 21 %: the customer's receivable is debited 242.00.
  const r = await execute({ valueColumn1: 'Debit', valueColumn2: 'Credit', search: uno, searchScope: 'CustomerId' });
  t.same(r.rows.map((x: any) => [x.value1, x.value2]), [['242.00', '0.00']]);
  t.same((await execute({ valueColumn1: 'Debit', search: dos, searchScope: 'CustomerId' })).rows, [], 'Cliente Dos has no posted invoice');
});

t.test('a leap day compared: the earlier range reaches 29 February, and its label stays in February', async (t) => {
  const leap = await clientOf(api, 'ES', 'Bisiesto S.L.', 'bisiesto@example.es');
  const at = { organisationId: leap.orgId };
  for (const y of [2024, 2025]) await mutate.createAccountingExercise(at, { startDate: `${y}-01-01`, endDate: `${y}-12-31`, description: `Ejercicio ${y}` });
  for (const [date, account, amount] of [['2024-02-29', '6290000', '10.00'], ['2025-02-28', '6290000', '10.00'], ['2025-02-28', '6290000', '10.05'], ['2024-03-03', '6280000', '8.00'], ['2025-03-03', '6280000', '8.01']]) {
    await mutate.createAccountingEntryUsingCodes(at, {
      description: `${account} ${date}`, date, journalTypeCode: 'GEN',
      accountingEntryLines: [{ subAccountCode: account, debitAmount: amount, creditAmount: null }, { subAccountCode: '5720000', debitAmount: null, creditAmount: amount }],
    });
  }
  await projected();
  const charges = { valueColumn1: 'Debit', filterName: 'Charges', compare: true };
  const february = await execute({ ...charges, periodType: 'Month', dateMin: '2025-02-01', dateMax: '2025-02-28' }, leap.headers);
  t.same(february.rows.map((x: any) => [x.periodN, x.periodN_1, x.valueN, x.valueN_1, x.deltaPercent]), [
    ['2025-02-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z', '20.05', '10.00', '100.50'],
  ], 'dateMax 28 February 2025: a year earlier ends on 29 February 2024');
  const leapDay = await execute({ ...charges, periodType: 'Day', dateMin: '2024-02-29', dateMax: '2024-02-29' }, leap.headers);
  t.same(leapDay.rows.map((x: any) => [x.periodN, x.periodN_1, x.valueN]), [['2024-02-29T00:00:00.000Z', '2023-02-28T00:00:00.000Z', '10.00']], '29 February a year earlier is the 28th, not 1 March');
  // Half away from zero, as postings round: (10.00 + 10.05) / 2 = 10.025, and (8.01 - 8.00) / 8.00 = 0.125 %.
  t.same(pairs((await execute({ aggregationType: 'AVG', valueColumn1: 'Debit', filterName: 'Charges', dateMin: '2025-02-28', dateMax: '2025-02-28' }, leap.headers)).rows), [[null, '10.03']]);
  const march = await execute({ ...charges, dateMin: '2025-03-03', dateMax: '2025-03-03' }, leap.headers);
  t.same(march.rows.map((x: any) => [x.valueN, x.valueN_1, x.deltaPercent]), [['8.01', '8.00', '0.13']]);
});

t.test('ranking joins by a hashable key, and the ledger searched by customer can use its index', async (t) => {
  const { aggregationStatement } = await import('../api/graphql/analytics/aggregation-execute.ts');
  const pool = (api.service as any).db.pool;
  const plan = async (input: object, settings: string) => {
    const client = await pool.connect();
    try {
      await client.query(`BEGIN; ${settings}`);
      const statement = aggregationStatement({ entityKey: BY_ACCOUNT, aggregationType: 'SUM', periodType: 'None', ...THIS_YEAR, ...input }, mine.orgId, 2);
      const { rows } = await client.query(`EXPLAIN ${statement.text}`, statement.values);
      return rows.map((r: any) => r['QUERY PLAN']).join('\n');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  };
  // Without nested loops allowed, a join PostgreSQL cannot hash or merge (IS NOT DISTINCT FROM) would still be one.
  const ranked = await plan({ valueColumn1: 'Debit', groupByName: 'Account Code', top: 10, includeOthers: true }, 'SET LOCAL enable_nestloop = off');
  t.match(ranked, /Hash Join|Merge Join/, 'groups joined to their rank by hash or merge');
  t.notMatch(ranked, /DISTINCT FROM/);
  t.notMatch(await plan({ valueColumn1: 'Debit', groupByName: 'Account Code', top: -1 }, ''), /WindowAgg|CTE/, 'top -1: no ranking, nothing joined to it');
  const byCustomer = await plan({ valueColumn1: 'Debit', search: uno, searchScope: 'CustomerId' }, 'SET LOCAL enable_seqscan = off');
  t.match(byCustomer, /Index Cond: .*third_party_id = /, "the lines' (organisation_id, third_party_id) index");
});

t.test('dates: impossible days, year 0, unstorable text and ranges of more than 500 periods are refused', async (t) => {
  const refusals: [object, string, RegExp][] = [
    [{ dateMin: '0000-01-01' }, 'dateMin', /not a date/],
    [{ dateMin: `${year}-02-31` }, 'dateMin', /not a date/],
    [{ dateMax: '10000-01-01' }, 'dateMax', /not a date/],
    [{ search: '6\u0000', searchScope: 'Account Code' }, 'search', /input\.search/],
    [{ periodType: 'Day', dateMin: '0001-01-01', dateMax: '9999-12-31' }, 'periodType', /more than 500 Day periods/],
    [{ periodType: 'Year', dateMin: '1000-01-01', dateMax: '9999-12-31' }, 'periodType', /more than 500 Year periods/],
    [{ periodType: 'Week', dateMin: `${year - 10}-01-01`, dateMax: `${year}-12-31` }, 'periodType', /more than 500 Week periods/],
  ];
  for (const [input, field, message] of refusals) {
    const r = await api.gql(EXECUTE, { input: { entityKey: BY_ACCOUNT, aggregationType: 'SUM', periodType: 'None', valueColumn1: 'Debit', ...THIS_YEAR, ...input } }, mine.headers);
    t.equal(r.errors?.[0]?.extensions?.code, 'INVALID_QUERY', `${JSON.stringify(input)} refused`);
    t.match(r.errors?.[0]?.message, `input.${field}`, `naming ${field}`);
    t.match(r.errors?.[0]?.message, message);
  }
  const kpis = await api.gql(`query($i: SalesKpiInput!) { salesKpis(input: $i) { type value } }`, { i: { kpiTypes: ['MONEY_IN'], startDate: '0000-06-01' } }, mine.headers);
  t.equal(kpis.errors?.[0]?.extensions?.code, 'INVALID_QUERY', 'salesKpis shares the day check');
  const list = await api.gql(LIST, { input: { entityKey: 'customers', filterName: 'Search by name or code', orderByName: 'Name', search: 'C\u0000' } }, mine.headers);
  t.equal(list.errors?.[0]?.extensions?.code, 'INVALID_QUERY', 'listExecute too');
  const wholeRange = await execute({ valueColumn1: 'Debit', dateMin: '0001-01-01', dateMax: '9999-12-31', compare: true });
  // Every entry is in both ranges (the earlier one from year 1 BC): 850.00 this year, 380.00 last, 242.00 posted above.
  t.same(wholeRange.rows.map((x: any) => [x.valueN, x.valueN_1]), [['1472.00', '1472.00']], 'one period over every year: answered');
});

t.test('listExecute with one bound only; the organisation is read only for a filter that needs it', async (t) => {
  const untilLastYear = await list({ entityKey: 'accountingEntries', filterName: 'All entries', orderByName: 'Entry date desc', dateMax: `${last}-12-31` });
  t.same(untilLastYear.rows.map((r: any) => r.description), ['4300000 / 7000000', '6210000 / 5720000'], 'last year\'s two entries');
  t.same([untilLastYear.meta.dateMin, untilLastYear.meta.dateMax], [null, `${last}-12-31`]);
  const fromMay = await list({ entityKey: 'accountingEntries', filterName: 'All entries', orderByName: 'Entry date desc', dateMin: `${year}-05-01` });
  t.equal(fromMay.totalCount, 2);
  const { commands } = api.service as any;
  const read = commands.organisation;
  let reads = 0;
  commands.organisation = (...args: unknown[]) => (reads++, read.apply(commands, args));
  try {
    await list({ entityKey: 'accountingEntries', filterName: 'All entries', orderByName: 'Entry date desc' });
    t.equal(reads, 0, 'a fixed filter reads no organisation');
  } finally {
    commands.organisation = read;
  }
});

t.test('national and foreign invoices: every invoice is exactly one of them', async (t) => {
  const { Customer } = await import('../projections/parties/read-models.ts');
  const org = await clientOf(api, 'ES', 'Fronteras S.L.', 'fronteras@example.es');
  const at = { organisationId: org.orgId };
  const item = await mutate.createProduct(at, { code: 'P', name: 'P', category: 'PRODUCT', salesUnitPrice: '1.00' });
  const invoices: Record<string, string> = {};
  for (const [name, countryAcronym] of [['Nacional', 'ES'], ['Francés', 'FR'], ['Sin país', undefined], ['Perdido', 'FR']]) {
    const customerId = (await mutate.createCustomer(at, { socialName: `Cliente ${name}`, ...(countryAcronym ? { countryAcronym } : {}) })).id;
    invoices[name!] = (await mutate.createSalesInvoice(at, { customerId, documentDate: `${year}-03-02`, lines: [{ productId: item.id, totalQuantity: '1', unitPrice: '1.00' }] })).id;
    if (name === 'Perdido') {
      await projected();
      // A customer row the read model no longer holds.
      await (api.service as any).db.pool.query(`DELETE FROM ${Customer.table} WHERE organisation_id = $1 AND id = $2`, [org.orgId, customerId]);
    }
  }
  await projected();
  const ids = async (filterName: string) => (await list({ entityKey: 'salesInvoices', filterName, orderByName: 'Invoice number' }, org.headers)).rows.map((r: any) => r.id).sort();
  const [all, national, foreign] = [await ids('All invoices'), await ids('National invoices'), await ids('Foreign invoices')];
  t.equal(all.length, 4);
  t.same(foreign, [invoices['Francés']]);
  t.same([...national, ...foreign].sort(), all, 'each invoice in one of them, none in both');
  t.ok(national.includes(invoices.Perdido), 'a customer of unknown country (row missing) is taken as national');
});

t.test('a closed year: its closing entries are not counted (the regularisation would cancel its own revenues)', async (t) => {
  const closing = await clientOf(api, 'ES', 'Cierre Analítico S.L.', 'cierre-analitica@example.es');
  const own = { organisationId: closing.orgId };
  const { id: previous } = await mutate.createAccountingExercise(own, { startDate: `${last}-01-01`, endDate: `${last}-12-31` });
  await mutate.createAccountingEntryUsingCodes(own, {
    date: `${last}-05-05`, journalTypeCode: 'VEN', description: 'venta',
    accountingEntryLines: [{ subAccountCode: '4300000', debitAmount: '100.00' }, { subAccountCode: '7000000', creditAmount: '100.00' }],
  });
  await mutate.closeAccountingExercise(own, { id: previous });
  await projected();
  const revenues = (valueColumn1: string) => execute({ dateMin: `${last}-01-01`, dateMax: `${last}-12-31`, filterName: 'Revenues', valueColumn1, groupByName: 'Account Code' }, closing.headers);
  t.same(pairs((await revenues('Credit')).rows), [['7000000', '100.00']], 'the sale');
  t.same(pairs((await revenues('Debit')).rows), [['7000000', '0.00']], 'no debit from the regularisation that closed 700 into 129');
});
