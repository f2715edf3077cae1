/**
 * Issue 18 item 6, as properties over random sequences of sales operations run through the real service, each
 * sequence in an ES organisation of its own (a broken run cannot leak into the next, so shrinking stays honest):
 * invoices of random lines to a customer in recargo or an intra-EU one, closed, posted, credited in part (some
 * refused), the credit notes closed and posted, open items settled with random amounts (some beyond the open
 * amount, refused), settlements undone by deleting their entries, and attempts to delete an invoice's entry
 * (refused). After each sequence:
 *  (a) the ledger is balanced, in the accounting_entry_lines read model and in the Ledger streams' own events;
 *  (b) per customer, the receivable account's balance (4300000, the customer as third party) equals what its
 *      posted invoices' and credit notes' open items leave unpaid (salesInvoiceOpenItems);
 *  (c) per invoice line, what its credit notes credit (Pending ones included) never exceeds what was invoiced,
 *      and availableForCreditNoteQuantity is the difference;
 *  (d) every refused operation left the store's head unchanged;
 *  (e) the operational numbers of each series and year are 1..n without gap.
 * (IRPF withholding is not on sales lines on this branch: the fourth product is a service at IVA 21.)
 */
import t from 'tap';
import fc from 'fast-check';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { PartiesAggregate } from '../commands/parties/aggregates.ts';
import { SalesAggregate } from '../commands/sales/aggregates.ts';
import { Decimal } from '../domain/money.ts';
import { taxTreatmentIdOf } from '../domain/taxes/catalogue/index.ts';
import { expect, holdsAsync } from './helpers/property.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, commands, daemon, store, db } = api.service as any;
const year = new Date().getUTCFullYear();
const RUNS = Number(process.env.SALES_PROPERTY_RUNS ?? 100);

// ---- The operations, as fast-check generates them: indexes into what the run has made so far. ----
type Op =
  | { op: 'invoice'; customer: 0 | 1; lines: { product: number; quantity: string }[]; then: 'none' | 'close' | 'post' }
  | { op: 'close'; doc: number }
  | { op: 'post'; doc: number }
  /** A credit line's product: the invoice's `product`-th line's (mod its lines), else (`onInvoice` false) the catalogue's. */
  | { op: 'credit'; invoice: number; lines: { product: number; quantity: string; onInvoice: boolean }[] | null; then: 'none' | 'close' | 'post' }
  | { op: 'settle'; customer: 0 | 1; items: { item: number; share: number | 'beyond' }[] }
  | { op: 'deleteSettlementEntry'; settlement: number }
  | { op: 'deletePostingEntry'; doc: number };

const quantity = fc.oneof(fc.integer({ min: 1, max: 5 }).map(String), fc.integer({ min: 1, max: 9 }).map((n) => `${n}.5`));
const lines = fc.array(fc.record({ product: fc.integer({ min: 0, max: 3 }), quantity }), { minLength: 1, maxLength: 3 });
/** Counted from the newest: mostly the newest, so sequences reach posting and collection. */
const creditLines = fc.array(fc.record({ product: fc.integer({ min: 0, max: 3 }), quantity, onInvoice: fc.oneof({ weight: 6, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }) }), { minLength: 1, maxLength: 3 });
const index = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.nat({ max: 5 }) });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('invoice' as const), customer: fc.constantFrom(0 as const, 1 as const), lines, then: fc.constantFrom('none' as const, 'close' as const, 'post' as const) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('close' as const), doc: index }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('post' as const), doc: index }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('credit' as const), invoice: index, lines: fc.option(creditLines, { freq: 4, nil: null }), then: fc.constantFrom('none' as const, 'close' as const, 'post' as const) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('settle' as const), customer: fc.constantFrom(0 as const, 1 as const), items: fc.array(fc.record({ item: index, share: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 100 }) }, { weight: 1, arbitrary: fc.constant('beyond' as const) }) }), { minLength: 1, maxLength: 2 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('deleteSettlementEntry' as const), settlement: index }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('deletePostingEntry' as const), doc: index }) },
);
const sequence = fc.array(op, { minLength: 3, maxLength: 20 });

// ---- One run's world: an ES organisation with its exercise, 4 products, a bank, 2 customers. ----
interface World {
  orgId: string;
  ctx: { organisationId: string };
  products: string[];
  customers: { id: string; code: string }[];
  methodId: string;
  receivableId: string;
  /** Invoices and credit notes made in the run, in order. */
  docs: { id: string; customer: 0 | 1; credit: boolean }[];
  /** Standing settlements' payment entries. */
  settlements: string[];
  postings: string[];
}

let made = 0;
async function world(): Promise<World> {
  made += 1;
  const org = await commands.createOrganisation({}, { name: `Consistencia ${made} SL`, country: 'ES' });
  const ctx = { organisationId: org.id as string };
  await mutate.createAccountingExercise(ctx, { startDate: `${year}-01-01`, endDate: `${year}-12-31`, description: `Ejercicio ${year}` });
  const chart = await commands.organisation(org.id);
  const product = async (code: string, category: string, treatment: string) =>
    (await mutate.createProduct(ctx, { code, name: `Producto ${code}`, category, salesUnitPrice: '12.35', taxTreatmentId: taxTreatmentIdOf(org.id, treatment) })).id as string;
  const products = [await product('P21', 'PRODUCT', 'NAT-IVA21'), await product('P10', 'PRODUCT', 'NAT-IVA10'), await product('P4', 'PRODUCT', 'NAT-IVA4'), await product('S21', 'SERVICE', 'NAT-IVA21')];
  const recargo = await mutate.createCustomer(ctx, { socialName: 'Droguería Recargo', hasEquivalenceSurcharge: true });
  const intraEu = await mutate.createCustomer(ctx, { socialName: 'Client Intracom SARL', countryAcronym: 'FR', vatNumber: 'FR40303265045' });
  const method = await mutate.createPaymentMethod(ctx, { referenceName: 'Banco', type: 'BANK_ACCOUNT', journalTypeId: chart.journalTypeIdByCode.get('BAN'), subAccountId: chart.accountIdByCode.get('5720000') });
  const code = async (id: string) => (await commands.aggregates.load(PartiesAggregate, org.id)).state.parties.get(id).code as string;
  return {
    orgId: org.id, ctx, products, methodId: method.id, receivableId: chart.accountIdByCode.get('4300000'),
    customers: [{ id: recargo.id, code: await code(recargo.id) }, { id: intraEu.id, code: await code(intraEu.id) }],
    docs: [], settlements: [], postings: [],
  };
}

const salesJournal = async (w: World) => (await commands.organisation(w.orgId)).journalTypeIdByCode.get('VEN') as string;
const salesState = async (w: World) => (await commands.aggregates.load(SalesAggregate, w.orgId)).state;
const pick = <T>(list: T[], fromNewest: number): T | undefined => (list.length === 0 ? undefined : list[list.length - 1 - (fromNewest % list.length)]);

async function post(w: World, id: string): Promise<void> {
  w.postings.push((await mutate.postSalesInvoice(w.ctx, { salesInvoiceId: id, journalTypeId: await salesJournal(w) })).id);
}

/** A document just made, kept in the run's list, then closed or posted as the operation says. */
async function madeThen(w: World, doc: World['docs'][number], then: 'none' | 'close' | 'post'): Promise<void> {
  w.docs.push(doc);
  if (then !== 'none') await mutate.closeSalesInvoice(w.ctx, { salesInvoiceId: doc.id });
  if (then === 'post') await post(w, doc.id);
}

/** What the run did, for the failure message: each operation and its outcome. */
type Outcome = { op: Op; outcome: string };

/** Runs one operation; a business refusal must leave the store's head where it was (d). */
async function run(w: World, o: Op, log: Outcome[]): Promise<void> {
  const attempt = async (what: () => Promise<unknown>) => {
    const before = await api.eventCount();
    try {
      await what();
      log.push({ op: o, outcome: 'done' });
    } catch (error: any) {
      if (!error?.code) throw error; // not a business refusal: a defect
      const after = await api.eventCount();
      log.push({ op: o, outcome: `refused ${error.code}` });
      expect(after === before, `(d) the refusal ${error.code} of ${JSON.stringify(o)} appended ${after - before} event(s)`);
    }
  };
  switch (o.op) {
    case 'invoice': {
      const input = { customerId: w.customers[o.customer].id, documentDate: `${year}-03-02`, lines: o.lines.map((l) => ({ productId: w.products[l.product], totalQuantity: l.quantity })) };
      return attempt(async () => madeThen(w, { id: (await mutate.createSalesInvoice(w.ctx, input)).id, customer: o.customer, credit: false }, o.then));
    }
    case 'close': {
      const doc = pick(w.docs, o.doc);
      if (doc) return attempt(() => mutate.closeSalesInvoice(w.ctx, { salesInvoiceId: doc.id }));
      return;
    }
    case 'post': {
      const doc = pick(w.docs, o.doc);
      if (doc) return attempt(() => post(w, doc.id));
      return;
    }
    case 'credit': {
      const invoice = pick(w.docs.filter((d) => !d.credit), o.invoice);
      if (!invoice) return;
      const invoiced: string[] = (await salesState(w)).documents.get(invoice.id)!.document.lines.map((l: any) => l.productId);
      const productOf = (l: { product: number; onInvoice: boolean }) => (l.onInvoice && invoiced.length > 0 ? invoiced[l.product % invoiced.length] : w.products[l.product]);
      const input = { id: invoice.id, outputDocumentDate: `${year}-03-10`, ...(o.lines && { lines: o.lines.map((l) => ({ productId: productOf(l), quantity: l.quantity })) }) };
      return attempt(async () => madeThen(w, { id: (await mutate.generateCreditNote(w.ctx, input)).id, customer: invoice.customer, credit: true }, o.then));
    }
    case 'settle': {
      const state = await salesState(w);
      const customerId = w.customers[o.customer].id;
      const open = [...state.openItems.values()].filter((i: any) => state.documents.get(i.invoiceId)?.document.header.customerId === customerId && !new Decimal(i.amount).minus(i.paid).isZero());
      if (open.length === 0) return;
      // Each open item once (settling one twice in a settlement is its own refusal, tested elsewhere).
      const chosenOnce = new Map(o.items.map(({ item, share }) => [pick(open, item), share] as const));
      const paid = [...chosenOnce].map(([chosen, share]: [any, number | 'beyond']) => {
        const rest = new Decimal(chosen.amount).minus(chosen.paid);
        const sign = rest.isNeg() ? -1 : 1;
        const amount = share === 'beyond' ? rest.plus(new Decimal('0.01').times(sign)) : Decimal.max(rest.times(share).div(100).toDecimalPlaces(2, Decimal.ROUND_DOWN).abs(), new Decimal('0.01')).times(sign);
        return { openItemId: chosen.openItemId, paidAmount: amount.toFixed(2) };
      });
      const input = { entryDate: `${year}-04-01`, paymentMethodId: w.methodId, thirdPartyId: customerId, salesOpenItemLinkagePaidAmounts: paid };
      return attempt(async () => w.settlements.push((await mutate.salesOpenItemSettlement(w.ctx, input)).id));
    }
    case 'deleteSettlementEntry': {
      const entry = pick(w.settlements, o.settlement);
      if (!entry) return;
      return attempt(async () => {
        await mutate.deleteAccountingEntry(w.ctx, { id: entry });
        w.settlements.splice(w.settlements.indexOf(entry), 1);
      });
    }
    case 'deletePostingEntry': {
      const entry = pick(w.postings, o.doc);
      if (!entry) return;
      return attempt(async () => {
        await mutate.deleteAccountingEntry(w.ctx, { id: entry });
        throw new Error(`the entry ${entry} that posted an invoice was deleted`);
      });
    }
  }
}

// ---- The checks, each read from where the brief names it. ----
const sql = async (text: string, values: unknown[]) => (await db.pool.query(text, values)).rows;
const dec = (v: unknown) => new Decimal((v as string | null) ?? '0');

/** (a) From the read model, then from the Ledger streams' events folded here (the Ledger's state keeps no amounts). */
async function ledgerBalanced(w: World): Promise<void> {
  const [row] = await sql(`SELECT coalesce(sum(debit_amount), 0)::text AS d, coalesce(sum(credit_amount), 0)::text AS c, count(*)::int AS n FROM accounting_entry_lines WHERE organisation_id = $1`, [w.orgId]);
  expect(dec(row.d).eq(dec(row.c)), `(a) accounting_entry_lines: debits ${row.d} != credits ${row.c}`);
  const live = new Map<string, { debitAmount: string; creditAmount: string }[]>();
  for (const exerciseId of (await commands.organisation(w.orgId)).exercises.keys()) {
    const streamId = AggregateStore.streamId('Ledger', exerciseId);
    for (let from = 0n; ;) {
      const page = await store.readStream(streamId, { fromRevision: from, maxCount: 500 });
      for (const e of page) {
        if (e.type === 'AccountingEntryPosted') live.set(e.data.entryId, e.data.lines);
        if (e.type === 'AccountingEntryDeleted') live.delete(e.data.entryId);
      }
      if (page.length < 500) break;
      from = page[page.length - 1].revision + 1n;
    }
  }
  const lines = [...live.values()].flat();
  const sum = (side: 'debitAmount' | 'creditAmount') => lines.reduce((s, l) => s.plus(l[side]), new Decimal(0));
  expect(sum('debitAmount').eq(sum('creditAmount')), `(a) the Ledger streams: debits ${sum('debitAmount')} != credits ${sum('creditAmount')}`);
  expect(lines.length === row.n, `(a) the read model has ${row.n} lines, the Ledger streams ${lines.length}`);
}

/** (b) Per customer: 4300000's balance with it as third party = its posted documents' open items, less what is paid. */
async function receivablesAreOpenItems(w: World): Promise<void> {
  for (const customer of w.customers) {
    const [ledger] = await sql(`SELECT coalesce(sum(debit_amount - credit_amount), 0)::text AS balance FROM accounting_entry_lines WHERE organisation_id = $1 AND sub_account_id = $2 AND (third_party_id = $3 OR third_code = $4)`, [w.orgId, w.receivableId, customer.id, customer.code]);
    const items = await sql(`SELECT i.operational_number AS number, i.type, o.amount::text AS amount, o.paid_amount_accumulated::text AS paid FROM sales_invoice_open_items o JOIN sales_invoices i ON i.id = o.sales_invoice_id AND i.organisation_id = o.organisation_id WHERE o.organisation_id = $1 AND i.customer_id = $2`, [w.orgId, customer.id]);
    const open = items.reduce((s: Decimal, i: any) => s.plus(dec(i.amount)).minus(dec(i.paid)), new Decimal(0));
    expect(dec(ledger.balance).eq(open), `(b) customer ${customer.code}: 4300000 balance ${ledger.balance} != open items less paid ${open} (${JSON.stringify(items)})`);
  }
}

/** (c) Per invoice line: credited (credit notes' lines, Pending ones included) <= invoiced, available = the difference. */
async function nothingCreditedTwice(w: World): Promise<void> {
  const rows = await sql(`SELECT l.id, l.total_quantity::text AS invoiced, l.available_for_credit_note_quantity::text AS available,
      (SELECT coalesce(sum(abs(c.total_quantity)), 0)::text FROM sales_invoice_lines c WHERE c.organisation_id = l.organisation_id AND c.credited_line_id = l.id) AS credited
    FROM sales_invoice_lines l JOIN sales_invoices i ON i.id = l.sales_invoice_id AND i.organisation_id = l.organisation_id
    WHERE l.organisation_id = $1 AND i.type <> 'CREDIT_NOTE'`, [w.orgId]);
  for (const r of rows) {
    expect(dec(r.credited).lte(dec(r.invoiced)), `(c) line ${r.id}: credited ${r.credited} of ${r.invoiced} invoiced`);
    expect(dec(r.available).eq(dec(r.invoiced).minus(dec(r.credited))), `(c) line ${r.id}: availableForCreditNoteQuantity ${r.available}, invoiced ${r.invoiced} less credited ${r.credited}`);
  }
}

/** (e) Per series and year: 1..n, no gap, no duplicate (from the read model's operational numbers). */
async function numbersWithoutGap(w: World): Promise<void> {
  const rows = await sql(`SELECT operational_number AS number FROM sales_invoices WHERE organisation_id = $1 AND operational_number IS NOT NULL`, [w.orgId]);
  const series = new Map<string, number[]>();
  for (const { number } of rows) {
    const m = /^(.*?)(\d{4})-(\d+)$/.exec(number);
    expect(m !== null, `(e) an operational number out of the series' shape: ${number}`);
    series.set(`${m[1]}${m[2]}`, [...(series.get(`${m[1]}${m[2]}`) ?? []), Number(m[3])]);
  }
  for (const [key, sequences] of series) {
    const sorted = [...sequences].sort((a, b) => a - b);
    expect(sorted.every((n, i) => n === i + 1), `(e) series ${key}: ${sorted.join(', ')}`);
  }
  const closed = [...(await salesState(w)).documents.values()].filter((k: any) => k.document.kind === 'INVOICE' && k.status !== 'Pending').length;
  expect(rows.length === closed, `(e) ${closed} invoices and credit notes closed, ${rows.length} numbered`);
}

/** How often each operation ended how, over every run (the test prints it: a property over refusals only proves little). */
const tally = new Map<string, number>();

/** One sequence, then every check; the failure names the sequence's outcomes. */
async function holdsFor(ops: Op[]): Promise<void> {
  const w = await world();
  const log: Outcome[] = [];
  try {
    for (const o of ops) await run(w, o, log);
    for (const l of log) {
      const key = `${l.op.op}${'then' in l.op && l.op.then !== 'none' ? `+${l.op.then}` : ''} ${l.outcome}`;
      tally.set(key, (tally.get(key) ?? 0) + 1);
    }
    await daemon.waitFor(await store.committedHead());
    await ledgerBalanced(w);
    await receivablesAreOpenItems(w);
    await nothingCreditedTwice(w);
    await numbersWithoutGap(w);
  } catch (error) {
    const outcomes = log.map((l, i) => `  ${i + 1}. ${JSON.stringify(l.op)} -> ${l.outcome}`).join('\n');
    throw new Error(`${(error as Error).message}\nthe run:\n${outcomes}`);
  }
}

t.test('sales sequences keep the books, the open items, the credits and the numbers consistent', async (t) => {
  await holdsAsync(t, fc.asyncProperty(sequence, holdsFor), { numRuns: RUNS, interruptAfterTimeLimit: 45_000, markInterruptAsFailure: false });
  t.comment([...tally].sort().map(([k, n]) => `${k}: ${n}`).join('\n'));
});
