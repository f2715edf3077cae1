/**
 * salesKpis through the real service: quotes pending, converted in whole and in part, one of last year; invoices
 * drafted, closed, posted and settled (one in USD at its own rate, one settlement undone) in a Spanish
 * organisation; each figure computed by hand below. Another organisation's documents never count, and a period
 * sent as startDate/endDate narrows what is counted.
 */
import t from 'tap';
import { SalesAggregate } from '../commands/sales/aggregates.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, commands, daemon, store, identity } = api.service as any;
const year = new Date().getUTCFullYear();
const ctx = { organisationId: api.organisationId };
const projected = async () => daemon.waitFor(await store.committedHead());

const KPIS = `query($input: SalesKpiInput!) { salesKpis(input: $input) { type value currency } }`;
const ALL = ['MONEY_IN', 'MONEY_OUT', 'TOTAL_CUSTOMERS', 'TOTAL_FROM_OPEN_QUOTES', 'QUOTES_WITH_RELATED_DOCUMENTS'];
async function kpis(input: object, headers?: Record<string, string>) {
  const r = await api.gql(KPIS, { input }, headers);
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return Object.fromEntries(r.data.salesKpis.map((k: any) => [k.type, [k.value, k.currency]]));
}

/** A Spanish organisation's sales: `c` its context; returns what its KPIs must read. */
async function sell(c: { organisationId: string }, withSales: boolean) {
  const product = await mutate.createProduct(c, { code: 'A', name: 'Artículo A', category: 'PRODUCT', salesUnitPrice: '100.00' });
  const customer = async (socialName: string) => (await mutate.createCustomer(c, { socialName })).id as string;
  const [c1, c2, c3, c4] = [await customer('Cliente Uno'), await customer('Cliente Dos'), await customer('Cliente Tres'), await customer('Acme Inc')];
  const line = (quantity: string) => ({ productId: product.id, totalQuantity: quantity, unitPrice: '100.00' });
  const quote = async (customerId: string, quantity: string, documentDate = `${year}-02-01`) => (await mutate.createSalesQuote(c, { customerId, documentDate, lines: [line(quantity)] })).id as string;
  const org = await commands.organisation(c.organisationId);
  const journal = (code: string) => org.journalTypeIdByCode.get(code);
  const method = (await mutate.createPaymentMethod(c, { referenceName: 'Banco', type: 'BANK_ACCOUNT', journalTypeId: journal('BAN'), subAccountId: org.accountIdByCode.get('5720000') })).id;

  // Quotes: Q1 200.00 open; Q2 converted whole (Closed); Q3 300.00, one unit of three converted (still open); Q4 last year's.
  await quote(c1, '2');
  const q2 = await quote(c2, '1');
  const q3 = await quote(c3, '3');
  await quote(c1, '5', `${year - 1}-12-15`);
  await projected();
  const lineOf = async (id: string) => (await commands.aggregates.load(SalesAggregate, c.organisationId)).state.documents.get(id).document.lines[0].lineId;
  await mutate.createSalesOrder(c, { customerId: c2, documentDate: `${year}-02-05`, lines: [{ ...line('1'), originType: 'QUOTE', originId: q2, originLineId: await lineOf(q2) }] });
  await mutate.createSalesOrder(c, { customerId: c3, documentDate: `${year}-02-05`, lines: [{ ...line('1'), originType: 'QUOTE', originId: q3, originLineId: await lineOf(q3) }] });
  if (!withSales) return;

  // Invoices of 1 x 100.00 + IVA 21 % = 121.00: I1 settled in full on 1 April; I2 closed only; I3 a draft;
  // I4 in USD at 0.8333 EUR per USD, 50.00 USD settled on 1 May (41.665 -> 41.67 EUR); I5 settled 10.00, undone.
  const invoice = async (customerId: string, then: 'draft' | 'close' | 'post', extra: object = {}) => {
    const id = (await mutate.createSalesInvoice(c, { customerId, documentDate: `${year}-03-02`, lines: [line('1')], ...extra })).id as string;
    if (then !== 'draft') await mutate.closeSalesInvoice(c, { salesInvoiceId: id });
    if (then === 'post') await mutate.postSalesInvoice(c, { salesInvoiceId: id, journalTypeId: journal('VEN') });
    await projected();
    return id;
  };
  const settle = async (customerId: string, invoiceId: string, paidAmount: string, entryDate: string) => {
    const items = (await commands.aggregates.load(SalesAggregate, c.organisationId)).state.openItems;
    const openItemId = [...items.values()].find((o: any) => o.invoiceId === invoiceId).openItemId;
    return (await mutate.salesOpenItemSettlement(c, { entryDate, paymentMethodId: method, thirdPartyId: customerId, salesOpenItemLinkagePaidAmounts: [{ openItemId, paidAmount }] })).id as string;
  };
  await settle(c1, await invoice(c1, 'post'), '121.00', `${year}-04-01`);
  await invoice(c2, 'close');
  await invoice(c3, 'draft');
  await settle(c4, await invoice(c4, 'post', { currencyCode: 'USD', exchangeRate: '0.8333' }), '50.00', `${year}-05-01`);
  const undone = await settle(c1, await invoice(c1, 'post'), '10.00', `${year}-04-20`);
  await mutate.deleteAccountingEntry(c, { id: undone });
  await projected();
}

await sell(ctx, true);

t.test('each figure as computed by hand, in the organisation\'s currency', async (t) => {
  t.same(await kpis({ kpiTypes: ALL }), {
    MONEY_IN: ['162.67', 'EUR'], // 121.00 + 50.00 USD x 0.8333 (41.67); the undone 10.00 not
    MONEY_OUT: ['0.00', 'EUR'], // purchases are not built
    TOTAL_CUSTOMERS: ['3', null], // C1 (two invoices), C2, Acme; C3's invoice is a draft
    TOTAL_FROM_OPEN_QUOTES: ['500.00', 'EUR'], // Q1 200.00 + Q3 300.00; Q2 Closed, Q4 last year's
    QUOTES_WITH_RELATED_DOCUMENTS: ['2', null], // Q2 and Q3
  });
  const r = await api.gql(KPIS, { input: { kpiTypes: ['TOTAL_CUSTOMERS', 'MONEY_IN', 'TOTAL_CUSTOMERS'] } });
  t.same(r.data.salesKpis.map((k: any) => k.type), ['TOTAL_CUSTOMERS', 'MONEY_IN'], 'in the order asked, each once');
});

t.test('a period sent narrows what is counted', async (t) => {
  t.same(await kpis({ kpiTypes: ['MONEY_IN', 'QUOTES_WITH_RELATED_DOCUMENTS'], startDate: `${year}-04-15`, endDate: `${year}-12-31T00:00:00Z` }), { MONEY_IN: ['41.67', 'EUR'], QUOTES_WITH_RELATED_DOCUMENTS: ['0', null] });
  t.same(await kpis({ kpiTypes: ['TOTAL_FROM_OPEN_QUOTES'], startDate: `${year - 1}-01-01`, endDate: `${year - 1}-12-31` }), { TOTAL_FROM_OPEN_QUOTES: ['500.00', 'EUR'] }, 'last year: Q4 alone');
  t.same(await kpis({ kpiTypes: ['MONEY_IN'], startDate: `${year}-04-01`, endDate: `${year}-04-01T00:00:00+02:00` }), { MONEY_IN: ['121.00', 'EUR'] },
    'a date-time\'s day is its date as written in its own offset (1 April, though 31 March in UTC)');
  for (const [input, field] of [[{ startDate: 'yesterday' }, 'startDate'], [{ startDate: `${year}-04-01T10:00` }, 'startDate'], [{ startDate: `${year}-05-01`, endDate: `${year}-04-01` }, 'endDate']] as const) {
    const r = await api.gql(KPIS, { input: { kpiTypes: ['MONEY_IN'], ...input } });
    t.equal(r.errors?.[0]?.extensions?.code, 'INVALID_QUERY', `${field} refused`);
    t.match(r.errors?.[0]?.message, `input.${field}`);
  }
});

t.test('another organisation\'s documents never count, and it reads its own', async (t) => {
  const other = await commands.createOrganisation({}, { name: 'Otra Empresa S.L.', country: 'ES' });
  await mutate.createAccountingExercise({ organisationId: other.id }, { startDate: `${year}-01-01`, endDate: `${year}-12-31`, description: `Ejercicio ${year}` });
  await sell({ organisationId: other.id }, false);
  await identity.createUser(other.id, 'otra@example.es', 'una-clave-bastante-larga', 'admin');
  const token = await identity.issueToken(other.id, 'otra@example.es', api.clientId, 'full_access');
  const theirs = await kpis({ kpiTypes: ALL }, { Authorization: `Bearer ${token.access_token}`, 'X-Site': other.id });
  t.same(theirs, { MONEY_IN: ['0.00', 'EUR'], MONEY_OUT: ['0.00', 'EUR'], TOTAL_CUSTOMERS: ['0', null], TOTAL_FROM_OPEN_QUOTES: ['500.00', 'EUR'], QUOTES_WITH_RELATED_DOCUMENTS: ['2', null] });
  t.same(await kpis({ kpiTypes: ['TOTAL_FROM_OPEN_QUOTES', 'QUOTES_WITH_RELATED_DOCUMENTS', 'MONEY_IN'] }), { TOTAL_FROM_OPEN_QUOTES: ['500.00', 'EUR'], QUOTES_WITH_RELATED_DOCUMENTS: ['2', null], MONEY_IN: ['162.67', 'EUR'] }, 'ours unchanged');
});

t.test('MONEY_IN is what the payment entries debited to the bank: a foreign-currency invoice collected in parts', async (t) => {
  const org = await commands.organisation(api.organisationId);
  const product = await mutate.createProduct(ctx, { code: 'K1', name: 'Kilo', category: 'PRODUCT', salesUnitPrice: '10.00' });
  const customer = await mutate.createCustomer(ctx, { socialName: 'Dollar Inc' });
  const method = (await mutate.createPaymentMethod(ctx, { referenceName: 'Banco KPI', type: 'BANK_ACCOUNT', journalTypeId: org.journalTypeIdByCode.get('BAN'), subAccountId: org.accountIdByCode.get('5720000') })).id;
  // 10.00 USD + IVA 21 % = 12.10 USD at 0.915: 11.07 EUR receivable (11.0715). Paid 4.03 + 4.03 (3.69 EUR each),
  // then the 4.04 left, which credits the 3.69 left of 430 (converted alone it would be 3.70: 11.08 in all).
  const id = (await mutate.createSalesInvoice(ctx, { customerId: customer.id, documentDate: `${year}-03-02`, currencyCode: 'USD', exchangeRate: '0.915', lines: [{ productId: product.id, totalQuantity: '1', unitPrice: '10.00' }] })).id;
  await mutate.closeSalesInvoice(ctx, { salesInvoiceId: id });
  await mutate.postSalesInvoice(ctx, { salesInvoiceId: id, journalTypeId: org.journalTypeIdByCode.get('VEN') });
  const item = [...(await commands.aggregates.load(SalesAggregate, api.organisationId)).state.openItems.values()].find((o: any) => o.invoiceId === id) as any;
  const entries: string[] = [];
  for (const [paidAmount, day] of [['4.03', '10'], ['4.03', '11'], ['4.04', '12']]) {
    entries.push((await mutate.salesOpenItemSettlement(ctx, { entryDate: `${year}-06-${day}`, paymentMethodId: method, thirdPartyId: customer.id, salesOpenItemLinkagePaidAmounts: [{ openItemId: item.openItemId, paidAmount }] })).id);
  }
  await projected();
  const { rows: [bank] } = await (api.service as any).db.pool.query(
    `SELECT sum(debit_amount - credit_amount)::text AS received FROM accounting_entry_lines WHERE organisation_id = $1 AND sub_account_id = $2 AND accounting_entry_id = ANY($3)`,
    [api.organisationId, org.accountIdByCode.get('5720000'), entries],
  );
  t.equal(bank.received, '11.07', 'the bank received 11.07 EUR');
  t.same(await kpis({ kpiTypes: ['MONEY_IN'], startDate: `${year}-06-01`, endDate: `${year}-06-30` }), { MONEY_IN: ['11.07', 'EUR'] }, 'and MONEY_IN says so');
});
