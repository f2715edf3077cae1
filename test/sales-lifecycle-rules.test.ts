/**
 * The invoice lifecycle's rules over the real service (issue 18 review): credit notes never credit more money
 * than was invoiced, their entries name the invoice they credit, collection statuses and the receivable agree
 * with the read models, invoices are numbered in date order.
 */
import t from 'tap';
import { PartiesAggregate } from '../commands/parties/aggregates.ts';
import { SalesAggregate } from '../commands/sales/aggregates.ts';
import { accountingEntryInvoiceIdOf } from '../domain/accounting/entry-documents.ts';
import { Decimal } from '../domain/money.ts';
import { SalesErrors } from '../domain/sales/errors.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, commands, daemon, store } = api.service as any;
const ctx = { organisationId: api.organisationId };
const year = new Date().getUTCFullYear();
const date = `${year}-03-02`;

const org = async () => commands.organisation(api.organisationId);
const journal = async (code: string) => (await org()).journalTypeIdByCode.get(code) as string;
const account = async (code: string) => (await org()).accountIdByCode.get(code) as string;
const sales = async () => (await commands.aggregates.load(SalesAggregate, api.organisationId)).state;
const projected = async () => daemon.waitFor(await store.committedHead());
async function ok(query: string, variables?: object) {
  const r = await api.gql(query, variables);
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data;
}

let made = 0;
async function customerAndProduct(price: string) {
  made += 1;
  const customer = await mutate.createCustomer(ctx, { socialName: `Cliente ${made}` });
  const product = await mutate.createProduct(ctx, { code: `P${made}`, name: `Producto ${made}`, category: 'PRODUCT', salesUnitPrice: price });
  return { customerId: customer.id as string, productId: product.id as string };
}
const closedInvoice = async (customerId: string, lines: object[], extra: object = {}) => {
  const id = (await mutate.createSalesInvoice(ctx, { customerId, documentDate: date, lines, ...extra })).id as string;
  await mutate.closeSalesInvoice(ctx, { salesInvoiceId: id });
  return id;
};
const post = async (salesInvoiceId: string) => (await mutate.postSalesInvoice(ctx, { salesInvoiceId, journalTypeId: await journal('VEN') })).fields;
let methodId: string | undefined;
async function method() {
  methodId ??= (await mutate.createPaymentMethod(ctx, { referenceName: 'Banco', type: 'BANK_ACCOUNT', journalTypeId: await journal('BAN'), subAccountId: await account('5720000') })).id;
  return methodId!;
}
const settle = async (thirdPartyId: string, openItemId: string, paidAmount: string) =>
  mutate.salesOpenItemSettlement(ctx, { entryDate: `${year}-04-01`, paymentMethodId: await method(), thirdPartyId, salesOpenItemLinkagePaidAmounts: [{ openItemId, paidAmount }] });

/** The customer's balance on 4300000 (debit - credit) over every entry of the ledger read model. */
async function receivableOf(customerId: string): Promise<string> {
  await projected();
  const code = (await commands.aggregates.load(PartiesAggregate, api.organisationId)).state.parties.get(customerId).code;
  const all = await ok(`{ accountingEntries(first: 500) { nodes { accountingEntryLines { subAccount { code } debitAmount creditAmount accountingEntryThirdParty { code } } } } }`);
  const lines = all.accountingEntries.nodes.flatMap((e: any) => e.accountingEntryLines).filter((l: any) => l.subAccount.code === '4300000' && l.accountingEntryThirdParty?.code === code);
  return lines.reduce((s: Decimal, l: any) => s.plus(l.debitAmount ?? 0).minus(l.creditAmount ?? 0), new Decimal(0)).toFixed(2);
}

t.test('a credit note never credits more money than was invoiced: a unitPrice above the invoice line\'s is refused', async (t) => {
  const { customerId, productId } = await customerAndProduct('10.00');
  const invoiceId = await closedInvoice(customerId, [{ productId, totalQuantity: '1' }]);
  const before = await api.eventCount();
  await t.rejects(mutate.generateCreditNote(ctx, { id: invoiceId, lines: [{ productId, quantity: '1', unitPrice: '1000.00' }] }), { code: SalesErrors.creditPriceAboveInvoiced });
  t.equal(await api.eventCount(), before, 'nothing appended');
  const { id } = await mutate.generateCreditNote(ctx, { id: invoiceId, lines: [{ productId, quantity: '1', unitPrice: '4.00' }] });
  t.equal((await sales()).documents.get(id).document.amounts.totals.totalLiquid, '-4.84', 'a lower price is a credit of less');
});

t.test('partial credit notes of every unit sum to the invoice to the cent: the last units credit what remains of the line', async (t) => {
  const { customerId, productId } = await customerAndProduct('0.335');
  // 3 x 0.335 = 1.005 -> 1.01 net; one unit alone rounds to 0.34, so the third note credits the 0.33 left.
  const invoiceId = await closedInvoice(customerId, [{ productId, totalQuantity: '3' }]);
  const invoiced = (await sales()).documents.get(invoiceId).document.amounts.totals;
  let [liquid, net] = [new Decimal(0), new Decimal(0)];
  for (let i = 0; i < 3; i++) {
    const { id } = await mutate.generateCreditNote(ctx, { id: invoiceId, lines: [{ productId, quantity: '1' }] });
    const totals = (await sales()).documents.get(id).document.amounts.totals;
    [liquid, net] = [liquid.plus(new Decimal(totals.totalLiquid).abs()), net.plus(new Decimal(totals.totalNet).abs())];
  }
  t.equal(net.toFixed(2), invoiced.totalNet, 'the nets credited are the invoice\'s');
  t.equal(liquid.toFixed(2), invoiced.totalLiquid, 'the totals credited are the invoice\'s');
});

t.test('a posted credit note\'s entry names the invoice it credits: its number, date and AccountingEntryInvoice', async (t) => {
  const { customerId, productId } = await customerAndProduct('50.00');
  const invoiceId = await closedInvoice(customerId, [{ productId, totalQuantity: '2' }]);
  const invoicePosted = await post(invoiceId);
  const { id: noteId } = await mutate.generateCreditNote(ctx, { id: invoiceId, lines: [{ productId, quantity: '1' }], creditNoteReason: 'R1' });
  await mutate.closeSalesInvoice(ctx, { salesInvoiceId: noteId });
  const posted = await post(noteId);
  await projected();
  const [entry] = (await ok(`query($id: UUID!) { accountingEntries(where: { id: { eq: $id } }) { nodes { accountingEntryLines { subAccount { code }
    accountingEntryInvoice { amount originalInvoiceNumber originalInvoiceDate originalAccountingEntryInvoiceId } } } } }`, { id: posted.accountingEntryId })).accountingEntries.nodes;
  const invoice = entry.accountingEntryLines.find((l: any) => l.accountingEntryInvoice).accountingEntryInvoice;
  const number = (await sales()).documents.get(invoiceId).document.operationalNumber;
  t.match(invoice, { amount: '-60.50', originalInvoiceNumber: number, originalInvoiceDate: date }, 'the credited invoice\'s number and date');
  t.equal(invoice.originalAccountingEntryInvoiceId, accountingEntryInvoiceIdOf(invoicePosted.accountingEntryId), 'the credited invoice\'s AccountingEntryInvoice');
  t.equal(await receivableOf(customerId), '60.50', 'the credit note offsets the invoice on 430');
});

t.test('a credit note refunded in part is PartiallyCollected on the write side as in the read model, Collected when refunded whole', async (t) => {
  const { customerId, productId } = await customerAndProduct('100.00');
  const invoiceId = await closedInvoice(customerId, [{ productId, totalQuantity: '1' }]);
  await post(invoiceId);
  const { id: noteId } = await mutate.generateCreditNote(ctx, { id: invoiceId });
  await mutate.closeSalesInvoice(ctx, { salesInvoiceId: noteId });
  await post(noteId);
  const [item] = (await sales()).documents.get(noteId).openItems;
  await settle(customerId, item, '-50.00');
  await projected();
  const read = (await ok(`query($id: UUID!) { salesInvoices(where: { id: { eq: $id } }) { nodes { status } } salesInvoiceOpenItems(where: { salesInvoiceId: { eq: $id } }) { nodes { status paidAmountAccumulated } } }`, { id: noteId }));
  const written = (await sales()).documents.get(noteId).status;
  t.equal(read.salesInvoiceOpenItems.nodes[0].status, 'PARTIAL');
  t.equal(written, read.salesInvoices.nodes[0].status, `write side ${written}, read model ${read.salesInvoices.nodes[0].status}`);
  t.equal(written, 'PartiallyCollected', 'half of -121.00 refunded');
  await settle(customerId, item, '-71.00');
  t.equal((await sales()).documents.get(noteId).status, 'Collected');
});

t.test('a foreign-currency invoice collected in two halves leaves the customer\'s 430 at zero', async (t) => {
  const { customerId, productId } = await customerAndProduct('1.00');
  // 2 x 1.00 USD (sent: the product's EUR price would be converted) + 21 % = 2.42 USD; at 0.5: 1.21 EUR receivable.
  const invoiceId = await closedInvoice(customerId, [{ productId, totalQuantity: '2', unitPrice: '1.00' }], { currencyCode: 'USD', exchangeRate: '0.5' });
  await post(invoiceId);
  t.equal(await receivableOf(customerId), '1.21');
  const [item] = (await sales()).documents.get(invoiceId).openItems;
  await settle(customerId, item, '1.21');
  await settle(customerId, item, '1.21');
  t.equal((await sales()).documents.get(invoiceId).status, 'Collected');
  t.equal(await receivableOf(customerId), '0.00', 'a collected invoice leaves nothing on 430');
});

t.test('two settlements racing for one item\'s open amount: one wins, the other is refused', async (t) => {
  const { customerId, productId } = await customerAndProduct('100.00');
  const invoiceId = await closedInvoice(customerId, [{ productId, totalQuantity: '1' }]);
  await post(invoiceId);
  const [item] = (await sales()).documents.get(invoiceId).openItems;
  await method();
  const results = await Promise.allSettled([settle(customerId, item, '100.00'), settle(customerId, item, '100.00')]);
  t.same(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
  t.equal(await receivableOf(customerId), '21.00');
});

t.test('a credit note is never dated before the invoice it credits', async (t) => {
  const { customerId, productId } = await customerAndProduct('20.00');
  const invoiceId = await closedInvoice(customerId, [{ productId, totalQuantity: '1' }]);
  const before = await api.eventCount();
  await t.rejects(mutate.generateCreditNote(ctx, { id: invoiceId, outputDocumentDate: `${year}-03-01` }), { code: SalesErrors.creditNoteDateBeforeInvoice });
  t.equal(await api.eventCount(), before, 'nothing appended');
  t.ok((await mutate.generateCreditNote(ctx, { id: invoiceId, outputDocumentDate: date })).id, 'the invoice\'s own date is allowed');
});

// Last: it closes an invoice dated after every other test's.
t.test('invoices are numbered in date order: one dated before the last closed in its series and year cannot be closed', async (t) => {
  const { customerId, productId } = await customerAndProduct('15.00');
  await closedInvoice(customerId, [{ productId, totalQuantity: '1' }], { documentDate: `${year}-05-10` });
  const earlier = (await mutate.createSalesInvoice(ctx, { customerId, documentDate: `${year}-05-01`, lines: [{ productId, totalQuantity: '1' }] })).id;
  const before = await api.eventCount();
  await t.rejects(mutate.closeSalesInvoice(ctx, { salesInvoiceId: earlier }), { code: SalesErrors.invoiceDateBeforeLastClosed });
  t.equal(await api.eventCount(), before, 'nothing appended');
  t.equal((await sales()).documents.get(earlier).status, 'Pending');
  const sameDay = (await mutate.createSalesInvoice(ctx, { customerId, documentDate: `${year}-05-10`, lines: [{ productId, totalQuantity: '1' }] })).id;
  t.ok((await mutate.closeSalesInvoice(ctx, { salesInvoiceId: sameDay })).fields.operationalNumber, 'the same date closes');
});
