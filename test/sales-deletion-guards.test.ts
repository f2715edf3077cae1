/**
 * What a sales document keeps standing, through the real service: the entry that posted an invoice or a credit
 * note cannot be deleted (refused, coded, in four languages, nothing appended: the invoice would stay Posted with
 * no entry), while a settlement's entry still can (that undoes the settlement); a customer or a product a live
 * sales document names cannot be deleted, and can once the document is gone.
 */
import t from 'tap';
import { SALES_MESSAGES, SalesErrors } from '../domain/sales/errors.ts';
import { CATALOG_MESSAGES, CatalogErrors } from '../domain/catalog/errors.ts';
import { SalesAggregate } from '../commands/sales/aggregates.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, commands } = api.service as any;
const ctx = { organisationId: api.organisationId };
const year = new Date().getUTCFullYear();
const date = `${year}-03-02`;

async function refused(t: any, run: () => Promise<unknown>, code: string) {
  const before = await api.eventCount();
  await t.rejects(run(), { code }, code);
  t.equal(await api.eventCount(), before, `${code}: nothing appended`);
}

const journal = async (code: string) => (await commands.organisation(api.organisationId)).journalTypeIdByCode.get(code) as string;
const account = async (code: string) => (await commands.organisation(api.organisationId)).accountIdByCode.get(code) as string;

t.test('the entry that posted an invoice or a credit note is not deleted; a settlement\'s entry is', async (t) => {
  const customer = await mutate.createCustomer(ctx, { socialName: 'Ferretería Sol' });
  const product = await mutate.createProduct(ctx, { code: 'G1', name: 'Guante', category: 'PRODUCT', salesUnitPrice: '10.00' });
  const invoiceId = (await mutate.createSalesInvoice(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: product.id, totalQuantity: '4' }] })).id;
  await mutate.closeSalesInvoice(ctx, { salesInvoiceId: invoiceId });
  const ven = await journal('VEN');
  const posted = await mutate.postSalesInvoice(ctx, { salesInvoiceId: invoiceId, journalTypeId: ven });
  await refused(t, () => mutate.deleteAccountingEntry(ctx, { id: posted.id }), SalesErrors.postingEntryNotDeletable);

  const graphql = await api.gql(`mutation($v: AccountingEntryDeleteGLDtoInput!) { deleteAccountingEntry(input: $v) { id } }`, { v: { id: posted.id } });
  t.equal(graphql.errors?.[0]?.extensions?.code, SalesErrors.postingEntryNotDeletable, 'GraphQL: the coded error');
  const messages = (SALES_MESSAGES as Record<string, Record<string, string>>)[SalesErrors.postingEntryNotDeletable];
  t.same(Object.keys(messages).sort(), ['de', 'en', 'es', 'fr'], 'in four languages');
  t.match(messages.en, /credit the invoice instead/);

  const credit = await mutate.generateCreditNote(ctx, { id: invoiceId, lines: [{ productId: product.id, quantity: '1' }] });
  await mutate.closeSalesInvoice(ctx, { salesInvoiceId: credit.id });
  const creditPosted = await mutate.postSalesInvoice(ctx, { salesInvoiceId: credit.id, journalTypeId: ven });
  await refused(t, () => mutate.deleteAccountingEntry(ctx, { id: creditPosted.id }), SalesErrors.postingEntryNotDeletable);

  const method = await mutate.createPaymentMethod(ctx, { referenceName: 'Banco Guardas', type: 'BANK_ACCOUNT', journalTypeId: await journal('BAN'), subAccountId: await account('5720000') });
  const sales = (await commands.aggregates.load(SalesAggregate, api.organisationId)).state;
  const [itemId] = sales.documents.get(invoiceId).openItems;
  const paid = await mutate.salesOpenItemSettlement(ctx, { entryDate: `${year}-04-01`, paymentMethodId: method.id, thirdPartyId: customer.id, salesOpenItemLinkagePaidAmounts: [{ openItemId: itemId, paidAmount: '5.00' }] });
  const before = await api.eventCount();
  await mutate.deleteAccountingEntry(ctx, { id: paid.id });
  t.equal(await api.eventCount(), before + 2, 'a settlement\'s entry: deleted, the settlement undone');
});

t.test('a customer or a product a sales document names is not deleted, and is once the document is gone', async (t) => {
  const customer = await mutate.createCustomer(ctx, { socialName: 'Quiosco Mar' });
  const product = await mutate.createProduct(ctx, { code: 'Q1', name: 'Revista', category: 'PRODUCT', salesUnitPrice: '3.00' });
  const quote = (await mutate.createSalesQuote(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: product.id, totalQuantity: '2' }] })).id;
  await refused(t, () => mutate.deleteCustomer(ctx, { id: customer.id }), 'global.businessErrors.partyInUse');
  await refused(t, () => mutate.deleteProduct(ctx, { id: product.id }), CatalogErrors.productInUse);
  t.same(Object.keys(CATALOG_MESSAGES[CatalogErrors.productInUse]).sort(), ['de', 'en', 'es', 'fr']);

  const graphql = await api.gql(`mutation($v: ProductDeleteGLDtoInput!) { deleteProduct(input: $v) { id } }`, { v: { id: product.id } });
  t.equal(graphql.errors?.[0]?.extensions?.code, CatalogErrors.productInUse, 'GraphQL: the coded error');

  await mutate.deleteSalesQuote(ctx, { id: quote });
  await mutate.deleteProduct(ctx, { id: product.id });
  await mutate.deleteCustomer(ctx, { id: customer.id });
  await refused(t, () => mutate.deleteCustomer(ctx, { id: customer.id }), 'global.businessErrors.partyNotFound');
});

t.test('a document racing the deletion of its customer or product: never both', async (t) => {
  for (let i = 0; i < 15; i++) {
    const customer = await mutate.createCustomer(ctx, { socialName: `Carrera ${i}` });
    const product = await mutate.createProduct(ctx, { code: `R${i}`, name: `Carrera ${i}`, category: 'PRODUCT', salesUnitPrice: '1.00' });
    const quote = () => mutate.createSalesQuote(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: product.id, totalQuantity: '1' }] });
    // Started in turn in both orders: the document first, then the deletions first.
    const deletions = () => [mutate.deleteCustomer(ctx, { id: customer.id }), mutate.deleteProduct(ctx, { id: product.id })];
    const [made, customerGone, productGone] = i % 2 === 0
      ? await Promise.allSettled([quote(), ...deletions()])
      : await Promise.allSettled([...deletions(), quote()]).then(([c, p, q]) => [q, c, p]);
    if (made.status === 'fulfilled') {
      t.equal(customerGone.status, 'rejected', `race ${i}: the quote made, the customer stays`);
      t.equal(productGone.status, 'rejected', `race ${i}: the quote made, the product stays`);
    } else {
      t.ok(customerGone.status === 'fulfilled' || productGone.status === 'fulfilled', `race ${i}: the quote refused, a deletion went first`);
    }
  }
});
