/**
 * The sales read model agrees with the write side. After documents are created, converted, updated, linked
 * and deleted through the real service, every quote and order line's pendingQuantity and status read over
 * GraphQL are what the Sales aggregate's state says (domain/sales/state.ts pendingQuantity, lineStatus), and
 * every document's related rows name the origins the state holds; the same after a rebuild of the projection.
 */
import t, { type Test } from 'tap';
import { SalesAggregate } from '../commands/sales/aggregates.ts';
import { pendingQuantity, lineStatus, type SalesState } from '../domain/sales/state.ts';
import type { SalesDocument, SalesEvent } from '../domain/sales/events.ts';
import { PROJECTIONS } from '../modules/index.ts';
import { rebuildProjection } from '../projections/engine/rebuild.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, commands, daemon, store, db } = api.service as any;
db.pool.on('error', () => {});
const ctx = { organisationId: api.organisationId };
const date = '2026-03-02';

const state = async (): Promise<SalesState> => (await commands.aggregates.load(SalesAggregate, api.organisationId)).state;
const ok = async (query: string) => {
  const r = await api.gql(query);
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data;
};

const customer = await mutate.createCustomer(ctx, { socialName: 'Cliente' });
const a = await mutate.createProduct(ctx, { code: 'A', name: 'A', category: 'PRODUCT', salesUnitPrice: '10.00' });
const b = await mutate.createProduct(ctx, { code: 'B', name: 'B', category: 'PRODUCT', salesUnitPrice: '4.00' });

const linesOf = async (documentId: string) => (await state()).documents.get(documentId)!.document.lines;
const from = (type: 'QUOTE' | 'ORDER', documentId: string, lineId: string, totalQuantity: string) => ({ originType: type, originId: documentId, originLineId: lineId, totalQuantity });

/** Every quote and order line as the write side has it, against the read model; every document's origins. */
async function compare(t: Test, when: string) {
  t.ok(await daemon.waitFor(await store.committedHead()), 'projected');
  const s = await state();
  const read = await ok(`{
    quoteLines: salesQuoteLines(first: 500) { nodes { id pendingQuantity status } }
    orderLines: salesOrderLines(first: 500) { nodes { id pendingQuantity status } }
    related: relatedSalesDocuments(first: 500) { nodes { documentId originId } }
  }`);
  const readLines = new Map([...read.quoteLines.nodes, ...read.orderLines.nodes].map((n: any) => [n.id, { pendingQuantity: Number(n.pendingQuantity), status: n.status }]));
  const written = new Map<string, { pendingQuantity: number; status: string }>();
  const origins: Record<string, string[]> = {};
  for (const [id, kept] of s.documents) {
    origins[id] = [...kept.origins].sort();
    if (kept.document.kind !== 'QUOTE' && kept.document.kind !== 'ORDER') continue;
    for (const l of kept.document.lines) written.set(l.lineId, { pendingQuantity: Number(pendingQuantity(kept, l.lineId).toString()), status: lineStatus(kept, l.lineId) });
  }
  t.same(Object.fromEntries(readLines), Object.fromEntries(written), `${when}: every quote and order line's pending quantity and status`);
  const readOrigins: Record<string, string[]> = {};
  for (const r of read.related.nodes) (readOrigins[r.documentId] ??= []).push(...(r.originId ? [r.originId] : []));
  for (const list of Object.values(readOrigins)) list.sort();
  t.same(readOrigins, origins, `${when}: every document's related rows name its origins`);
}

t.test('pending quantities, line statuses and related documents agree with the write side, and after a rebuild', async (t) => {
  const quote = await mutate.createSalesQuote(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: a.id, totalQuantity: '5' }, { productId: b.id, totalQuantity: '4' }] });
  const [qa, qb] = await linesOf(quote.id);
  const order = await mutate.createSalesOrder(ctx, { customerId: customer.id, documentDate: date, lines: [from('QUOTE', quote.id, qa.lineId, '2'), from('QUOTE', quote.id, qb.lineId, '4')] });
  await compare(t, 'an order takes 2 of 5 A and every B');

  // Updating the partly converted quote (a comment, then more A) keeps what the order took of it.
  await mutate.updateSalesQuote(ctx, { id: quote.id, comments: 'only a comment' });
  await compare(t, 'a comment on the quote');
  await mutate.updateSalesQuote(ctx, { id: quote.id, lines: [{ id: qa.lineId, requestedAction: 'MODIFY', totalQuantity: '6' }] });
  await compare(t, 'the quote asks 6 A');

  // The order, partly delivered: its own lines keep what was taken of them when it is updated.
  const [oa] = await linesOf(order.id);
  const note = await mutate.createSalesDeliveryNote(ctx, { customerId: customer.id, documentDate: date, lines: [from('ORDER', order.id, oa.lineId, '1')] });
  await compare(t, 'a delivery note takes 1 A of the order');
  await mutate.updateSalesOrder(ctx, { id: order.id, comments: 'a comment' });
  await compare(t, 'a comment on the order');

  // Another order, linked to a second quote, then given a line of the first quote by an update, then losing it.
  const other = await mutate.createSalesQuote(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: b.id, totalQuantity: '1' }] });
  const third = await mutate.createSalesOrder(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: b.id, totalQuantity: '1' }] });
  await mutate.linkRelatedSalesDocument(ctx, { documentId: third.id, originId: other.id });
  await compare(t, 'an order linked to a quote');
  await mutate.updateSalesOrder(ctx, { id: third.id, lines: [{ requestedAction: 'CREATE', ...from('QUOTE', quote.id, qa.lineId, '3') }] });
  await compare(t, 'the linked order takes 3 A of the first quote by an update');
  const converted = (await linesOf(third.id)).find((l) => l.origin)!;
  await mutate.updateSalesOrder(ctx, { id: third.id, lines: [{ id: converted.lineId, requestedAction: 'DELETE' }] });
  await compare(t, 'the converted line removed by an update');

  // An order converted by an update alone, then deleted: it gives back what it took.
  const fourth = await mutate.createSalesOrder(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: a.id, totalQuantity: '1' }] });
  await mutate.updateSalesOrder(ctx, { id: fourth.id, lines: [{ requestedAction: 'CREATE', ...from('QUOTE', quote.id, qa.lineId, '1') }] });
  await compare(t, 'an order converted by an update');
  await mutate.deleteSalesOrder(ctx, { id: fourth.id });
  await mutate.deleteSalesDeliveryNote(ctx, { id: note.id });
  await compare(t, 'an order and a delivery note deleted');

  const sales = PROJECTIONS.find((p) => p.name === 'sales')!;
  await rebuildProjection(db.pool, store, sales, undefined, { batchSize: 3, workers: 2 });
  await compare(t, 'after a rebuild');
});

const AT = '2026-03-02T10:00:00.000Z';
/** Events recorded as such on the organisation's Sales stream (what the deciders refuse now, or cannot reach yet). */
async function record(...events: SalesEvent[]) {
  await store.append(`Sales-${api.organisationId}`, events.map((e) => ({ id: crypto.randomUUID(), type: e.type, data: e.data, metadata: { organisationId: api.organisationId, schemaVersion: 1 } })), 'any');
}

t.test('what more than a line holds, or less than nothing, taken of it reads as the write side has it', async (t) => {
  // Recorded as such (the deciders refuse both now; stored events of an earlier version may hold them).
  const quote = await mutate.createSalesQuote(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: a.id, totalQuantity: '5' }, { productId: b.id, totalQuantity: '4' }] });
  const kept = (await state()).documents.get(quote.id)!.document;
  const [qa, qb] = kept.lines;
  const order = { ...kept, documentId: crypto.randomUUID(), kind: 'ORDER' as const, operationalNumber: null, lines: [
    { ...qa, lineId: crypto.randomUUID(), totalQuantity: '7', origin: { originType: 'QUOTE' as const, originId: quote.id, originLineId: qa.lineId } },
    { ...qb, lineId: crypto.randomUUID(), totalQuantity: '-3', origin: { originType: 'QUOTE' as const, originId: quote.id, originLineId: qb.lineId } },
  ] };
  await record({ type: 'SalesDocumentCreated', data: { document: order, number: null, at: AT } });
  await compare(t, '7 of 5 A and -3 of 4 B taken');
  const read = await ok(`{ salesQuoteLines(where: { salesQuote: { id: { eq: "${quote.id}" } } }) { nodes { pendingQuantity status } } }`);
  t.same(read.salesQuoteLines.nodes, [{ pendingQuantity: '0', status: 'Completed' }, { pendingQuantity: '7', status: 'Pending' }], 'never below zero; less than nothing taken is Pending');
});

t.test('an updated invoice keeps what its credit notes took of it', async (t) => {
  const quote = await mutate.createSalesQuote(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: a.id, totalQuantity: '5' }] });
  const kept = (await state()).documents.get(quote.id)!.document;
  const invoice: SalesDocument = { ...kept, documentId: crypto.randomUUID(), kind: 'INVOICE', invoiceType: 'NORMAL', operationalNumber: null, lines: [{ ...kept.lines[0], lineId: crypto.randomUUID() }] };
  const credit: SalesDocument = {
    ...invoice, documentId: crypto.randomUUID(), invoiceType: 'CREDIT_NOTE', sourceInvoiceId: invoice.documentId, creditNoteReason: 'R1', creditNoteType: 'BY_DIFFERENCES',
    lines: [{ ...invoice.lines[0], lineId: crypto.randomUUID(), totalQuantity: '-2', creditedLineId: invoice.lines[0].lineId }],
  };
  await record(
    { type: 'SalesDocumentCreated', data: { document: invoice, number: null, at: AT } },
    { type: 'SalesDocumentCreated', data: { document: credit, number: null, at: AT } },
    { type: 'SalesDocumentUpdated', data: { document: { ...invoice, header: { ...invoice.header, comments: 'a comment' } }, at: AT } },
  );
  t.ok(await daemon.waitFor(await store.committedHead()), 'projected');
  const read = await ok(`{ salesInvoices(where: { id: { eq: "${invoice.documentId}" } }) { nodes { hasCreditNote lines { availableForCreditNoteQuantity } } } }`);
  t.same(read.salesInvoices.nodes, [{ hasCreditNote: true, lines: [{ availableForCreditNoteQuantity: '3' }] }], '2 of 5 credited');
});
