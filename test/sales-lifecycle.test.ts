/**
 * The invoice lifecycle's close and credit notes through the real service: closing numbers F<year>-000001,
 * 2, ... (and never twice); closes from 8 concurrent clients give the series 1..N with no gap and no
 * duplicate; credit notes full or partial by product and quantity, never crediting more than was invoiced,
 * two racing for the last units with exactly one winning; refusals coded in four languages with nothing
 * appended; the credit note read back over GraphQL and REST with what its invoice may still credit.
 */
import t from 'tap';
import fc from 'fast-check';
import { Decimal } from '../domain/money.ts';
import { SalesAggregate } from '../commands/sales/aggregates.ts';
import { creditableQuantity, creditedQuantities } from '../domain/sales/credit-notes.ts';
import { expect } from './helpers/property.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, commands, daemon, store } = api.service as any;
const ctx = { organisationId: api.organisationId };
const E = {
  notPending: 'sales.businessErrors.invoiceNotPending',
  exceeds: 'sales.businessErrors.creditExceedsInvoiced',
  nothing: 'sales.businessErrors.nothingToCredit',
  notCreditable: 'sales.businessErrors.invoiceNotCreditable',
  typeNotCreditable: 'sales.businessErrors.invoiceTypeNotCreditable',
  notOnInvoice: 'sales.businessErrors.productNotOnInvoice',
  withoutLines: 'sales.businessErrors.invoiceWithoutLines',
};

async function refused(t: any, run: () => Promise<unknown>, code: string) {
  const before = await api.eventCount();
  await t.rejects(run(), { code }, code);
  t.equal(await api.eventCount(), before, `${code}: nothing appended`);
}

const sales = async () => (await commands.aggregates.load(SalesAggregate, api.organisationId)).state;
// committedHead, not headPosition: the latter stops at PostgreSQL's horizon, behind a commit still held from readers.
const projected = async () => daemon.waitFor(await store.committedHead());
const customer = await mutate.createCustomer(ctx, { socialName: 'Bazar Luna' });
const a = await mutate.createProduct(ctx, { code: 'A', name: 'Artículo A', category: 'PRODUCT', salesUnitPrice: '100.00' });
const b = await mutate.createProduct(ctx, { code: 'B', name: 'Artículo B', category: 'PRODUCT', salesUnitPrice: '20.00' });
const c = await mutate.createProduct(ctx, { code: 'C', name: 'Artículo C', category: 'PRODUCT', salesUnitPrice: '5.00' });

const invoice = async (documentDate: string, lines: object[]) => (await mutate.createSalesInvoice(ctx, { customerId: customer.id, documentDate, lines })).id as string;
const close = async (id: string) => (await mutate.closeSalesInvoice(ctx, { salesInvoiceId: id })).fields.operationalNumber as string;
// Numbers follow dates: after every invoice the first test closes (2026-03-04).
const closedInvoice = async (lines: object[], date = '2026-03-05') => {
  const id = await invoice(date, lines);
  await close(id);
  return id;
};

t.test('closing numbers the invoices of a series and year in order, once', async (t) => {
  const first = await invoice('2026-03-02', [{ productId: a.id, totalQuantity: '1' }]);
  const second = await invoice('2026-03-03', [{ productId: a.id, totalQuantity: '1' }]);
  const older = await invoice('2025-12-30', [{ productId: a.id, totalQuantity: '1' }]);
  const answer = await mutate.closeSalesInvoice(ctx, { salesInvoiceId: first });
  t.same({ id: answer.id, operationalNumber: answer.fields.operationalNumber }, { id: first, operationalNumber: 'F2026-000001' });
  t.equal(await close(second), 'F2026-000002');
  t.equal(await close(older), 'F2025-000001', 'the year of the document date has its own series');
  t.equal((await sales()).documents.get(first).status, 'Closed');
  await refused(t, () => mutate.closeSalesInvoice(ctx, { salesInvoiceId: first }), E.notPending);
  await refused(t, () => mutate.closeSalesInvoice(ctx, { salesInvoiceId: customer.id }), 'sales.businessErrors.salesDocumentNotFound');
  await refused(t, () => mutate.updateSalesInvoice(ctx, { id: first, salesOrderNumber: 'X' }), 'sales.businessErrors.documentNotPending');
  const empty = await invoice('2026-03-04', [{ productId: a.id, totalQuantity: '1' }]);
  const line = (await sales()).documents.get(empty).document.lines[0].lineId;
  await mutate.updateSalesInvoice(ctx, { id: empty, lines: [{ id: line, requestedAction: 'DELETE' }] });
  await refused(t, () => mutate.closeSalesInvoice(ctx, { salesInvoiceId: empty }), E.withoutLines);
  await mutate.deleteSalesInvoice(ctx, { id: empty });
  t.equal(await close(await invoice('2026-03-04', [{ productId: a.id, totalQuantity: '1' }])), 'F2026-000003', 'a refused close takes no number');
});

// The acceptance figure: 1,000 invoices closed from 8 clients (a few seconds).
const CONCURRENT = 1000;
const CLIENTS = 8;

t.test(`${CONCURRENT} invoices closed from ${CLIENTS} concurrent clients: the series 1..${CONCURRENT}, no gap, no duplicate`, async (t) => {
  const ids: string[] = [];
  for (let i = 0; i < CONCURRENT; i++) ids.push(await invoice('2024-06-01', [{ productId: b.id, totalQuantity: '1' }]));
  const queue = [...ids];
  const numbers: string[] = [];
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    for (let id = queue.shift(); id; id = queue.shift()) numbers.push(await close(id));
  }));
  const expected = Array.from({ length: CONCURRENT }, (_, i) => `F2024-${String(i + 1).padStart(6, '0')}`);
  t.same([...numbers].sort(), expected);
  t.equal(new Set(numbers).size, CONCURRENT, 'no duplicate');
});

t.test('credit notes: partial by product and quantity, then the rest, never more than invoiced', async (t) => {
  const source = await closedInvoice([{ productId: a.id, totalQuantity: '5', firstDiscount: '10' }, { productId: b.id, totalQuantity: '3' }, { productId: a.id, totalQuantity: '1' }]);
  const partial = await mutate.generateCreditNote(ctx, { id: source, lines: [{ productId: a.id, quantity: '2.5' }], creditNoteReason: 'R1', creditNoteType: 'BY_DIFFERENCES', outputDocumentDate: '2026-04-01' });
  const state = await sales();
  const note = state.documents.get(partial.id);
  t.equal(note.status, 'Pending');
  t.match(note.document, { kind: 'INVOICE', invoiceType: 'CREDIT_NOTE', operationalNumber: null, sourceInvoiceId: source, creditNoteReason: 'R1', creditNoteType: 'BY_DIFFERENCES' });
  t.equal(note.document.header.documentDate, '2026-04-01');
  const [l1] = state.documents.get(source).document.lines;
  t.match(note.document.lines, [{ productId: a.id, totalQuantity: '-2.5', unitPrice: '100.00', firstDiscount: '10', creditedLineId: l1.lineId, taxTreatmentCode: l1.taxTreatmentCode }]);
  // -2.5 x 100 = -250, less 10 % = -225, IVA 21 % = -47.25
  t.match(note.document.amounts.totals, { totalNet: '-225.00', totalVat: '-47.25', totalLiquid: '-272.25' });
  // 6 of A invoiced over two lines, 2.5 credited: 3.5 remain
  await refused(t, () => mutate.generateCreditNote(ctx, { id: source, lines: [{ productId: a.id, quantity: '3.6' }] }), E.exceeds);
  await refused(t, () => mutate.generateCreditNote(ctx, { id: source, lines: [{ productId: a.id, quantity: '2' }, { productId: a.id, quantity: '2' }] }), E.exceeds);
  await refused(t, () => mutate.generateCreditNote(ctx, { id: source, lines: [{ productId: c.id, quantity: '1' }] }), E.notOnInvoice);
  await refused(t, () => mutate.generateCreditNote(ctx, { id: source, lines: [{ productId: a.id, quantity: '0' }] }), 'sales.businessErrors.invalidSalesLine');
  // The rest of A spans both of its lines: 2.5 of the first, then 1 of the second.
  const across = await mutate.generateCreditNote(ctx, { id: source, lines: [{ productId: a.id, quantity: '3.5' }] });
  t.same((await sales()).documents.get(across.id).document.lines.map((l: any) => l.totalQuantity), ['-2.5', '-1']);
  const rest = await mutate.generateCreditNote(ctx, { id: source });
  t.same((await sales()).documents.get(rest.id).document.lines.map((l: any) => [l.productId, l.totalQuantity]), [[b.id, '-3']], 'the whole rest: only B remains');
  await refused(t, () => mutate.generateCreditNote(ctx, { id: source }), E.nothing);
  await refused(t, () => mutate.generateCreditNote(ctx, { id: source, lines: [{ productId: b.id, quantity: '1' }] }), E.exceeds);
  // A credit note rewritten beyond what its invoice leaves is refused as well.
  const line = (await sales()).documents.get(rest.id).document.lines[0].lineId;
  await refused(t, () => mutate.updateSalesInvoice(ctx, { id: rest.id, lines: [{ id: line, totalQuantity: '-4' }] }), E.exceeds);
  await refused(t, () => mutate.updateSalesInvoice(ctx, { id: rest.id, lines: [{ productId: c.id, totalQuantity: '-1' }] }), 'sales.businessErrors.invalidSalesLine');
  // Deleting a Pending credit note gives its quantity back.
  await mutate.deleteSalesInvoice(ctx, { id: rest.id });
  const again = await mutate.generateCreditNote(ctx, { id: source, creditNoteReason: 'R4' });
  t.equal(await close(again.id), 'CN2026-000001', 'a credit note is numbered when closed, in its own series');
  await refused(t, () => mutate.generateCreditNote(ctx, { id: again.id }), E.typeNotCreditable);
});

t.test('a full credit note credits everything, to the cent; only from a Closed or Posted invoice', async (t) => {
  const pending = await invoice('2026-03-05', [{ productId: a.id, totalQuantity: '2' }]);
  await refused(t, () => mutate.generateCreditNote(ctx, { id: pending }), E.notCreditable);
  await refused(t, () => mutate.generateCreditNote(ctx, { id: customer.id }), 'sales.businessErrors.salesDocumentNotFound');
  const source = await closedInvoice([{ productId: a.id, totalQuantity: '2', firstDiscount: '5' }, { productId: b.id, totalQuantity: '7' }]);
  const full = await mutate.generateCreditNote(ctx, { id: source });
  t.same(Object.keys(full), ['id', 'position'].filter((k) => k in full), 'answers its id: no number until closed');
  const state = await sales();
  const totals = state.documents.get(source).document.amounts.totals;
  const credited = state.documents.get(full.id).document.amounts.totals;
  for (const k of ['totalGross', 'totalDiscount', 'totalNet', 'totalVat', 'totalLiquid']) t.equal(credited[k], new Decimal(totals[k]).neg().toFixed(2), k);
  await refused(t, () => mutate.generateCreditNote(ctx, { id: source }), E.nothing);
});

t.test('two credit notes racing for the last units: exactly one wins', async (t) => {
  for (let round = 0; round < 5; round++) {
    const source = await closedInvoice([{ productId: a.id, totalQuantity: '3' }]);
    await mutate.generateCreditNote(ctx, { id: source, lines: [{ productId: a.id, quantity: '2' }] });
    const before = await api.eventCount();
    const race = await Promise.allSettled([1, 2].map(() => mutate.generateCreditNote(ctx, { id: source, lines: [{ productId: a.id, quantity: '1' }] })));
    t.equal(race.filter((r) => r.status === 'fulfilled').length, 1, `round ${round}: one wins`);
    t.match(race.find((r) => r.status === 'rejected'), { reason: { code: E.exceeds } }, 'the other is refused with the coded error');
    t.equal(await api.eventCount(), before + 1, 'one credit note appended');
  }
});

const as = (language: string) => ({ Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId, 'Accept-Language': language });

t.test('refusals answer in en, es, fr and de over GraphQL, and change nothing', async (t) => {
  const source = await closedInvoice([{ productId: a.id, totalQuantity: '1' }]);
  const cases: [string, object, string, RegExp[]][] = [
    ['closeSalesInvoice', { salesInvoiceId: source }, E.notPending, [/only a Pending invoice/, /solo se puede cerrar/, /seule une facture en attente/, /nur eine offene Rechnung/]],
    ['generateCreditNote', { id: source, lines: [{ productId: a.id, quantity: '2' }] }, E.exceeds, [/only 1 remain/, /solo quedan 1/, /il ne reste que 1/, /nur noch 1/]],
  ];
  for (const [name, input, code, messages] of cases) {
    const input_ = name === 'closeSalesInvoice' ? 'CloseSalesInvoiceGLDtoInput' : 'GenerateCreditNoteGLDtoInput';
    const fields = name === 'closeSalesInvoice' ? 'id operationalNumber' : 'id';
    for (const [i, language] of ['en', 'es', 'fr', 'de'].entries()) {
      const before = await api.eventCount();
      const r = await api.gql(`mutation($v: ${input_}!) { ${name}(input: $v) { ${fields} } }`, { v: input }, as(language));
      t.equal(r.errors?.[0]?.extensions?.code, code, `${name} ${language}: coded`);
      t.match(r.errors?.[0]?.message, messages[i], `${name} ${language}: in its language`);
      t.equal(await api.eventCount(), before, `${name} ${language}: nothing appended`);
    }
  }
  const ok = await api.gql(`mutation($v: CloseSalesInvoiceGLDtoInput!) { closeSalesInvoice(input: $v) { id operationalNumber } }`, { v: { salesInvoiceId: await invoice('2023-01-02', [{ productId: a.id, totalQuantity: '1' }]) } });
  t.equal(ok.data.closeSalesInvoice.operationalNumber, 'F2023-000001', 'over GraphQL');
});

t.test('a credit note reads back over GraphQL and REST, with what its invoice may still credit', async (t) => {
  const source = await closedInvoice([{ productId: a.id, totalQuantity: '4' }, { productId: b.id, totalQuantity: '2' }]);
  const r = await api.gql(`mutation($v: GenerateCreditNoteGLDtoInput!) { generateCreditNote(input: $v) { id } }`, { v: { id: source, lines: [{ productId: a.id, quantity: 1.5 }], creditNoteReason: 'R2', creditNoteType: 'SUBSTITUTIVE', operationalNumberPresetTextId: customer.id } });
  const id = r.data.generateCreditNote.id;
  t.ok(await projected(), 'projected');
  const read = await api.gql(`{ notes: salesInvoices(where: { type: { eq: CREDIT_NOTE }, id: { eq: "${id}" } }) { nodes { id type status operationalNumber creditNoteReason creditNoteType sourceSalesInvoice { id } lines { productCode totalQuantity } } }
    source: salesInvoices(where: { id: { eq: "${source}" } }) { nodes { hasCreditNote lines { productCode availableForCreditNoteQuantity } } } }`);
  t.same(read.data.notes.nodes, [{ id, type: 'CREDIT_NOTE', status: 'Pending', operationalNumber: null, creditNoteReason: 'R2', creditNoteType: 'SUBSTITUTIVE', sourceSalesInvoice: { id: source }, lines: [{ productCode: 'A', totalQuantity: '-1.5' }] }]);
  t.same(read.data.source.nodes[0], { hasCreditNote: true, lines: [{ productCode: 'A', availableForCreditNoteQuantity: '2.5' }, { productCode: 'B', availableForCreditNoteQuantity: '2' }] });
  t.equal((await api.rest(`/sales_credit_notes/${id}`)).status, 200, 'listed with the credit notes');
  t.equal((await api.rest(`/sales_invoices/${id}`)).status, 404, 'not with the invoices');
});

t.test('property: for any sequence of partial credit notes, nothing is credited beyond what was invoiced, and the read model agrees', async (t) => {
  const products = [a.id, b.id];
  const step = fc.record({ product: fc.integer({ min: 0, max: 1 }), quantity: fc.integer({ min: 1, max: 8 }).map((n) => (n / 2).toString()) });
  let runs = 0;
  await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
    runs++;
    const source = await closedInvoice([{ productId: a.id, totalQuantity: '3' }, { productId: b.id, totalQuantity: '2' }, { productId: a.id, totalQuantity: '1' }]);
    for (const s of steps) {
      const before = await api.eventCount();
      try {
        await mutate.generateCreditNote(ctx, { id: source, lines: [{ productId: products[s.product], quantity: s.quantity }] });
      } catch (error: any) {
        expect([E.exceeds, E.nothing].includes(error.code), `refused with ${error.code}`);
        expect((await api.eventCount()) === before, 'a refusal appends nothing');
      }
    }
    const state = await sales();
    const credited = creditedQuantities(state, source);
    const lines = state.documents.get(source).document.lines;
    for (const l of lines) expect(!(credited.get(l.lineId) ?? new Decimal(0)).gt(l.totalQuantity), `line ${l.productCode} credited beyond what was invoiced`);
    expect(await projected(), 'projected');
    const read = await api.gql(`{ salesInvoices(where: { id: { eq: "${source}" } }) { nodes { lines { id availableForCreditNoteQuantity } } } }`);
    expect(!read.errors, JSON.stringify(read.errors));
    for (const l of lines) {
      const row = read.data.salesInvoices.nodes[0].lines.find((r: any) => r.id === l.lineId);
      expect(new Decimal(row.availableForCreditNoteQuantity).eq(creditableQuantity(l, credited)), `line ${l.productCode}: read ${row.availableForCreditNoteQuantity}, state ${creditableQuantity(l, credited)}`);
    }
  }), { numRuns: 15 });
  t.ok(runs >= 15, `held for ${runs} runs`);
});
