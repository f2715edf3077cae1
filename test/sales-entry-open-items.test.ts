/**
 * What an invoice's entry says of its collection, as Sage's clients read it: AccountingEntryInvoice.openItems lists
 * the open items of the sales invoice the entry posts, in the `order` asked; receivable lines filter through them
 * (`accountingEntryInvoice: { openItems: { some: { status: { in: [NOT_SPECIFIED, PARTIAL] } } } }`). And
 * Product.salesVatPercentage: the rate a domestic sale of the product charges (its treatment's, its tax group's
 * domestic one, the country's standard), following the product's changes.
 */
import t from 'tap';
import { taxGroupIdOf, taxTreatmentIdOf } from '../domain/taxes/catalogue/index.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { commands } = api.service as any;
const year = new Date().getUTCFullYear();

async function ok(query: string, variables?: object) {
  const r = await api.gql(query, variables);
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data;
}
const organisation = () => commands.organisation(api.organisationId);

/** A closed and posted invoice of one free line (net 100, IVA 21: 121) in two instalments of 21 and 100. */
async function postedInvoice(customerId: string, paymentMeanId: string, day: string) {
  const invoice = (await ok(`mutation($v: SalesInvoiceCreateGLDtoInput!) { createSalesInvoice(input: $v) { id } }`, { v: {
    customerId, documentDate: `${year}-03-${day}`,
    paymentTermLines: [
      { paymentMeanId, type: 'FIXED_AMOUNT', value: 21, condition: 'DAY_OF_PAYMENT', day: 30 },
      { paymentMeanId, type: 'REMAINING_AMOUNT', value: 0, condition: 'DAY_OF_PAYMENT', day: 60 },
    ],
    lines: [{ productCode: 'SERV', productName: 'Servicio', totalQuantity: 1, unitPrice: 100 }],
  } })).createSalesInvoice;
  await ok(`mutation($v: CloseSalesInvoiceGLDtoInput!) { closeSalesInvoice(input: $v) { id } }`, { v: { salesInvoiceId: invoice.id } });
  const journalTypeId = (await organisation()).journalTypeIdByCode.get('VEN');
  const entryId = (await ok(`mutation($v: PostSalesInvoiceGLDtoInput!) { postSalesInvoice(input: $v) { accountingEntryId } }`, { v: { salesInvoiceId: invoice.id, journalTypeId } })).postSalesInvoice.accountingEntryId;
  const items = (await ok(`query($id: UUID!) { salesInvoiceOpenItems(where: { salesInvoiceId: { eq: $id } }, order: [{ dueDate: ASC }]) { nodes { id amount } } }`, { id: invoice.id })).salesInvoiceOpenItems.nodes;
  return { invoiceId: invoice.id as string, entryId: entryId as string, items: items as { id: string; amount: string }[] };
}

const ENTRY_OPEN_ITEMS = `query($id: UUID!) { accountingEntries(where: { id: { eq: $id } }) { nodes { accountingEntryLines { subAccount { code } accountingEntryInvoice {
  byDueDate: openItems { id amount status paidAmountAccumulated }
  byAmountDesc: openItems(order: [{ amount: DESC }]) { amount }
  byAmountAsc: openItems(order: [{ amount: ASC }]) { amount }
} } } } }`;
const LINES_THROUGH_ITEMS = `query($where: AccountingEntryLineFilterInput) { accountingEntryLines(where: $where, first: 100) { totalCount nodes { accountingEntryId subAccount { code } } } }`;
const openStatuses = { accountingEntryInvoice: { openItems: { some: { status: { in: ['NOT_SPECIFIED', 'PARTIAL'] } } } } };
const entriesOf = async (where: object) => (await ok(LINES_THROUGH_ITEMS, { where })).accountingEntryLines.nodes.map((l: any) => `${l.accountingEntryId} ${l.subAccount.code}`);

t.test('an invoice entry lists its invoice\'s open items, in the order asked; receivable lines filter through their statuses', async (t) => {
  await ok(`mutation($v: AccountingExerciseCreateGLDtoInput!) { createAccountingExercise(input: $v) { id } }`, { v: { startDate: `${year}-01-01`, endDate: `${year}-12-31`, description: `Ejercicio ${year}` } }).catch(() => {});
  const customerId = (await ok(`mutation { createCustomer(input: { socialName: "Cliente Abierto" }) { id } }`)).createCustomer.id;
  const paymentMeanId = (await ok(`mutation { createPaymentMean(input: { description: "Transferencia" }) { id } }`)).createPaymentMean.id;
  const partial = await postedInvoice(customerId, paymentMeanId, '02');
  const collected = await postedInvoice(customerId, paymentMeanId, '03');
  t.same(partial.items.map((o) => o.amount), ['21.00', '100.00'], 'two instalments: 21 then 100');

  const org = await organisation();
  const paymentMethodId = (await ok(`mutation($v: PaymentMethodCreateGLDtoInput!) { createPaymentMethod(input: $v) { id } }`, {
    v: { referenceName: 'Banco', type: 'BANK_ACCOUNT', journalTypeId: org.journalTypeIdByCode.get('BAN'), subAccountId: org.accountIdByCode.get('5720000') },
  })).createPaymentMethod.id;
  const settle = (paid: { openItemId: string; paidAmount: string }[]) => ok(`mutation($v: SalesOpenItemSettlementGLDtoInput!) { salesOpenItemSettlement(input: $v) { accountingEntryId } }`, {
    v: { entryDate: `${year}-04-01`, paymentMethodId, thirdPartyId: customerId, description: 'Cobro', salesOpenItemLinkagePaidAmounts: paid },
  });
  // The first invoice: its first item in full, 40 of the second; the other invoice in full.
  await settle([{ openItemId: partial.items[0].id, paidAmount: '21.00' }, { openItemId: partial.items[1].id, paidAmount: '40.00' }]);
  await settle(collected.items.map((o) => ({ openItemId: o.id, paidAmount: o.amount })));

  const lines = (await ok(ENTRY_OPEN_ITEMS, { id: partial.entryId })).accountingEntries.nodes[0].accountingEntryLines;
  const receivable = lines.find((l: any) => l.accountingEntryInvoice !== null);
  t.equal(receivable.subAccount.code, '4300000', 'the receivable line carries the invoice');
  t.same(receivable.accountingEntryInvoice.byDueDate, [
    { id: partial.items[0].id, amount: '21.00', status: 'COLLECTED', paidAmountAccumulated: '21.00' },
    { id: partial.items[1].id, amount: '100.00', status: 'PARTIAL', paidAmountAccumulated: '40.00' },
  ], 'its invoice\'s items, by due date, with their amounts and statuses');
  t.same(receivable.accountingEntryInvoice.byAmountDesc.map((o: any) => o.amount), ['100.00', '21.00'], 'order: amount DESC');
  t.same(receivable.accountingEntryInvoice.byAmountAsc.map((o: any) => o.amount), ['21.00', '100.00'], 'order: amount ASC in the same request');
  const other = (await ok(ENTRY_OPEN_ITEMS, { id: collected.entryId })).accountingEntries.nodes[0].accountingEntryLines.find((l: any) => l.accountingEntryInvoice !== null);
  t.same(other.accountingEntryInvoice.byDueDate.map((o: any) => [o.status, o.paidAmountAccumulated]), [['COLLECTED', '21.00'], ['COLLECTED', '100.00']], 'the other entry: only its own invoice\'s items');

  t.same(await entriesOf(openStatuses), [`${partial.entryId} 4300000`], 'some item NOT_SPECIFIED or PARTIAL: the partly collected invoice\'s receivable line only');
  t.same(await entriesOf({ accountingEntryInvoice: { openItems: { all: { status: { eq: 'COLLECTED' } } } } }), [`${collected.entryId} 4300000`], 'all COLLECTED: the collected one\'s');
  t.same(await entriesOf({ accountingEntryInvoice: { openItems: { none: { status: { eq: 'PARTIAL' } } } } }), [`${collected.entryId} 4300000`], 'none PARTIAL');
  const counted = (await ok(LINES_THROUGH_ITEMS, { where: openStatuses })).accountingEntryLines.totalCount;
  t.equal(counted, 1, 'totalCount agrees');

  const refused = await api.gql(`{ accountingEntryLines(where: { accountingEntryInvoice: { openItems: { some: { status: { in: [OPEN] } } } } }) { totalCount } }`);
  t.ok(refused.errors?.length, 'an unknown status is refused');
});

t.test('Product.salesVatPercentage: the treatment\'s rate, else the tax group\'s domestic one, else the standard; follows updates', async (t) => {
  const org = api.organisationId;
  const create = async (code: string, extra: object) => (await ok(`mutation($v: ProductCreateGLDtoInput!) { createProduct(input: $v) { id } }`, { v: { code, name: code, category: 'PRODUCT', salesUnitPrice: '10', ...extra } })).createProduct.id;
  const plain = await create('VAT-STD', {});
  const treated = await create('VAT-TREAT', { taxTreatmentId: taxTreatmentIdOf(org, 'NAT-IVA10') });
  await create('VAT-GROUP', { taxGroupId: taxGroupIdOf(org, 'SUPER_REDUCED') });
  const rates = async () => Object.fromEntries((await ok(`{ products(where: { code: { startsWith: "VAT-" } }) { nodes { code salesVatPercentage } } }`)).products.nodes.map((p: any) => [p.code, Number(p.salesVatPercentage)]));
  t.same(await rates(), { 'VAT-GROUP': 4, 'VAT-STD': 21, 'VAT-TREAT': 10 }, 'group SUPER_REDUCED 4, treatment IVA 10, neither: the standard 21');

  await ok(`mutation($v: ProductUpdateGLDtoInput!) { updateProduct(input: $v) { id } }`, { v: { id: plain, taxGroupId: taxGroupIdOf(org, 'REDUCED') } });
  await ok(`mutation($v: ProductUpdateGLDtoInput!) { updateProduct(input: $v) { id } }`, { v: { id: treated, taxTreatmentId: null } });
  t.same(await rates(), { 'VAT-GROUP': 4, 'VAT-STD': 10, 'VAT-TREAT': 21 }, 'after the changes: the new group\'s rate; without its treatment the standard');
});
