/**
 * What an invoice's reads add, through the real service: the entry that posts an invoice reads it as
 * `salesInvoice` (a settlement's entry, whose sourceEntityId is the settlement, reads null); the invoice's
 * paymentTermLines as created; its open items' paidAmountAccumulated at the currency's decimals ('0.00') when
 * nothing is paid, before any settlement and after one is undone.
 */
import t from 'tap';
import { SalesAggregate } from '../commands/sales/aggregates.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, commands, daemon, store } = api.service as any;
const year = new Date().getUTCFullYear();
const ctx = { organisationId: api.organisationId };
const projected = async () => daemon.waitFor(await store.committedHead());
const ok = async (query: string, variables?: object) => {
  const r = await api.gql(query, variables);
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data;
};

const org = await commands.organisation(api.organisationId);
const product = await mutate.createProduct(ctx, { code: 'A', name: 'Artículo A', category: 'PRODUCT', salesUnitPrice: '100.00' });
const customer = (await mutate.createCustomer(ctx, { socialName: 'Cliente Uno' })).id;
const method = (await mutate.createPaymentMethod(ctx, { referenceName: 'Banco', type: 'BANK_ACCOUNT', journalTypeId: org.journalTypeIdByCode.get('BAN'), subAccountId: org.accountIdByCode.get('5720000') })).id;
const terms = [
  { type: 'PERCENTAGE', value: '40.00', condition: 'DAY_OF_PAYMENT', day: 30, payDays: [5, 20] },
  { type: 'REMAINING_AMOUNT', condition: 'END_OF_MONTH', day: 60, paymentMeanId: null },
];
const invoiceId = (await mutate.createSalesInvoice(ctx, { customerId: customer, documentDate: `${year}-03-02`, lines: [{ productId: product.id, totalQuantity: '1' }], paymentTermLines: terms })).id;
const number = (await mutate.closeSalesInvoice(ctx, { salesInvoiceId: invoiceId })).fields.operationalNumber;
const entryId = (await mutate.postSalesInvoice(ctx, { salesInvoiceId: invoiceId, journalTypeId: org.journalTypeIdByCode.get('VEN') })).id;
await projected();

const ITEMS = `query($id: UUID!) { salesInvoices(where: { id: { eq: $id } }) { nodes { status openItems { amount paidAmountAccumulated status } } } }`;
const items = async () => (await ok(ITEMS, { id: invoiceId })).salesInvoices.nodes[0];

t.test('paymentTermLines: the invoice\'s terms as created, in order', async (t) => {
  const read = await ok(`query($id: UUID!) { salesInvoices(where: { id: { eq: $id } }) { nodes { paymentTermLines { order type value condition day payDays paymentMeanId } } } }`, { id: invoiceId });
  t.same(read.salesInvoices.nodes[0].paymentTermLines, [
    { order: 1, type: 'PERCENTAGE', value: '40.00', condition: 'DAY_OF_PAYMENT', day: 30, payDays: [5, 20], paymentMeanId: null },
    { order: 9999, type: 'REMAINING_AMOUNT', value: '60.00', condition: 'END_OF_MONTH', day: 60, payDays: [], paymentMeanId: null },
  ]);
});

t.test('AccountingEntry.salesInvoice: the invoice a posting entry posts; null for a settlement\'s entry', async (t) => {
  const ENTRY = `query($id: UUID!) { accountingEntries(where: { id: { eq: $id } }) { nodes { sourceType sourceEntityId salesInvoice { id operationalNumber status totalLiquid } } } }`;
  t.same((await ok(ENTRY, { id: entryId })).accountingEntries.nodes, [{ sourceType: 'SALES', sourceEntityId: invoiceId, salesInvoice: { id: invoiceId, operationalNumber: number, status: 'Posted', totalLiquid: '121.00' } }]);
  const [first] = (await commands.aggregates.load(SalesAggregate, api.organisationId)).state.documents.get(invoiceId).openItems;
  const paid = (await mutate.salesOpenItemSettlement(ctx, { entryDate: `${year}-04-01`, paymentMethodId: method, thirdPartyId: customer, salesOpenItemLinkagePaidAmounts: [{ openItemId: first, paidAmount: '10.00' }] })).id;
  await projected();
  const settlement = (await ok(ENTRY, { id: paid })).accountingEntries.nodes[0];
  t.equal(settlement.sourceType, 'SALES');
  t.equal(settlement.salesInvoice, null, 'the settlement\'s entry posts no invoice');
  t.equal((await ok(ENTRY, { id: entryId })).accountingEntries.nodes[0].salesInvoice.status, 'PartiallyCollected', 'the invoice as it stands');
  const filtered = await ok(`{ accountingEntries(where: { salesInvoice: { operationalNumber: { eq: "${number}" } } }) { nodes { id } } }`);
  t.same(filtered.accountingEntries.nodes, [{ id: entryId }], 'filtered through salesInvoice');

  await mutate.deleteAccountingEntry(ctx, { id: paid });
  await projected();
  t.same(await items(), { status: 'Posted', openItems: [{ amount: '48.40', paidAmountAccumulated: '0.00', status: 'NOT_SPECIFIED' }, { amount: '72.60', paidAmountAccumulated: '0.00', status: 'NOT_SPECIFIED' }] }, 'undone: 0.00 again');
});

t.test('paidAmountAccumulated reads 0.00 when nothing is paid yet', async (t) => {
  const id = (await mutate.createSalesInvoice(ctx, { customerId: customer, documentDate: `${year}-03-03`, lines: [{ productId: product.id, totalQuantity: '2' }] })).id;
  await mutate.closeSalesInvoice(ctx, { salesInvoiceId: id });
  await mutate.postSalesInvoice(ctx, { salesInvoiceId: id, journalTypeId: org.journalTypeIdByCode.get('VEN') });
  await projected();
  t.same((await ok(ITEMS, { id })).salesInvoices.nodes[0].openItems, [{ amount: '242.00', paidAmountAccumulated: '0.00', status: 'NOT_SPECIFIED' }]);
});
