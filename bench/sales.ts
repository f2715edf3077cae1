/**
 * `npm run bench -- sales`: invoices of 10 lines created, closed and posted per second over GraphQL, against
 * `createAccountingEntryUsingCodes` alone in the same run, on one organisation, with CLIENTS concurrent
 * clients (default 8), each running one request after the other:
 *   entry    createAccountingEntryUsingCodes of the entry an invoice posts (receivable, sales, output VAT);
 *   cycle    createSalesInvoice (10 product lines), closeSalesInvoice, postSalesInvoice, one after the other.
 * The issue's bar: posting an invoice costs no more than twice posting the same entry (postSalesInvoice p50
 * over the entry's p50). Afterwards the closed invoices' numbers are checked: 1..n of the series, no gap, no
 * duplicate, and every posted invoice has its entry.
 */
import { benchTarget, cpuMeter, latencySummary, resultHeader, table, type CpuPercent } from './support.ts';
import { startBenchService, type BenchService } from './service.ts';

export interface SalesBenchOptions {
  freshDatabase: () => Promise<string>;
  /** Measured time of each phase; default 10,000 ms. */
  durationMs?: number;
  /** Concurrent clients; default 8. */
  clients?: number;
  log?: (line: string) => void;
}

const LINES_PER_INVOICE = 10;
/** A bound on each phase's requests, whatever the duration (TIGER_STYLE: no unbounded loop). */
const MAX_REQUESTS_PER_PHASE = 200_000;

type Gql = (query: string, variables?: object) => Promise<any>;

function client(bench: BenchService): Gql {
  const { token, organisationId } = bench.organisations[0];
  return async (query, variables) => {
    const response = await fetch(`${bench.base}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'X-Site': organisationId },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: any; errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors).slice(0, 300));
    return body.data;
  };
}

/** A customer, ten products at 10.00 with the standard rate, and the SALES_INVOICE journal. */
async function setUp(gql: Gql) {
  const customer = (await gql(`mutation { createCustomer(input: { socialName: "Cliente Bench S.L.", countryAcronym: "ES" }) { id } }`)).createCustomer.id;
  const products: string[] = [];
  for (let i = 1; i <= LINES_PER_INVOICE; i++) {
    products.push((await gql(`mutation($v: ProductCreateGLDtoInput!) { createProduct(input: $v) { id } }`, { v: { code: `B${i}`, name: `Producto ${i}`, category: 'PRODUCT', salesUnitPrice: '10.00' } })).createProduct.id);
  }
  const journal = (await gql(`{ journalTypes(where: { type: { eq: SALES_INVOICE } }, first: 1) { nodes { id code } } }`)).journalTypes.nodes[0];
  if (!journal) throw new Error('the organisation has no SALES_INVOICE journal');
  return { customer, products, journal };
}

interface Phase {
  durationMs: number;
  cycles: number;
  errors: number;
  errorSample?: string;
  perSecond: number;
  latencyMs: Record<string, ReturnType<typeof latencySummary>>;
  cpuPercent: CpuPercent;
}

/** Runs `cycle` in `clients` loops for `durationMs`; each cycle reports its steps' latencies. */
async function phase(clients: number, durationMs: number, postmasterPid: number | undefined, cycle: () => Promise<Record<string, number>>): Promise<Phase> {
  const samples: Record<string, number[]> = {};
  let cycles = 0;
  let errors = 0;
  let errorSample: string | undefined;
  const meter = cpuMeter(postmasterPid);
  const start = performance.now();
  const deadline = start + durationMs;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < deadline && cycles + errors < MAX_REQUESTS_PER_PHASE) {
      try {
        for (const [step, ms] of Object.entries(await cycle())) (samples[step] ??= []).push(ms);
        cycles++;
      } catch (error) {
        errors++;
        errorSample ??= String(error);
      }
    }
  }));
  const elapsed = performance.now() - start;
  return {
    durationMs: Math.round(elapsed), cycles, errors, ...(errorSample && { errorSample }),
    perSecond: Math.round((cycles / elapsed) * 1000 * 10) / 10,
    latencyMs: Object.fromEntries(Object.entries(samples).map(([step, values]) => [step, latencySummary(values)])),
    cpuPercent: meter(),
  };
}

const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
};

export async function benchSales(adminUrl: string, options: SalesBenchOptions): Promise<object> {
  const durationMs = options.durationMs ?? 10_000;
  const clients = options.clients ?? 8;
  const log = options.log ?? ((line: string) => console.error(line));
  const { startedAt, server, postmasterPid, url } = await benchTarget(adminUrl, options.freshDatabase);
  const bench = await startBenchService(url, 1, { listen: true });
  try {
    const gql = client(bench);
    const { customer, products, journal } = await setUp(gql);
    const year = new Date().getUTCFullYear();
    const documentDate = `${year}-03-15`;

    // The entry a 10-line invoice of 10 x 10.00 at 21 % posts: 1,210.00 receivable, 1,000.00 sales, 210.00 VAT.
    const entry = {
      date: documentDate, journalTypeCode: journal.code, documentNumber: 'F-BENCH',
      accountingEntryLines: [{ subAccountCode: '4300000', debitAmount: '1210.00' }, { subAccountCode: '7000000', creditAmount: '1000.00' }, { subAccountCode: '4770000', creditAmount: '210.00' }],
    };
    const entryMutation = `mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id number } }`;
    log(`  entry: createAccountingEntryUsingCodes, ${clients} clients, ${durationMs} ms ...`);
    const entryPhase = await phase(clients, durationMs, postmasterPid, async () => ({ entry: (await timed(() => gql(entryMutation, { v: entry })))[1] }));

    const invoice = { customerId: customer, documentDate, lines: products.map((productId) => ({ productId, totalQuantity: '1' })) };
    log(`  cycle: createSalesInvoice + closeSalesInvoice + postSalesInvoice, ${clients} clients, ${durationMs} ms ...`);
    const cyclePhase = await phase(clients, durationMs, postmasterPid, async () => {
      const [created, create] = await timed(() => gql(`mutation($v: SalesInvoiceCreateGLDtoInput!) { createSalesInvoice(input: $v) { id } }`, { v: invoice }));
      const salesInvoiceId = created.createSalesInvoice.id;
      const [, close] = await timed(() => gql(`mutation($v: CloseSalesInvoiceGLDtoInput!) { closeSalesInvoice(input: $v) { id operationalNumber } }`, { v: { salesInvoiceId } }));
      const [, post] = await timed(() => gql(`mutation($v: PostSalesInvoiceGLDtoInput!) { postSalesInvoice(input: $v) { accountingEntryId accountingEntryNumber } }`, { v: { salesInvoiceId, journalTypeId: journal.id, accountingEntryDescription: 'Bench' } }));
      return { create, close, post, cycle: create + close + post };
    });

    // Numbers of the closed invoices: 1..n of the series, each once; every posted invoice has its entry.
    const { rows } = await bench.pool.query<{ operational_number: string; status: string; entry: string | null }>(
      `SELECT operational_number, status, accounting_entry_id AS entry FROM sales_invoices WHERE organisation_id = $1 AND operational_number IS NOT NULL`,
      [bench.organisations[0].organisationId],
    );
    const sequences = rows.map((r) => Number(r.operational_number.slice(-6))).sort((a, b) => a - b);
    const gapFree = sequences.every((n, i) => n === i + 1);
    const posted = rows.filter((r) => r.status === 'Posted' && r.entry !== null).length;
    const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : null);
    const postOverEntry = ratio(cyclePhase.latencyMs.post?.p50 ?? 0, entryPhase.latencyMs.entry?.p50 ?? 0);
    const summary = {
      invoicesPerSecond: cyclePhase.perSecond,
      entriesPerSecond: entryPhase.perSecond,
      invoicesOverEntries: ratio(cyclePhase.perSecond, entryPhase.perSecond),
      postP50OverEntryP50: postOverEntry,
      postBarMet: postOverEntry !== null && postOverEntry <= 2,
      closedInvoices: rows.length,
      postedInvoices: posted,
      numbersGapFree: gapFree,
    };
    log(`  ${JSON.stringify(summary)}`);
    return { ...resultHeader('sales', startedAt, server), config: { clients, durationMs, linesPerInvoice: LINES_PER_INVOICE }, entry: entryPhase, cycle: cyclePhase, summary };
  } finally {
    await bench.close();
  }
}

export function reportSales(result: object): string {
  const r = result as { config: { clients: number; linesPerInvoice: number }; entry: Phase; cycle: Phase; summary: Record<string, unknown> };
  const rows = [
    ['entry', 'entry', r.entry.perSecond, r.entry.latencyMs.entry?.p50, r.entry.latencyMs.entry?.p99, r.entry.errors],
    ...['create', 'close', 'post', 'cycle'].map((step) => ['cycle', step, step === 'cycle' ? r.cycle.perSecond : '', r.cycle.latencyMs[step]?.p50, r.cycle.latencyMs[step]?.p99, step === 'cycle' ? r.cycle.errors : '']),
  ] as (string | number)[][];
  return [
    `${r.config.clients} clients, invoices of ${r.config.linesPerInvoice} lines`,
    table(['phase', 'step', 'per s', 'p50 ms', 'p99 ms', 'errors'], rows, 2),
    JSON.stringify(r.summary),
  ].join('\n');
}
