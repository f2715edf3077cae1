/**
 * Three things a sales document's totals depend on, through GraphQL on the real service:
 * - IRPF withholding (ES): the header's withholdingPercentage, one of the country's withholding rates, withheld
 *   on service lines (goods are not subject), recorded on the lines and in the totals, carried by a credit
 *   note from its invoice, and posted to 4730000 in a balanced entry; any other rate refused, coded.
 * - Another currency (F11): a product line without a unitPrice takes the product's price (organisation's
 *   currency) divided by the exchange rate, rounded to the document currency's decimals; a new rate on update
 *   re-prices those lines only; the posted entry is in the organisation's currency and balanced.
 * - US/CA: sales tax is set per organisation and none is set here: a taxed line is refused with a coded
 *   error telling the organisation to set its rate, never left untaxed in silence.
 */
import t from 'tap';
import { Decimal } from '../domain/money.ts';
import { graphqlAnswers } from './helpers/graphql-answers.ts';
import { runningService } from './helpers/service.ts';
import { balanced, byAccount } from './helpers/entry-lines.ts';
import { clientOf as organisationClient, ownClient, type Client } from './helpers/organisation-client.ts';

const api = await runningService(t);
const { commands } = api.service as any;
const year = new Date().getUTCFullYear();
const date = `${year}-05-04`;

const es: Client = ownClient(api);
const clientOf = (country: string, name: string, email: string) => organisationClient(api, country, name, email);

const call = (c: Client, query: string, variables?: object) => api.gql(query, variables, c.headers);
const ok = (c: Client, query: string, variables?: object) => graphqlAnswers(api, c.headers).ok(query, variables);
/** Refused with `code`, one error and no event appended. */
async function refused(t: any, c: Client, query: string, variables: object, code: string) {
  await graphqlAnswers(api, c.headers).refused(t, 'refused', query, variables, code);
  t.equal((await call(c, query, variables)).errors?.length, 1, `${code}: one error`);
}

const CREATE = `mutation($v: SalesInvoiceCreateGLDtoInput!) { createSalesInvoice(input: $v) { id } }`;
const UPDATE = `mutation($v: SalesInvoiceUpdateGLDtoInput!) { updateSalesInvoice(input: $v) { id } }`;
const QUOTE = `mutation($v: SalesQuoteCreateGLDtoInput!) { createSalesQuote(input: $v) { id } }`;
const CLOSE = `mutation($v: CloseSalesInvoiceGLDtoInput!) { closeSalesInvoice(input: $v) { operationalNumber } }`;
const POST = `mutation($v: PostSalesInvoiceGLDtoInput!) { postSalesInvoice(input: $v) { accountingEntryId } }`;
const CREDIT = `mutation($v: GenerateCreditNoteGLDtoInput!) { generateCreditNote(input: $v) { id } }`;
const INVOICE = `query($id: UUID!) { salesInvoices(where: { id: { eq: $id } }) { nodes { currencyCode exchangeRate totalNet totalVat totalWithholding totalLiquid totalLiquidNoWithholding
  lines { productCode unitPrice totalNet withholdingPercentage } } } }`;
const ENTRY = `query($id: UUID!) { accountingEntries(where: { id: { eq: $id } }) { nodes { accountingEntryLines { subAccount { code } debitAmount creditAmount } } } }`;


const customer = async (c: Client, name: string) => (await ok(c, `mutation($v: CustomerCreateGLDtoInput!) { createCustomer(input: $v) { id } }`, { v: { socialName: name } })).createCustomer.id as string;
const product = async (c: Client, code: string, category: string, price: string) =>
  (await ok(c, `mutation($v: ProductCreateGLDtoInput!) { createProduct(input: $v) { id } }`, { v: { code, name: `Product ${code}`, category, salesUnitPrice: price } })).createProduct.id as string;
const invoice = async (c: Client, id: string) => (await ok(c, INVOICE, { id })).salesInvoices.nodes[0];
const journal = async (c: Client, code: string) => (await commands.organisation(c.orgId)).journalTypeIdByCode.get(code) as string;
async function closeAndPost(c: Client, id: string) {
  await ok(c, CLOSE, { v: { salesInvoiceId: id } });
  const posted = (await ok(c, POST, { v: { salesInvoiceId: id, journalTypeId: await journal(c, 'VEN') } })).postSalesInvoice;
  return (await ok(c, ENTRY, { id: posted.accountingEntryId })).accountingEntries.nodes[0].accountingEntryLines;
}

t.test('ES IRPF 15 %: withheld on the service line only, in the totals, credited with its invoice, posted to 4730000 balanced', async (t) => {
  const who = await customer(es, 'Despacho Uno');
  const advice = await product(es, 'ASESORIA', 'SERVICE', '1000.00');
  const book = await product(es, 'LIBRO', 'PRODUCT', '100.00');
  const v = { customerId: who, documentDate: date, withholdingPercentage: '15', lines: [{ productId: advice }, { productId: book }] };
  await refused(t, es, CREATE, { v: { ...v, withholdingPercentage: '12' } }, 'sales.businessErrors.withholdingNotAllowed');
  const { id } = (await ok(es, CREATE, { v })).createSalesInvoice;
  // 1000 + 100 net, IVA 21 % = 231, IRPF 15 % of 1000 = 150: 1331 owed before withholding, 1181 to collect.
  t.match(await invoice(es, id), {
    totalNet: '1100.00', totalVat: '231.00', totalWithholding: '150.00', totalLiquidNoWithholding: '1331.00', totalLiquid: '1181.00',
    lines: [{ productCode: 'ASESORIA', withholdingPercentage: '15' }, { productCode: 'LIBRO', withholdingPercentage: '0' }],
  });

  // An update that leaves the withholding out keeps it; null removes it; sent again, it is back.
  await ok(es, UPDATE, { v: { id, comments: 'honorarios' } });
  t.equal((await invoice(es, id)).totalWithholding, '150.00', 'kept by an update that does not send it');
  await ok(es, UPDATE, { v: { id, withholdingPercentage: null } });
  t.equal((await invoice(es, id)).totalWithholding, '0.00', 'removed by null');
  await refused(t, es, UPDATE, { v: { id, withholdingPercentage: '21' } }, 'sales.businessErrors.withholdingNotAllowed');
  await ok(es, UPDATE, { v: { id, withholdingPercentage: '15' } });

  const lines = await closeAndPost(es, id);
  // The service (asesoría) on 705 prestaciones de servicios, the book on 700.
  t.same(byAccount(lines), { '4300000': ['1181.00', null], '4730000': ['150.00', null], '7050000': [null, '1000.00'], '7000000': [null, '100.00'], '4770000': [null, '231.00'] });
  balanced(t, lines);

  const note = (await ok(es, CREDIT, { v: { id, outputDocumentDate: date } })).generateCreditNote.id;
  t.match(await invoice(es, note), {
    totalNet: '-1100.00', totalWithholding: '-150.00', totalLiquid: '-1181.00',
    lines: [{ productCode: 'ASESORIA', withholdingPercentage: '15' }, { productCode: 'LIBRO', withholdingPercentage: '0' }],
  });
  const credited = await closeAndPost(es, note);
  t.same(byAccount(credited), { '4300000': [null, '1181.00'], '4730000': [null, '150.00'], '7050000': ['1000.00', null], '7000000': ['100.00', null], '4770000': ['231.00', null] });
  balanced(t, credited);

  // A quote takes it as well; a French organisation has no withholding rate at all.
  const quote = (await ok(es, QUOTE, { v: { customerId: who, documentDate: date, withholdingPercentage: '7', lines: [{ productId: advice }] } })).createSalesQuote.id;
  const q = await ok(es, `query($id: UUID!) { salesQuotes(where: { id: { eq: $id } }) { nodes { totalWithholding totalLiquid } } }`, { id: quote });
  t.same(q.salesQuotes.nodes[0], { totalWithholding: '70.00', totalLiquid: '1140.00' });
  const fr = await clientOf('FR', 'Conseil Dupont SARL', 'compta@conseil.example.fr');
  await refused(t, fr, CREATE, { v: { customerId: await customer(fr, 'Client'), documentDate: date, withholdingPercentage: '15', lines: [{ productName: 'Conseil', unitPrice: '10' }] } }, 'sales.businessErrors.withholdingNotAllowed');
});

t.test('USD invoice of a EUR organisation: the product price converted at the rate, re-priced on a new rate, posted in EUR balanced', async (t) => {
  const who = await customer(es, 'Client in dollars');
  const widget = await product(es, 'WIDGET', 'PRODUCT', '10.00');
  const { id } = (await ok(es, CREATE, { v: {
    customerId: who, documentDate: date, currencyCode: 'USD', exchangeRate: '0.9',
    lines: [{ productId: widget, totalQuantity: '1' }, { productId: widget, totalQuantity: '1', unitPrice: '5.00' }],
  } })).createSalesInvoice;
  // 1 USD = 0.9 EUR: 10.00 EUR / 0.9 = 11.111... USD, to the cent 11.11; the line sent at 5.00 USD keeps it.
  const prices = (doc: any) => doc.lines.map((l: any) => new Decimal(l.unitPrice).toFixed(2));
  const first = await invoice(es, id);
  t.equal(first.currencyCode, 'USD');
  t.same(prices(first), ['11.11', '5.00'], 'the product price converted; the sent one kept');

  await ok(es, UPDATE, { v: { id, exchangeRate: '0.8' } });
  t.same(prices(await invoice(es, id)), ['12.50', '5.00'], 'only the line priced from the product follows the rate');
  await ok(es, UPDATE, { v: { id, exchangeRate: '0.9' } });

  const doc = await invoice(es, id);
  // 16.11 USD net, IVA 3.38 USD (21 %), 19.49 USD; in EUR at 0.9 each amount to the cent.
  t.match(doc, { totalNet: '16.11', totalVat: '3.38', totalLiquid: '19.49' });
  const lines = await closeAndPost(es, id);
  t.same(byAccount(lines), { '4300000': ['17.54', null], '7000000': [null, '14.50'], '4770000': [null, '3.04'] });
  balanced(t, lines);
});

t.test('US: no sales tax rate set, a taxed document is refused with a coded error, nothing appended', async (t) => {
  const us = await clientOf('US', 'Acme Supplies Inc', 'books@acme.example.com');
  const who = await customer(us, 'Buyer LLC');
  const gadget = await product(us, 'GADGET', 'PRODUCT', '25.00');
  await refused(t, us, CREATE, { v: { customerId: who, documentDate: date, lines: [{ productId: gadget }] } }, 'sales.businessErrors.salesTaxRateNotSet');
  await refused(t, us, QUOTE, { v: { customerId: who, documentDate: date, lines: [{ productName: 'Installation', unitPrice: '80' }] } }, 'sales.businessErrors.salesTaxRateNotSet');
  const r = await call(us, CREATE, { v: { customerId: who, documentDate: date, lines: [{ productId: gadget }] } });
  t.match(r.errors[0].message, /sales tax rate/i, 'the message tells the organisation to set its sales tax rate');
});
