/**
 * The sales documents' write-side rules the issue 18 review found broken (h-rev1's probes, kept here with the
 * fixes): a conversion takes no more than its origin line has pending (summed over the document's lines, an
 * update's previous takes given back first, quantities above zero); a line later documents took stays; only
 * an origin closed by its conversions opens again; intra-EU and export treatments; the product's tax group;
 * compounded discounts to the cent; an update re-taxes only the lines it touches. Refusals are coded and
 * append nothing.
 */
import t from 'tap';
import { taxGroupIdOf, taxTreatmentIdOf } from '../domain/taxes/catalogue/index.ts';
import { SalesAggregate } from '../commands/sales/aggregates.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, commands } = api.service as any;
const ctx = { organisationId: api.organisationId };
const date = '2026-03-02';
const EXCEEDS = 'sales.businessErrors.quantityExceedsPending';
const TAKEN = 'sales.businessErrors.lineTakenByLaterDocument';

const state = async (org = api.organisationId) => (await commands.aggregates.load(SalesAggregate, org)).state;

async function refused(t: any, run: () => Promise<unknown>, code: string, why: string) {
  const before = await api.eventCount();
  await t.rejects(run(), { code }, why);
  t.equal(await api.eventCount(), before, `${why}: nothing appended`);
}

const customer = await mutate.createCustomer(ctx, { socialName: 'Cliente' });
const a = await mutate.createProduct(ctx, { code: 'A', name: 'A', category: 'PRODUCT', salesUnitPrice: '10.00' });

async function quoteOf(quantity: string) {
  const quote = await mutate.createSalesQuote(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: a.id, totalQuantity: quantity }] });
  const line = (await state()).documents.get(quote.id).document.lines[0];
  return { quote, line, from: { originType: 'QUOTE', originId: quote.id, originLineId: line.lineId } };
}

t.test('a converted line may not take more than its origin line has pending', async (t) => {
  const { from } = await quoteOf('5');
  await refused(t, () => mutate.createSalesOrder(ctx, { customerId: customer.id, documentDate: date, lines: [{ ...from, totalQuantity: '10' }] }), EXCEEDS, 'ordering 10 of a quote line of 5');
});

t.test('two lines of one document may not together take more than the pending quantity', async (t) => {
  const { from } = await quoteOf('5');
  await refused(t, () => mutate.createSalesOrder(ctx, { customerId: customer.id, documentDate: date, lines: [from, from] }), EXCEEDS, 'two lines each taking the whole 5');
  const order = await mutate.createSalesOrder(ctx, { customerId: customer.id, documentDate: date, lines: [{ ...from, totalQuantity: '2' }, { ...from, totalQuantity: '3' }] });
  t.ok(order.id, '2 + 3 of 5 is taken');
});

t.test('a converted quantity must be above zero', async (t) => {
  const { quote, line, from } = await quoteOf('5');
  await refused(t, () => mutate.createSalesOrder(ctx, { customerId: customer.id, documentDate: date, lines: [{ ...from, totalQuantity: '-3' }] }), 'sales.businessErrors.invalidSalesLine', 'taking -3');
  await refused(t, () => mutate.createSalesOrder(ctx, { customerId: customer.id, documentDate: date, lines: [{ ...from, totalQuantity: '0' }] }), 'sales.businessErrors.invalidSalesLine', 'taking 0');
  t.equal((await state()).documents.get(quote.id).taken.get(line.lineId), undefined, 'nothing taken of the quote line');
});

t.test('an update counts its own previous takes as given back; a MODIFY of a converted quantity is checked the same way', async (t) => {
  const { from } = await quoteOf('5');
  const order = await mutate.createSalesOrder(ctx, { customerId: customer.id, documentDate: date, lines: [{ ...from, totalQuantity: '3' }] });
  const oLine = (await state()).documents.get(order.id).document.lines[0];
  await mutate.updateSalesOrder(ctx, { id: order.id, comments: 'its own 3 do not count against it' });
  await mutate.updateSalesOrder(ctx, { id: order.id, lines: [{ id: oLine.lineId, totalQuantity: '5' }] });
  t.equal((await state()).documents.get(order.id).document.lines[0].totalQuantity, '5', 'raised to the whole quote line');
  await mutate.updateSalesOrder(ctx, { id: order.id, lines: [{ id: oLine.lineId, totalQuantity: '4' }] });
  await refused(t, () => mutate.updateSalesOrder(ctx, { id: order.id, lines: [{ id: oLine.lineId, totalQuantity: '6' }] }), EXCEEDS, 'raising to 6 of 5');
  await refused(t, () => mutate.updateSalesOrder(ctx, { id: order.id, lines: [{ requestedAction: 'CREATE', ...from, totalQuantity: '2' }] }), EXCEEDS, 'a second line taking 2 of the 1 left');
});

t.test('a line a later document took cannot be deleted nor cut below what was taken', async (t) => {
  const { quote, line, from } = await quoteOf('5');
  await mutate.createSalesOrder(ctx, { customerId: customer.id, documentDate: date, lines: [{ ...from, totalQuantity: '2' }] });
  await refused(t, () => mutate.updateSalesQuote(ctx, { id: quote.id, lines: [{ id: line.lineId, requestedAction: 'DELETE' }, { requestedAction: 'CREATE', productId: a.id }] }), TAKEN, 'deleting the taken line');
  await refused(t, () => mutate.updateSalesQuote(ctx, { id: quote.id, replaceAll: ['LINES'], lines: [{ requestedAction: 'CREATE', productId: a.id }] }), TAKEN, 'replacing the lines');
  await refused(t, () => mutate.updateSalesQuote(ctx, { id: quote.id, lines: [{ id: line.lineId, totalQuantity: '1' }] }), TAKEN, 'cutting it to 1 of the 2 taken');
  await mutate.updateSalesQuote(ctx, { id: quote.id, lines: [{ id: line.lineId, totalQuantity: '2' }] });
  t.equal((await state()).documents.get(quote.id).document.lines[0].totalQuantity, '2', 'down to what was taken is allowed');
});

t.test('a manually closed order stays closed when a follower changes; one closed by its conversions opens again', async (t) => {
  const order = await mutate.createSalesOrder(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: a.id, totalQuantity: '5' }] });
  const oLine = (await state()).documents.get(order.id).document.lines[0];
  const note = await mutate.createSalesDeliveryNote(ctx, { customerId: customer.id, documentDate: date, lines: [{ originType: 'ORDER', originId: order.id, originLineId: oLine.lineId, totalQuantity: '2' }] });
  await mutate.updateSalesOrder(ctx, { id: order.id, updateDocumentStatus: 'CLOSE' });
  await mutate.updateSalesDeliveryNote(ctx, { id: note.id, comments: 'a comment' });
  t.equal((await state()).documents.get(order.id).status, 'Closed', 'a comment on the delivery note does not reopen the order');
  await mutate.deleteSalesDeliveryNote(ctx, { id: note.id });
  t.equal((await state()).documents.get(order.id).status, 'Closed', 'nor does deleting it');

  const { quote, from } = await quoteOf('5');
  const taking = await mutate.createSalesOrder(ctx, { customerId: customer.id, documentDate: date, lines: [from] });
  t.equal((await state()).documents.get(quote.id).status, 'Closed', 'all taken: the quote closes');
  await mutate.deleteSalesOrder(ctx, { id: taking.id });
  t.equal((await state()).documents.get(quote.id).status, 'Pending', 'given back: it opens again');
});

t.test('an ES invoice to an intra-EU customer with a VAT number charges no VAT (the number on the customer only)', async (t) => {
  const fr = await mutate.createCustomer(ctx, { socialName: 'Client SARL', countryAcronym: 'FR', vatNumber: 'FR40303265045' });
  const invoice = await mutate.createSalesInvoice(ctx, { customerId: fr.id, documentDate: date, lines: [{ productId: a.id, totalQuantity: '1' }] });
  const doc = (await state()).documents.get(invoice.id).document;
  t.equal(doc.lines[0].taxTreatmentCode, 'EU-GOODS');
  t.equal(doc.amounts.totals.totalVat, '0.00');
  const none = await mutate.createCustomer(ctx, { socialName: 'Particulier', countryAcronym: 'FR' });
  const consumer = await mutate.createSalesInvoice(ctx, { customerId: none.id, documentDate: date, lines: [{ productId: a.id, totalQuantity: '1' }] });
  t.equal((await state()).documents.get(consumer.id).document.lines[0].taxTreatmentCode, 'NAT-IVA21', 'no VAT number: Spanish VAT');
});

t.test('a GB organisation selling to a customer in France: goods are an export, services outside the scope', async (t) => {
  const org = await commands.createOrganisation({}, { name: 'UK Ltd', country: 'GB' });
  const gb = { organisationId: org.id };
  const c = await mutate.createCustomer(gb, { socialName: 'Client FR', countryAcronym: 'FR', vatNumber: 'FR40303265045' });
  const p = await mutate.createProduct(gb, { code: 'G', name: 'G', category: 'PRODUCT', salesUnitPrice: '100' });
  const s = await mutate.createProduct(gb, { code: 'S', name: 'S', category: 'SERVICE', salesUnitPrice: '100' });
  const invoice = await mutate.createSalesInvoice(gb, { customerId: c.id, documentDate: date, lines: [{ productId: p.id, totalQuantity: '1' }, { productId: s.id, totalQuantity: '1' }] });
  const doc = (await state(org.id)).documents.get(invoice.id).document;
  t.same(doc.lines.map((l: any) => l.taxTreatmentCode), ['EXPORT', 'OUTSIDE-SCOPE']);
  t.equal(doc.amounts.totals.totalVat, '0.00');
});

t.test('the customer discount and the line discount combine to the cent', async (t) => {
  const c = await mutate.createCustomer(ctx, { socialName: 'Descuento', discount: '7.77' });
  const p = await mutate.createProduct(ctx, { code: 'BIG', name: 'Big', category: 'PRODUCT', salesUnitPrice: '100000.00', firstSalesDiscount: '12.35' });
  const invoice = await mutate.createSalesInvoice(ctx, { customerId: c.id, documentDate: date, lines: [{ productId: p.id, totalQuantity: '10' }] });
  const doc = (await state()).documents.get(invoice.id).document;
  // 1000000 x (1 - 12.35 %) x (1 - 7.77 %) = 808395.95: the discount 191604.05 (the combined 19.1604 % it was rounded to gave 191604.00)
  t.equal(doc.amounts.totals.totalDiscount, '191604.05');
  t.equal(doc.amounts.totals.totalNet, '808395.95');
});

t.test('a product in the REDUCED tax group (Sage clients send taxGroupId) is sold at its group rate', async (t) => {
  const p = await mutate.createProduct(ctx, { code: 'LIBRO', name: 'Libro', category: 'PRODUCT', salesUnitPrice: '100.00', taxGroupId: taxGroupIdOf(api.organisationId, 'REDUCED') });
  const invoice = await mutate.createSalesInvoice(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: p.id, totalQuantity: '1' }] });
  const doc = (await state()).documents.get(invoice.id).document;
  t.equal(doc.lines[0].vatPercentage, '10', `treatment ${doc.lines[0].taxTreatmentCode}`);
});

t.test('an update re-taxes only the lines it creates or modifies', async (t) => {
  const p = await mutate.createProduct(ctx, { code: 'RETAX', name: 'Retax', category: 'PRODUCT', salesUnitPrice: '100.00' });
  const invoice = await mutate.createSalesInvoice(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: p.id, totalQuantity: '1' }, { productId: p.id, totalQuantity: '1' }] });
  await mutate.updateProduct(ctx, { id: p.id, salesUnitPrice: '200.00', taxTreatmentId: taxTreatmentIdOf(api.organisationId, 'NAT-IVA10') });
  await mutate.updateSalesInvoice(ctx, { id: invoice.id, comments: 'a header-only update' });
  const kept = (await state()).documents.get(invoice.id).document;
  t.same(kept.lines.map((l: any) => [l.taxTreatmentCode, l.unitPrice]), [['NAT-IVA21', '100.00'], ['NAT-IVA21', '100.00']], 'the recorded tax and price stay');
  await mutate.updateSalesInvoice(ctx, { id: invoice.id, lines: [{ id: kept.lines[1].lineId, totalQuantity: '2' }] });
  const modified = (await state()).documents.get(invoice.id).document;
  t.same(modified.lines.map((l: any) => l.taxTreatmentCode), ['NAT-IVA21', 'NAT-IVA10'], 'the modified line takes its product\'s treatment now');
});

t.test('another organisation\'s customer, product and quote are not found', async (t) => {
  const org = await commands.createOrganisation({}, { name: 'Otra SL', country: 'ES' });
  const other = { organisationId: org.id };
  const c = await mutate.createCustomer(other, { socialName: 'Ajeno' });
  const p = await mutate.createProduct(other, { code: 'X', name: 'X', category: 'PRODUCT', salesUnitPrice: '1' });
  const q = await mutate.createSalesQuote(other, { customerId: c.id, documentDate: date, lines: [{ productId: p.id }] });
  const qLine = (await state(org.id)).documents.get(q.id).document.lines[0];
  await t.rejects(mutate.createSalesQuote(ctx, { customerId: c.id, documentDate: date, lines: [{ productId: a.id }] }), { code: 'sales.businessErrors.customerNotFound' });
  await t.rejects(mutate.createSalesQuote(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: p.id }] }), { code: 'sales.businessErrors.productNotFound' });
  await t.rejects(mutate.createSalesOrder(ctx, { customerId: customer.id, documentDate: date, lines: [{ originType: 'QUOTE', originId: q.id, originLineId: qLine.lineId }] }), { code: 'sales.businessErrors.salesDocumentNotFound' });
  await t.rejects(mutate.deleteSalesQuote(ctx, { id: q.id }), { code: 'sales.businessErrors.salesDocumentNotFound' });
});
