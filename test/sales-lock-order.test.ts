/**
 * Lock order between the sales commands: a posting (organisation's shared lock, then Sales, then a Ledger) never
 * waits on a stream under Sales that a sales document command (Catalog, Parties, SharedSettings and Sales) holds
 * while it waits for Sales. The parties a posting names are read before the Sales stream's lock.
 */
import t from 'tap';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, commands } = api.service as any;
const ctx = { organisationId: api.organisationId };
const year = new Date().getUTCFullYear();
const date = `${year}-03-02`;
const journal = async (code: string) => (await commands.organisation(api.organisationId)).journalTypeIdByCode.get(code) as string;
const within = <T>(ms: number, p: Promise<T>) => Promise.race([p, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms).unref())]);

t.test('posting an invoice while another sales document is created does not deadlock', async (t) => {
  const customer = await mutate.createCustomer(ctx, { socialName: 'Bloqueo SL' });
  const product = await mutate.createProduct(ctx, { code: 'D1', name: 'Cerrojo', category: 'PRODUCT', salesUnitPrice: '10.00' });
  const ven = await journal('VEN');
  const invoiceId = (await mutate.createSalesInvoice(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: product.id, totalQuantity: '1' }] })).id;
  await mutate.closeSalesInvoice(ctx, { salesInvoiceId: invoiceId });
  // Before the fix the posting held Sales, then Ledger, then loaded Parties while the quote held Parties and waited for Sales.
  const posting = mutate.postSalesInvoice(ctx, { salesInvoiceId: invoiceId, journalTypeId: ven });
  // The quote starts once the posting holds the Sales stream (its pre-reads of Catalog and Parties are done).
  const locks: Map<string, unknown> = commands.aggregates.locks;
  for (let i = 0; i < 2000 && !locks.has(`Sales-${api.organisationId}`); i++) await new Promise((r) => setImmediate(r));
  const both = Promise.allSettled([
    posting,
    mutate.createSalesQuote(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: product.id, totalQuantity: '1' }] }),
  ]);
  const outcome = await within(15_000, both);
  t.not(outcome, 'timeout', 'both commands finish within 15 s');
  if (outcome !== 'timeout') t.same(outcome.map((o) => o.status), ['fulfilled', 'fulfilled']);
});

t.test('deleting a product while a quote naming it is made and an invoice posted does not deadlock', async (t) => {
  const customer = await mutate.createCustomer(ctx, { socialName: 'Cerrojo Triple SL' });
  const kept = await mutate.createProduct(ctx, { code: 'D2', name: 'Pestillo', category: 'PRODUCT', salesUnitPrice: '10.00' });
  const ven = await journal('VEN');
  for (let i = 0; i < 5; i++) {
    const doomed = await mutate.createProduct(ctx, { code: `D3-${i}`, name: 'Candado', category: 'PRODUCT', salesUnitPrice: '10.00' });
    const invoiceId = (await mutate.createSalesInvoice(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: kept.id, totalQuantity: '1' }] })).id;
    await mutate.closeSalesInvoice(ctx, { salesInvoiceId: invoiceId });
    // The deletion holds the organisation's lock alone, then Catalog and Sales; the quote shares it, then holds
    // Catalog, Parties, SharedSettings and Sales; the posting shares it, then holds Sales and a Ledger.
    const all = Promise.allSettled([
      mutate.postSalesInvoice(ctx, { salesInvoiceId: invoiceId, journalTypeId: ven }),
      mutate.deleteProduct(ctx, { id: doomed.id }),
      mutate.createSalesQuote(ctx, { customerId: customer.id, documentDate: date, lines: [{ productId: doomed.id, totalQuantity: '1' }] }),
    ]);
    const outcome = await within(15_000, all);
    t.not(outcome, 'timeout', `round ${i}: the three commands finish within 15 s`);
    if (outcome === 'timeout') return;
    const [posted, deleted, quoted] = outcome;
    t.equal(posted.status, 'fulfilled', `round ${i}: the invoice is posted`);
    t.ok((deleted.status === 'fulfilled') !== (quoted.status === 'fulfilled'), `round ${i}: either the product is deleted or the quote names it`);
  }
});
