/**
 * Sales documents through the real service: a quote numbered Q<year>-000001, part of it converted to an
 * order (a pending quantity left), the rest to a delivery note (the quote Closes), the delivery note
 * invoiced; an ES invoice's totals to the cent (IVA 21 + 10, recargo, a discount) and a FR one (TVA 20 / 5.5);
 * lines patched with requestedAction; refusals coded with nothing appended.
 */
import t from 'tap';
import { taxTreatmentIdOf } from '../domain/taxes/catalogue/index.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, commands } = api.service as any;
const ctx = { organisationId: api.organisationId };

async function refused(t: any, run: () => Promise<unknown>, code: string) {
  const before = await api.eventCount();
  await t.rejects(run(), { code }, code);
  t.equal(await api.eventCount(), before, `${code}: nothing appended`);
}

const customer = await mutate.createCustomer(ctx, { socialName: 'Bazar Luna', hasEquivalenceSurcharge: true });
const blocked = await mutate.createCustomer(ctx, { socialName: 'Bloqueado', blockInvoiceEnabled: true });
const a = await mutate.createProduct(ctx, { code: 'A', name: 'Artículo A', category: 'PRODUCT', salesUnitPrice: '100.00' });
const b = await mutate.createProduct(ctx, { code: 'B', name: 'Libro B', category: 'PRODUCT', salesUnitPrice: '20.00', taxTreatmentId: taxTreatmentIdOf(api.organisationId, 'NAT-IVA10') });
const date = '2026-03-02';

t.test('quote -> order (part) -> delivery note (rest) -> invoice, with numbers and pending quantities', async (t) => {
  const quote = await mutate.createSalesQuote(ctx, { customerId: customer.id, documentDate: date, mainAddress: [{ firstLine: 'Calle 1', city: 'Madrid' }], lines: [{ productId: a.id, totalQuantity: '5' }] });
  t.equal(quote.fields.operationalNumber, 'Q2026-000001');
  const state = await commands.aggregates.load((await import('../commands/sales/aggregates.ts')).SalesAggregate, api.organisationId);
  const line = state.state.documents.get(quote.id).document.lines[0];
  t.equal(line.unitPrice, '100.00', 'the product price when none is sent');
  const order = await mutate.createSalesOrder(ctx, { customerId: customer.id, documentDate: date, lines: [{ originType: 'QUOTE', originId: quote.id, originLineId: line.lineId, totalQuantity: '2' }] });
  t.equal(order.fields.operationalNumber, 'SO2026-000001');
  const note = await mutate.createSalesDeliveryNote(ctx, { customerId: customer.id, documentDate: date, lines: [{ originType: 'QUOTE', originId: quote.id, originLineId: line.lineId }] });
  t.equal(note.fields.operationalNumber, 'DN2026-000001');
  const after = (await commands.aggregates.load((await import('../commands/sales/aggregates.ts')).SalesAggregate, api.organisationId)).state;
  t.equal(after.documents.get(note.id).document.lines[0].totalQuantity, '3', 'the rest of the quote line');
  t.equal(after.documents.get(quote.id).status, 'Closed', 'the quote is closed once all is taken');
  await refused(t, () => mutate.createSalesInvoice(ctx, { customerId: customer.id, documentDate: date, lines: [{ originType: 'QUOTE', originId: quote.id, originLineId: line.lineId }] }), 'sales.businessErrors.originNotPending');
  await refused(t, () => mutate.deleteSalesQuote(ctx, { id: quote.id }), 'sales.businessErrors.documentNotPending');
  const noteLine = after.documents.get(note.id).document.lines[0];
  const invoice = await mutate.createSalesInvoice(ctx, { customerId: customer.id, documentDate: date, lines: [{ originType: 'DELIVERY_NOTE', originId: note.id, originLineId: noteLine.lineId }] });
  t.equal(invoice.fields.operationalNumber, null, 'an invoice is numbered when closed');
  await refused(t, () => mutate.deleteSalesDeliveryNote(ctx, { id: note.id }), 'sales.businessErrors.documentNotPending');
  await refused(t, () => mutate.createSalesQuote(ctx, { customerId: customer.id, documentDate: date, lines: [{ originType: 'ORDER', originId: order.id, originLineId: noteLine.lineId }] }), 'sales.businessErrors.conversionNotAllowed');
  // Deleting the invoice gives the delivery note back; deleting the order gives its 2 back to the quote, which opens again.
  await mutate.deleteSalesInvoice(ctx, { id: invoice.id });
  await mutate.deleteSalesOrder(ctx, { id: order.id });
  const back = (await commands.aggregates.load((await import('../commands/sales/aggregates.ts')).SalesAggregate, api.organisationId)).state;
  t.equal(back.documents.get(quote.id).status, 'Pending');
  t.equal(back.documents.get(quote.id).taken.get(line.lineId), '3');
  await refused(t, () => mutate.deleteSalesQuote(ctx, { id: quote.id }), 'sales.businessErrors.documentHasFollowers');
});

t.test('an ES invoice to the cent: IVA 21 and 10, recargo, a discount; lines patched', async (t) => {
  const invoice = await mutate.createSalesInvoice(ctx, { customerId: customer.id, documentDate: date, lines: [
    { productId: a.id, totalQuantity: '2', firstDiscount: '10' }, { productId: b.id, totalQuantity: '3' },
  ] });
  const { SalesAggregate } = await import('../commands/sales/aggregates.ts');
  const doc = (await commands.aggregates.load(SalesAggregate, api.organisationId)).state.documents.get(invoice.id).document;
  t.match(doc.amounts.totals, { totalGross: '260.00', totalDiscount: '20.00', totalNet: '240.00', totalVatBase: '240.00', totalVat: '43.80', totalFeeSurcharge: '10.20', totalLiquid: '294.00' });
  const [l1, l2] = doc.lines;
  await mutate.updateSalesInvoice(ctx, { id: invoice.id, salesOrderNumber: 'PO-7', lines: [
    { id: l1.lineId, totalQuantity: '1' }, { id: l2.lineId, requestedAction: 'DELETE' }, { requestedAction: 'CREATE', productId: b.id, totalQuantity: '1' },
  ] });
  const patched = (await commands.aggregates.load(SalesAggregate, api.organisationId)).state.documents.get(invoice.id).document;
  t.same(patched.lines.map((l: any) => [l.productCode, l.totalQuantity]), [['A', '1'], ['B', '1']]);
  t.equal(patched.header.salesOrderNumber, 'PO-7');
  // 90 x 21 % = 18.90 (+4.68), 20 x 10 % = 2.00 (+0.28)
  t.match(patched.amounts.totals, { totalNet: '110.00', totalVat: '20.90', totalFeeSurcharge: '4.96', totalLiquid: '135.86' });
});

t.test('refusals: blocked customer, unknown product, too many lines', async (t) => {
  await refused(t, () => mutate.createSalesInvoice(ctx, { customerId: blocked.id, documentDate: date, lines: [{ productId: a.id, totalQuantity: '1' }] }), 'sales.businessErrors.customerBlocked');
  await refused(t, () => mutate.createSalesOrder(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: '00000000-0000-4000-8000-000000000000', totalQuantity: '1' }] }), 'sales.businessErrors.productNotFound');
  await refused(t, () => mutate.createSalesQuote(ctx, { documentDate: date, lines: Array.from({ length: 1001 }, () => ({ productId: a.id })) }), 'global.businessErrors.invalidInput');
  await refused(t, () => mutate.createSalesOrder(ctx, { documentDate: date, lines: [] }), 'global.businessErrors.invalidInput');
});

t.test('a FR invoice to the cent: TVA 20 and 5.5', async (t) => {
  const org = await commands.createOrganisation({}, { name: 'Boutique SARL', country: 'FR' });
  const fr = { organisationId: org.id };
  const c = await mutate.createCustomer(fr, { socialName: 'Client FR' });
  const p = await mutate.createProduct(fr, { code: 'C', name: 'C', category: 'PRODUCT', salesUnitPrice: '50' });
  const q = await mutate.createProduct(fr, { code: 'D', name: 'D', category: 'PRODUCT', salesUnitPrice: '10', taxTreatmentId: taxTreatmentIdOf(org.id, 'NAT-TVA5_5') });
  const invoice = await mutate.createSalesInvoice(fr, { customerId: c.id, documentDate: date, lines: [{ productId: p.id, totalQuantity: '3' }, { productId: q.id, totalQuantity: '7' }] });
  const { SalesAggregate } = await import('../commands/sales/aggregates.ts');
  const doc = (await commands.aggregates.load(SalesAggregate, org.id)).state.documents.get(invoice.id).document;
  t.match(doc.amounts.totals, { totalNet: '220.00', totalVat: '33.85', totalLiquid: '253.85' });
});
