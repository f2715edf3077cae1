/**
 * US/CA sales tax set per organisation, through GraphQL on the real service: a US organisation sets its own
 * rates (createTax/updateTax/deleteTax), they read as taxes and taxTreatments rows, an invoice takes the
 * default rate (or the product's), is closed and posted 1200 / 4000 / 2200 balanced; a customer abroad is not
 * taxed (EXPORT, 4010); a CA organisation charges its HST to 2210. Refusals are coded, in four languages with
 * nothing appended: an ES organisation (its taxes are the country's), 100.5 %, a duplicate code (or the
 * catalogue's EXPORT0), a jurisdiction of another country, deleting a rate a document uses or a product names,
 * changing a posted document's rate from before its date. A deletion in another process never lets a quote
 * take the rate meanwhile (the organisation's lock).
 */
import t from 'tap';
import { TAX_MESSAGES, TaxErrors } from '../domain/taxes/errors.ts';
import { salesTaxTreatmentCode, taxIdOf, taxTreatmentIdOf } from '../domain/taxes/catalogue/index.ts';
import { graphqlAnswers } from './helpers/graphql-answers.ts';
import { runningService } from './helpers/service.ts';
import { balanced, byAccount } from './helpers/entry-lines.ts';
import { clientOf as organisationClient, ownClient, type Client } from './helpers/organisation-client.ts';

const api = await runningService(t);
const { commands, mutate } = api.service as any;
const year = new Date().getUTCFullYear();
const date = `${year}-05-04`;

const es: Client = ownClient(api);
const clientOf = (country: string, name: string, email: string) => organisationClient(api, country, name, email);

const call = (c: Client, query: string, variables?: object, language = 'en') => api.gql(query, variables, { ...c.headers, 'Accept-Language': language });
const ok = (c: Client, query: string, variables?: object) => graphqlAnswers(api, c.headers).ok(query, variables);
const fill = (text: string, params: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, k) => params[k]);

/** Refused with `code`, nothing appended, its message exactly the code's in each language (nothing appended to it). */
async function refused(t: any, c: Client, query: string, variables: object, code: keyof typeof TAX_MESSAGES, params: Record<string, string>) {
  await graphqlAnswers(api, c.headers).refused(t, code, query, variables, code);
  for (const language of ['en', 'es', 'fr', 'de'] as const) {
    const r = await call(c, query, variables, language);
    t.equal(r.errors?.length, 1, `${code}: one error`);
    t.equal(r.errors[0].message, fill(TAX_MESSAGES[code][language], params), `${code} in ${language}`);
  }
}

const CREATE_TAX = `mutation($v: TaxCreateGLDtoInput!) { createTax(input: $v) { id } }`;
const UPDATE_TAX = `mutation($v: TaxUpdateGLDtoInput!) { updateTax(input: $v) { id } }`;
const DELETE_TAX = `mutation($v: TaxDeleteGLDtoInput!) { deleteTax(input: $v) { id } }`;
const CREATE = `mutation($v: SalesInvoiceCreateGLDtoInput!) { createSalesInvoice(input: $v) { id } }`;
const CLOSE = `mutation($v: CloseSalesInvoiceGLDtoInput!) { closeSalesInvoice(input: $v) { operationalNumber } }`;
const POST = `mutation($v: PostSalesInvoiceGLDtoInput!) { postSalesInvoice(input: $v) { accountingEntryId } }`;
const INVOICE = `query($id: UUID!) { salesInvoices(where: { id: { eq: $id } }) { nodes { totalNet totalVat totalLiquid lines { taxTreatmentId } } } }`;
const ENTRY = `query($id: UUID!) { accountingEntries(where: { id: { eq: $id } }) { nodes { accountingEntryLines { subAccount { code } debitAmount creditAmount } } } }`;


const customer = async (c: Client, name: string) => (await ok(c, `mutation($v: CustomerCreateGLDtoInput!) { createCustomer(input: $v) { id } }`, { v: { socialName: name } })).createCustomer.id as string;
const product = async (c: Client, code: string, price: string, taxTreatmentId?: string) =>
  (await ok(c, `mutation($v: ProductCreateGLDtoInput!) { createProduct(input: $v) { id } }`, { v: { code, name: `Product ${code}`, category: 'PRODUCT', salesUnitPrice: price, taxTreatmentId } })).createProduct.id as string;
const journal = async (c: Client, code: string) => (await commands.organisation(c.orgId)).journalTypeIdByCode.get(code) as string;
async function closeAndPost(c: Client, id: string) {
  await ok(c, CLOSE, { v: { salesInvoiceId: id } });
  const posted = (await ok(c, POST, { v: { salesInvoiceId: id, journalTypeId: await journal(c, 'SJ') } })).postSalesInvoice;
  return (await ok(c, ENTRY, { id: posted.accountingEntryId })).accountingEntries.nodes[0].accountingEntryLines;
}

const us = await clientOf('US', 'Acme Supplies Inc', 'books@acme.example.com');

t.test('US: rates set by the organisation read as taxes and taxTreatments; an invoice takes the default, posts 1200/4000/2200 balanced', async (t) => {
  const wa = (await ok(us, CREATE_TAX, { v: { code: 'WA', name: 'Washington sales tax', jurisdiction: 'US-WA', percentage: '10.25', isDefault: true } })).createTax.id;
  const or = (await ok(us, CREATE_TAX, { v: { code: 'SEA', name: 'Seattle', jurisdiction: 'US-WA', percentage: 9.6 } })).createTax.id;
  t.equal(wa, taxIdOf(us.orgId, 'WA'), 'the tax id derives from the code, as the catalogue\'s do');

  const taxes = (await ok(us, `{ taxes(order: [{ code: ASC }]) { nodes { id code name percentage taxType groupName } } }`)).taxes.nodes;
  t.match(taxes.filter((x: any) => x.code !== 'EXPORT0'), [
    { id: or, code: 'SEA', percentage: '9.6', taxType: 'NOT_SPECIFIED', groupName: 'Standard' },
    { id: wa, code: 'WA', percentage: '10.25', taxType: 'NOT_SPECIFIED' },
  ]);
  const treatments = (await ok(us, `{ taxTreatments(order: [{ code: ASC }]) { nodes { id code taxCode outputAccountingAccount { code } } } }`)).taxTreatments.nodes;
  t.match(treatments, [
    { code: 'EXPORT', taxCode: 'EXPORT0' },
    { id: taxTreatmentIdOf(us.orgId, salesTaxTreatmentCode('SEA')), code: 'SALES-SEA', taxCode: 'SEA', outputAccountingAccount: { code: '2200' } },
    { code: 'SALES-WA', taxCode: 'WA', outputAccountingAccount: { code: '2200' } },
  ]);

  const who = await customer(us, 'Buyer LLC');
  const gadget = await product(us, 'GADGET', '200.00');
  const local = await product(us, 'LOCAL', '100.00', taxTreatmentIdOf(us.orgId, 'SALES-SEA'));
  const { id } = (await ok(us, CREATE, { v: { customerId: who, documentDate: date, lines: [{ productId: gadget }, { productId: local }] } })).createSalesInvoice;
  const doc = (await ok(us, INVOICE, { id })).salesInvoices.nodes[0];
  // 200 at the default 10.25 % (20.50) and 100 at the product's 9.6 % (9.60).
  t.match(doc, { totalNet: '300.00', totalVat: '30.10', totalLiquid: '330.10' });
  t.same(doc.lines.map((l: any) => l.taxTreatmentId), [taxTreatmentIdOf(us.orgId, 'SALES-WA'), taxTreatmentIdOf(us.orgId, 'SALES-SEA')]);
  const lines = await closeAndPost(us, id);
  t.same(byAccount(lines), { '1200': ['330.10', null], '4000': [null, '300.00'], '2200': [null, '30.10'] });
  balanced(t, lines);

  // A change of the posted invoice's rate from its date is refused; from after it, accepted.
  await refused(t, us, UPDATE_TAX, { v: { id: wa, percentage: '10.5', validFrom: date } }, TaxErrors.salesTaxRateChangeTooEarly, { code: 'WA', validFrom: date, date });
  await ok(us, UPDATE_TAX, { v: { id: wa, percentage: '10.5', validFrom: `${year}-07-01` } });
  const june = (await ok(us, CREATE, { v: { customerId: who, documentDate: `${year}-06-30`, lines: [{ productId: gadget }] } })).createSalesInvoice.id;
  const july = (await ok(us, CREATE, { v: { customerId: who, documentDate: `${year}-07-01`, lines: [{ productId: gadget }] } })).createSalesInvoice.id;
  t.equal((await ok(us, INVOICE, { id: june })).salesInvoices.nodes[0].totalVat, '20.50', 'a document dated before the change keeps the old rate');
  t.equal((await ok(us, INVOICE, { id: july })).salesInvoices.nodes[0].totalVat, '21.00', 'from validFrom on, the new one');
  t.equal((await ok(us, `query($id: UUID!) { taxes(where: { id: { eq: $id } }) { nodes { percentage } } }`, { id: wa })).taxes.nodes[0].percentage, '10.5');

  await refused(t, us, DELETE_TAX, { v: { id: or } }, TaxErrors.salesTaxRateInUse, { code: 'SEA' });
  await refused(t, us, CREATE_TAX, { v: { code: 'wa', name: 'Again', jurisdiction: 'US-WA', percentage: '6.5' } }, TaxErrors.salesTaxRateCodeTaken, { code: 'wa' });
  await refused(t, us, CREATE_TAX, { v: { code: 'NY', name: 'New York', jurisdiction: 'US-NY', percentage: '100.5' } }, TaxErrors.invalidSalesTaxRate, { code: 'NY', percentage: '100.5' });
  const unused = (await ok(us, CREATE_TAX, { v: { code: 'OR', name: 'Oregon', jurisdiction: 'US-OR', percentage: '0' } })).createTax.id;
  await ok(us, DELETE_TAX, { v: { id: unused } });
  t.equal((await ok(us, `query($id: UUID!) { taxes(where: { id: { eq: $id } }) { totalCount } }`, { id: unused })).taxes.totalCount, 0, 'a rate no document uses is deleted');
});

t.test('ES: its taxes are the country\'s; createTax is refused, coded', async (t) => {
  await refused(t, es, CREATE_TAX, { v: { code: 'WA', name: 'Washington', jurisdiction: 'US-WA', percentage: '10.25' } }, TaxErrors.taxesAreTheCountrys, { country: 'ES' });
});

t.test('CA: HST 13 % charged and posted to 2210 GST/HST Payable', async (t) => {
  const ca = await clientOf('CA', 'Maple Goods Ltd', 'books@maple.example.com');
  await ok(ca, CREATE_TAX, { v: { code: 'HST-ON', name: 'HST', jurisdiction: 'CA-ON', percentage: '13' } });
  const who = await customer(ca, 'Toronto Buyer');
  const item = await product(ca, 'ITEM', '100.00');
  const { id } = (await ok(ca, CREATE, { v: { customerId: who, documentDate: date, lines: [{ productId: item }] } })).createSalesInvoice;
  const lines = await closeAndPost(ca, id);
  t.same(byAccount(lines), { '1200': ['113.00', null], '4000': [null, '100.00'], '2210': [null, '13.00'] });
  balanced(t, lines);
});

t.test("a rate's jurisdiction is in the organisation's country: CA-ON for a US organisation is refused, coded", async (t) => {
  await refused(t, us, CREATE_TAX, { v: { code: 'ON', name: 'Ontario', jurisdiction: 'CA-ON', percentage: '13' } }, TaxErrors.jurisdictionOfAnotherCountry, { jurisdiction: 'CA-ON', country: 'US' });
  const own = (await ok(us, CREATE_TAX, { v: { code: 'VT', name: 'Vermont', jurisdiction: 'US-VT', percentage: '6' } })).createTax.id;
  await refused(t, us, UPDATE_TAX, { v: { id: own, jurisdiction: 'CA-QC' } }, TaxErrors.jurisdictionOfAnotherCountry, { jurisdiction: 'CA-QC', country: 'US' });
  const rows = (await ok(us, `{ taxTreatments(order: [{ code: ASC }]) { nodes { code outputAccountingAccount { code } } } }`)).taxTreatments.nodes;
  t.same(rows.find((x: any) => x.code === salesTaxTreatmentCode('VT'))?.outputAccountingAccount, { code: '2200' }, "the US sales tax payable account, the one its invoices post to");
  await ok(us, DELETE_TAX, { v: { id: own } });
});

t.test("the taxes projection takes a rate's account by the organisation's country, even for a stored rate of another jurisdiction", async (t) => {
  const { store, daemon } = api.service as any;
  const { randomUUID } = await import('node:crypto');
  // A rate recorded before jurisdictions were checked: CA-ON in a US organisation's Taxes stream.
  const taxId = taxIdOf(us.orgId, 'OLDON');
  const { position } = await store.append(`Taxes-${us.orgId}`, [{ id: randomUUID(), type: 'SalesTaxRateCreated', data: { taxId, code: 'OLDON', name: 'Ontario', jurisdiction: 'CA-ON', percentage: '13', isDefault: false, validFrom: null, at: new Date().toISOString() }, metadata: { organisationId: us.orgId, schemaVersion: 1 } }], 'any');
  t.ok(await daemon.waitFor(position), 'projected');
  const rows = (await ok(us, `{ taxTreatments(order: [{ code: ASC }]) { nodes { code outputAccountingAccount { code } } } }`)).taxTreatments.nodes;
  t.same(rows.find((x: any) => x.code === salesTaxTreatmentCode('OLDON'))?.outputAccountingAccount, { code: '2200' }, 'the US account (2200), not the CA one');
});

t.test("a rate coded like the catalogue's own (EXPORT0) is refused, coded, nothing appended", async (t) => {
  await refused(t, us, CREATE_TAX, { v: { code: 'EXPORT0', name: 'Mine', jurisdiction: 'US-NY', percentage: '8' } }, TaxErrors.salesTaxRateCodeTaken, { code: 'EXPORT0' });
  await refused(t, us, CREATE_TAX, { v: { code: 'export0', name: 'Mine', jurisdiction: 'US-NY', percentage: '8' } }, TaxErrors.salesTaxRateCodeTaken, { code: 'export0' });
  t.equal((await ok(us, `{ taxes(where: { code: { eq: "EXPORT0" } }) { totalCount } }`)).taxes.totalCount, 1, "the catalogue's one EXPORT0 row");
});

t.test('deleting a rate a product names is refused, coded: the product stays sellable', async (t) => {
  const c = await clientOf('US', 'Named Rate Inc', 'named@us.example.com');
  await ok(c, CREATE_TAX, { v: { code: 'DEF', name: 'Default', jurisdiction: 'US-WA', percentage: '6', isDefault: true } });
  const id = (await ok(c, CREATE_TAX, { v: { code: 'P3', name: 'P3', jurisdiction: 'US-WA', percentage: '5' } })).createTax.id;
  const item = await product(c, 'P3ITEM', '10.00', taxTreatmentIdOf(c.orgId, salesTaxTreatmentCode('P3')));
  await refused(t, c, DELETE_TAX, { v: { id } }, TaxErrors.salesTaxRateNamedByProduct, { code: 'P3', product: 'P3ITEM' });
  await ok(c, `mutation($v: SalesQuoteCreateGLDtoInput!) { createSalesQuote(input: $v) { id } }`, { v: { documentDate: date, lines: [{ productId: item }] } });
});

t.test("deleteTax in another process racing a quote that takes the rate: never both", async (t) => {
  const { AggregateStore } = await import('../commands/aggregate-store.ts');
  const { OrganisationLocks } = await import('../commands/organisation-locks.ts');
  const { SalesAggregate } = await import('../commands/sales/aggregates.ts');
  const { TaxesAggregate } = await import('../commands/taxes/aggregates.ts');
  const { testCommands } = await import('./helpers/commands.ts');
  const { store } = api.service as any;
  const locks = new OrganisationLocks((api.service as any).db.url);
  t.teardown(() => locks.close());
  const other = testCommands(new AggregateStore(store), locks, (api.service as any).db.pool) as any;
  let both = 0;
  const rounds = 12;
  for (let i = 0; i < rounds; i++) {
    // The organisation's only rate is its default: a quote line takes it, and it may be deleted while unused.
    const org = await commands.createOrganisation({}, { name: `Race ${i} Inc`, country: 'US' });
    const ctx = { organisationId: org.id };
    const rate = await mutate.createTax(ctx, { code: 'ONLY', name: 'Only', jurisdiction: 'US-WA', percentage: '7' });
    const item = await mutate.createProduct(ctx, { code: 'RP', name: 'Raced', category: 'PRODUCT', salesUnitPrice: '1.00' });
    const buyer = await mutate.createCustomer(ctx, { socialName: 'Racer' });
    await other.aggregates.load(SalesAggregate, org.id);
    await other.aggregates.load(TaxesAggregate, org.id);
    const [made, gone] = await Promise.allSettled([
      mutate.createSalesQuote(ctx, { customerId: buyer.id, documentDate: date, lines: [{ productId: item.id, totalQuantity: '1' }] }),
      other.deleteTax(ctx, { id: rate.id }),
    ]);
    if (made.status === 'fulfilled' && gone.status === 'fulfilled') both++;
  }
  t.equal(both, 0, `rounds where a quote took the rate and the rate was deleted: ${both} of ${rounds}`);
});
