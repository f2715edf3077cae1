/**
 * The sales read side through the real service: the Sales contract's events (appended straight to the
 * organisation's `Sales-<orgId>` stream, as the write side will record them) read back over GraphQL and REST
 * in Sage's names: a quote, an order converted from part of it, an invoice from the order, its close, post, a
 * settlement and its undo, a credit note. Pending quantities and line statuses follow the later documents,
 * another organisation reads none of it, each change is a queue message, and a rebuild answers the same.
 */
import t from 'tap';
import { createTrigger } from '../eventqueue/triggers.ts';
import { PROJECTIONS } from '../modules/index.ts';
import { rebuildProjection } from '../projections/engine/rebuild.ts';
import type { SalesDocument, SalesEvent, SalesLine } from '../domain/sales/events.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { store, daemon, fanout, db } = api.service;
db.pool.on('error', () => {});
const organisationId = api.organisationId;
const auth = { Authorization: `Bearer ${api.token}` };
await createTrigger(db.pool, { organisationId, type: 'event-queue', clientId: api.clientId });

const ok = async (query: string, variables?: object, headers?: Record<string, string>) => {
  const r = await api.gql(query, variables, headers);
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data;
};

const customerId = (await ok(`mutation { createCustomer(input: { socialName: "Cliente Uno S.L.", code: "CLI1" }) { id } }`)).createCustomer.id;

const id = () => crypto.randomUUID();
const AT = '2026-03-10T10:00:00.000Z';
const zeroTotals = (net: string) => ({ totalGross: net, totalDiscount: '0', totalNet: net, totalVatBase: net, totalVat: '0', totalFeeSurcharge: '0', totalWithholding: '0', totalLiquidNoWithholding: net, totalLiquid: net });

function line(productCode: string, quantity: string, price: string, extra: Partial<SalesLine> = {}): SalesLine {
  const net = String(Number(quantity) * Number(price));
  return {
    lineId: id(), order: 1, productId: null, productCode, productName: `Producto ${productCode}`, totalQuantity: quantity, unitPrice: price, unitPriceSource: 'INPUT', firstDiscount: '0', firstDiscountSource: 'INPUT',
    taxTreatmentId: id(), taxTreatmentCode: 'NAC', taxId: id(), taxGroupId: null, vatPercentage: '21', equivalenceSurchargePercentage: '0', withholdingPercentage: '0',
    isService: false, totalGross: net, totalDiscount: '0', totalNet: net, origin: null, creditedLineId: null, ...extra,
  };
}

function document(kind: SalesDocument['kind'], lines: SalesLine[], extra: Partial<SalesDocument> = {}): SalesDocument {
  const net = String(lines.reduce((sum, l) => sum + Number(l.totalNet), 0));
  return {
    documentId: id(), kind, invoiceType: kind === 'INVOICE' ? 'NORMAL' : null, operationalNumber: kind === 'INVOICE' ? null : `${kind[0]}2026-000001`,
    header: {
      customerId, documentDate: '2026-03-10', operationDate: null, socialName: 'Cliente Uno S.L.', vatNumber: 'B12345678', contactName: null, contactPhone: null, contactEmail: null,
      mainAddress: { name: 'Sede', firstLine: 'Calle Mayor 1', secondLine: null, city: 'Madrid', zipCode: '28001', province: 'Madrid', countryIsoCodeAlpha2: 'ES' },
      deliveryAddress: null, comments: null, remarks: null, externalReference: null, salesOrderNumber: null, hasEquivalenceSurcharge: false, withholdingPercentage: null, customerDiscount: '0',
      salesTariffId: null, salesDiscountGroupId: null, currencyCode: 'EUR', exchangeRate: '1', paymentTermLines: [], invoiceEmail: null, specialMention: null,
    },
    lines: lines.map((l, i) => ({ ...l, order: i + 1 })),
    amounts: { rounding: { level: 'LINE', mode: 'HALF_UP' } as never, taxes: [], withholdings: [], totals: zeroTotals(net) },
    sourceInvoiceId: null, creditNoteReason: null, creditNoteType: null, ...extra,
  };
}

const from = (kind: 'QUOTE' | 'ORDER' | 'DELIVERY_NOTE', doc: SalesDocument, l: SalesLine) => ({ originType: kind, originId: doc.documentId, originLineId: l.lineId });

async function record(organisation: string, ...events: SalesEvent[]) {
  await store.append(`Sales-${organisation}`, events.map((e) => ({ id: id(), type: e.type, data: e.data as never, metadata: { organisationId: organisation, schemaVersion: 1 } })), 'any' as never);
  t.ok(await daemon.waitFor(await store.committedHead!()), 'projected');
}

// A quote of 10 A and 4 B; an order taking 6 A and the 4 B; an invoice from the order; a credit note of 2 A.
const quote = document('QUOTE', [line('A', '10', '5'), line('B', '4', '2.5')]);
const order = document('ORDER', [line('A', '6', '5', { origin: from('QUOTE', quote, quote.lines[0]) }), line('B', '4', '2.5', { origin: from('QUOTE', quote, quote.lines[1]) })]);
const invoice = document('INVOICE', [line('A', '6', '5', { origin: from('ORDER', order, order.lines[0]) }), line('B', '4', '2.5', { origin: from('ORDER', order, order.lines[1]) })]);
const openItems = [{ openItemId: id(), dueDate: '2026-04-10', amount: '20', paymentMeanId: null }, { openItemId: id(), dueDate: '2026-05-10', amount: '20', paymentMeanId: null }];
const settlement = { settlementId: id(), exerciseId: id(), entryId: id(), entryNumber: 7, paymentMethodId: id(), entryDate: '2026-04-10' };
const credit = document('INVOICE', [line('A', '-2', '5', { creditedLineId: invoice.lines[0].lineId })], { invoiceType: 'CREDIT_NOTE', sourceInvoiceId: invoice.documentId, creditNoteReason: 'R1', creditNoteType: 'BY_DIFFERENCES' });
const number = (operationalNumber: string, sequence: number) => ({ series: 'F', year: 2026, sequence, operationalNumber });

const INVOICE_FIELDS = `id type status operationalNumber hasCreditNote firstDueDate totalLiquid customer { code } mainAddress { city countryIsoCodeAlpha2 } openItems { status amount paidAmountAccumulated } lines { productCode totalQuantity availableForCreditNoteQuantity }`;

t.test('documents, lines, statuses and pending quantities read as Sage has them', async (t) => {
  await record(organisationId, { type: 'SalesDocumentCreated', data: { document: quote, number: number('Q2026-000001', 1), at: AT } });
  const before = await ok(`{ salesQuoteLines(where: { salesQuote: { id: { eq: "${quote.documentId}" } } }) { nodes { productCode pendingQuantity status } } }`);
  t.same(before.salesQuoteLines.nodes, [{ productCode: 'A', pendingQuantity: '10', status: 'Pending' }, { productCode: 'B', pendingQuantity: '4', status: 'Pending' }]);

  await record(organisationId, { type: 'SalesDocumentCreated', data: { document: order, number: number('O2026-000001', 1), at: AT } });
  const quoteLines = async () => (await ok(`{ salesQuotes(where: { id: { eq: "${quote.documentId}" } }) { nodes { lines { productCode pendingQuantity status } } } }`)).salesQuotes.nodes[0].lines;
  t.same(await quoteLines(), [{ productCode: 'A', pendingQuantity: '4', status: 'Partial' }, { productCode: 'B', pendingQuantity: '0', status: 'Completed' }], 'the order took 6 A and every B');

  // A second order taking the 4 A left, then deleted: it gives them back.
  const second = document('ORDER', [line('A', '4', '5', { origin: from('QUOTE', quote, quote.lines[0]) })]);
  await record(organisationId, { type: 'SalesDocumentCreated', data: { document: second, number: number('O2026-000002', 2), at: AT } });
  t.same((await quoteLines())[0], { productCode: 'A', pendingQuantity: '0', status: 'Completed' });
  await record(organisationId, { type: 'SalesDocumentDeleted', data: { documentId: second.documentId, kind: 'ORDER', at: AT } });
  t.same((await quoteLines())[0], { productCode: 'A', pendingQuantity: '4', status: 'Partial' }, 'a deleted order gives back what it took');

  await record(organisationId, { type: 'SalesDocumentCreated', data: { document: invoice, number: null, at: AT } });
  const orderLines = await ok(`{ salesOrderLines(where: { salesOrder: { id: { eq: "${order.documentId}" } } }) { nodes { pendingQuantity status } } }`);
  t.same(orderLines.salesOrderLines.nodes, [{ pendingQuantity: '0', status: 'Completed' }, { pendingQuantity: '0', status: 'Completed' }]);

  const pending = await ok(`{ salesInvoices(where: { id: { eq: "${invoice.documentId}" } }) { totalCount nodes { ${INVOICE_FIELDS} } } }`);
  t.match(pending.salesInvoices.nodes[0], { type: 'NORMAL', status: 'Pending', operationalNumber: null, hasCreditNote: false, totalLiquid: '40', customer: { code: 'CLI1' }, mainAddress: { city: 'Madrid', countryIsoCodeAlpha2: 'ES' }, openItems: [] });
});

t.test('the invoice is closed, posted, settled, the settlement undone, and credited', async (t) => {
  await record(organisationId, { type: 'SalesInvoiceClosed', data: { invoiceId: invoice.documentId, number: number('F2026-000001', 1), at: AT } });
  const closed = await ok(`{ salesInvoices(where: { status: { eq: "Closed" }, customer: { code: { eq: "CLI1" } } }) { nodes { id operationalNumber } } }`);
  t.same(closed.salesInvoices.nodes, [{ id: invoice.documentId, operationalNumber: 'F2026-000001' }], 'filtered by status "Closed" and customer.code');

  await record(organisationId, { type: 'SalesInvoicePosted', data: { invoiceId: invoice.documentId, exerciseId: id(), entryId: id(), entryNumber: 5, journalTypeId: id(), openItems, at: AT } });
  const items = `{ salesInvoiceOpenItems(where: { salesInvoice: { id: { eq: "${invoice.documentId}" } } }) { nodes { status amount paidAmountAccumulated dueDate salesInvoice { operationalNumber status } } } }`;
  t.match((await ok(items)).salesInvoiceOpenItems.nodes, [{ status: 'NOT_SPECIFIED', amount: '20', paidAmountAccumulated: '0', salesInvoice: { operationalNumber: 'F2026-000001', status: 'Posted' } }, { amount: '20' }]);

  await record(organisationId, { type: 'SalesOpenItemsSettled', data: { ...settlement, payments: [{ openItemId: openItems[0].openItemId, invoiceId: invoice.documentId, paidAmount: '20' }, { openItemId: openItems[1].openItemId, invoiceId: invoice.documentId, paidAmount: '5' }], at: AT } });
  const settled = (await ok(items)).salesInvoiceOpenItems.nodes;
  t.same(settled.map((o: any) => [o.status, o.paidAmountAccumulated]), [['COLLECTED', '20'], ['PARTIAL', '5']]);
  t.equal(settled[0].salesInvoice.status, 'PartiallyCollected');

  await record(organisationId, { type: 'SalesSettlementUndone', data: { settlementId: settlement.settlementId, entryId: settlement.entryId, at: AT } });
  const undone = (await ok(items)).salesInvoiceOpenItems.nodes;
  t.same(undone.map((o: any) => [o.status, o.paidAmountAccumulated, o.salesInvoice.status]), [['NOT_SPECIFIED', '0', 'Posted'], ['NOT_SPECIFIED', '0', 'Posted']], 'an undone settlement gives the items back');

  await record(organisationId, { type: 'SalesDocumentCreated', data: { document: credit, number: null, at: AT } });
  const credited = await ok(`{ salesInvoices(where: { id: { eq: "${invoice.documentId}" } }) { nodes { hasCreditNote lines { productCode availableForCreditNoteQuantity } } } }`);
  t.same(credited.salesInvoices.nodes[0], { hasCreditNote: true, lines: [{ productCode: 'A', availableForCreditNoteQuantity: '4' }, { productCode: 'B', availableForCreditNoteQuantity: '4' }] });
  const notes = await ok(`{ salesInvoices(where: { type: { eq: CREDIT_NOTE } }) { nodes { id sourceSalesInvoice { id operationalNumber } lines { totalQuantity } } } }`);
  t.same(notes.salesInvoices.nodes, [{ id: credit.documentId, sourceSalesInvoice: { id: invoice.documentId, operationalNumber: 'F2026-000001' }, lines: [{ totalQuantity: '-2' }] }]);
});

/** What a client reads: every answer the checks below compare, before and after a rebuild. */
async function answers() {
  return ok(`{
    byProduct: salesInvoices(where: { lines: { some: { productCode: { eq: "B" } } } }, order: [{ operationalNumber: ASC }]) { totalCount nodes { id } }
    quoteLines: salesQuoteLines(where: { salesQuote: { documentDate: { gte: "2026-03-01T00:00:00Z" } } }, order: [{ salesQuote: { documentDate: ASC } }, { order: ASC }]) { nodes { productCode pendingQuantity status } }
    related: relatedSalesDocuments(order: [{ documentType: ASC }]) { nodes { documentId documentType operationalNumber status totalLiquid originId originDocumentType } }
    quotes: salesQuotes { nodes { id status lines { productCode } } }
    invoices: salesInvoices(order: [{ type: ASC }]) { nodes { ${INVOICE_FIELDS} } }
  }`);
}

t.test('filters by lines and through documents, and related documents', async (t) => {
  const a = await answers();
  t.same(a.byProduct.nodes.map((n: any) => n.id), [invoice.documentId], 'invoices with a line of product B');
  t.same(a.quoteLines.nodes.map((n: any) => n.productCode), ['A', 'B'], 'quote lines through salesQuote.documentDate');
  const rows = a.related.nodes.map((r: any) => [r.documentType, r.documentId, r.originId, r.originDocumentType]);
  t.same(rows, [
    ['CREDIT_NOTE', credit.documentId, invoice.documentId, 'INVOICE'],
    ['INVOICE', invoice.documentId, order.documentId, 'ORDER'],
    ['ORDER', order.documentId, quote.documentId, 'QUOTE'],
    ['QUOTE', quote.documentId, null, null],
  ]);
  t.match(a.related.nodes.find((r: any) => r.documentId === invoice.documentId), { operationalNumber: 'F2026-000001', status: 'Posted', totalLiquid: '40' });
});

t.test('REST: /sales_invoices lists invoices, /sales_credit_notes the credit notes', async (t) => {
  const invoices = await api.rest('/sales_invoices');
  t.equal(invoices.status, 200);
  t.same(invoices.body.$items.map((i: any) => [i.id, i.type, i.$path]), [[invoice.documentId, 'NORMAL', `/sales_invoices/${invoice.documentId}`]]);
  const notes = await api.rest('/sales_credit_notes');
  t.same(notes.body.$items.map((i: any) => [i.id, i.type]), [[credit.documentId, 'CREDIT_NOTE']]);
  t.equal((await api.rest(`/sales_credit_notes/${credit.documentId}`)).status, 200);
  t.equal((await api.rest(`/sales_credit_notes/${invoice.documentId}`)).status, 404, 'an invoice is no credit note');
  t.equal((await api.rest('/sales_quotes')).body.$items.length, 1);
  t.equal((await api.rest('/sales_orders')).body.$items.length, 1);
  t.equal((await api.rest('/sales_delivery_notes')).status, 200);
});

t.test('every change is a queue message', async (t) => {
  t.ok(await fanout.waitFor(await store.committedHead!()), 'the fan-out caught up');
  const list = await (await fetch(`${api.base}/ia/api/v1/services/delivery/event/list?size=1000`, { headers: auth })).json();
  const context = (e: any) => JSON.parse(Buffer.from(e.clientContext, 'base64').toString());
  const messages = list['ia::result'].events.map((e: any) => `${context(e).object} ${context(e).event}`);
  for (const expected of ['salesQuote after.create', 'salesOrder after.create', 'salesOrder after.delete', 'salesInvoice after.create', 'salesInvoice after.close', 'salesInvoice after.post', 'salesOpenItemSettlement after.create', 'salesOpenItemSettlement after.delete', 'salesCreditNote after.create']) {
    t.ok(messages.includes(expected), expected);
  }
});

t.test("another organisation's documents are none of this one's", async (t) => {
  const other = await api.service.commands.createOrganisation({}, { name: 'Other GmbH', country: 'DE' });
  const theirs = document('QUOTE', [line('Z', '1', '1')]);
  await record(other.id, { type: 'SalesDocumentCreated', data: { document: theirs, number: number('Q2026-000001', 1), at: AT } });
  const ours = await ok(`{ salesQuotes { totalCount } salesQuoteLines(where: { productCode: { eq: "Z" } }) { totalCount } relatedSalesDocuments(where: { documentId: { eq: "${theirs.documentId}" } }) { totalCount } }`);
  t.same(Object.values(ours).map((c: any) => c.totalCount), [1, 0, 0], 'only our quote');
  t.equal((await api.rest(`/sales_quotes/${theirs.documentId}`)).status, 404);
});

t.test('a rebuild of the projection gives the same answers', async (t) => {
  const before = await answers();
  const sales = PROJECTIONS.find((p) => p.name === 'sales')!;
  await rebuildProjection(db.pool, store, sales, undefined, { batchSize: 3, workers: 2 });
  t.same(await answers(), before);
});
