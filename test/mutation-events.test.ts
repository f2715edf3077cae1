/**
 * Every mutation of every area, run over GraphQL against the real service, produces its queue message
 * (object, action and the record's key) and its webhook delivery; the table holds one valid input per
 * mutation and fails when a module gains a mutation it lacks. And a party's personal data leaves the
 * service only while its key exists: a customer queued, then erased, is listed again and redelivered
 * with no personal value and no sealed envelope, and the queue table never holds it in clear.
 */
import t from 'tap';
import { createTrigger } from '../eventqueue/triggers.ts';
import { redriveTrigger } from '../eventqueue/webhooks/redrive.ts';
import { MUTATIONS } from '../modules/index.ts';
import { receiver, until, type Answer } from './helpers/receiver.ts';
import { runningService } from './helpers/service.ts';

const LEASE = 1;
const api = await runningService(t, { webhookAllowLoopback: true, eventLeaseSeconds: LEASE });
const { db, store, fanout, webhooks } = api.service;
db.pool.on('error', () => {}); // the helper's DROP DATABASE ... WITH (FORCE) can hit pooled connections still closing
webhooks.configure({ pollIntervalMs: 50, backoffMs: [100], jitter: 0, maxPauseMs: 100 });
const organisationId = api.organisationId;
const year = new Date().getUTCFullYear();

const QUEUE = `${api.base}/ia/api/v1/services/delivery/event`;
const auth = { Authorization: `Bearer ${api.token}` };
const decode = (b64: string) => JSON.parse(Buffer.from(b64, 'base64').toString());
const list = async () => (await (await fetch(`${QUEUE}/list?size=1000`, { headers: auth })).json())['ia::result'] as { ackId: string | null; events: any[] };
const ack = (ackId: string) => fetch(`${QUEUE}/ack`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ ackId }) });
const caughtUp = async () => t.ok(await fanout.waitFor(await store.committedHead!()), 'the fan-out caught up');

/** Runs a mutation and answers the id it names (`select`: the result field that names it, `id` unless told). */
async function run(name: string, variables: object, select = 'id', headers?: Record<string, string>): Promise<string> {
  const spec = MUTATIONS.find((m) => m.name === name)!;
  const r = await api.gql(`mutation($v: ${spec.input}!) { ${name}(input: $v) { ${select} } }`, { v: variables }, headers);
  if (r.errors) throw new Error(`${name}: ${JSON.stringify(r.errors)}`);
  return r.data[name][select];
}

await createTrigger(db.pool, { organisationId, type: 'event-queue', clientId: api.clientId });
const everything = await receiver(t);
await createTrigger(db.pool, { organisationId, type: 'http-post', url: everything.url }, { allowLoopback: true });

const exercise = (await api.gql(`{ accountingExercises { nodes { id startDate periods { id month } } } }`)).data.accountingExercises.nodes
  .find((e: any) => e.startDate.startsWith(String(year)));
const period = exercise.periods.find((p: any) => p.month === 'NOVEMBER').id;
const gen = (await api.gql(`{ journalTypes(where: { code: { eq: "GEN" } }) { nodes { id } } }`)).data.journalTypes.nodes[0].id;
const accounts = (await api.gql(`{ accountingAccounts(where: { code: { in: ["1000000", "5720000"] } }, order: [{ code: ASC }]) { nodes { id } } }`)).data.accountingAccounts.nodes;

// The US organisation the `us` rows run in, with its own queue.
const { commands, identity } = api.service as any;
const usOrg = (await commands.createOrganisation({}, { name: 'Acme Queue Inc', country: 'US' })).id as string;
await identity.createUser(usOrg, 'queue@acme.example.com', 'a-long-password-here', 'admin');
const usAuth = { Authorization: `Bearer ${(await identity.issueToken(usOrg, 'queue@acme.example.com', api.clientId, 'full_access')).access_token}`, 'X-Site': usOrg };
await createTrigger(db.pool, { organisationId: usOrg, type: 'event-queue', clientId: api.clientId });
const usMessages = async () => ((await (await fetch(`${QUEUE}/list?size=1000`, { headers: usAuth })).json())['ia::result'].events as any[])
  .map((e) => ({ eventId: e.eventId, context: decode(e.clientContext), payload: decode(e.payload) }));

/** Each mutation's result id, by mutation name, for the steps after it. */
const ids: Record<string, string> = {};
const lines = { date: `${year}-04-04`, journalTypeCode: 'GEN', accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '1' }, { subAccountCode: '1000000', creditAmount: '1' }] };

/** One valid input per mutation (run in this order) and the queue message it must produce. */
/**
 * One row per mutation, run in this order: its input (read when the row runs), the queue message it makes, the
 * result field that names what it acted on (`id` unless told) and, when the message is keyed otherwise, its key.
 */
const TABLE: Record<string, { input: () => object | Promise<object>; message: [object: string, action: string]; select?: string; key?: () => string; us?: true }> = {
  // A US organisation's own sales tax rates (an ES organisation's taxes are the country's): run as `us`.
  createTax: { input: () => ({ code: 'WA', name: 'Washington', jurisdiction: 'US-WA', percentage: '10.25' }), message: ['tax', 'after.create'], us: true },
  updateTax: { input: () => ({ id: ids.createTax, name: 'Washington State' }), message: ['tax', 'after.update'], us: true },
  deleteTax: { input: () => ({ id: ids.createTax }), message: ['tax', 'after.delete'], us: true },
  createAccountingAccount: { input: () => ({ code: '6290031', name: 'Servicios' }), message: ['accountingAccount', 'after.create'] },
  updateAccountingAccount: { input: () => ({ id: ids.createAccountingAccount, name: 'Servicios varios' }), message: ['accountingAccount', 'after.update'] },
  deleteAccountingAccount: { input: () => ({ id: ids.createAccountingAccount }), message: ['accountingAccount', 'after.delete'] },
  // The year before the books' own: closing it opens this year's exercise (the year end needs the next one).
  createAccountingExercise: { input: () => ({ startDate: `${year - 1}-01-01`, endDate: `${year - 1}-12-31` }), message: ['accountingExercise', 'after.create'] },
  closeAccountingExercise: { input: () => ({ id: ids.createAccountingExercise }), message: ['accountingExercise', 'after.close'] },
  reopenAccountingExercise: { input: () => ({ id: ids.createAccountingExercise }), message: ['accountingExercise', 'after.reopen'] },
  updateAccountingLockDates: { input: () => ({ lockDate: `${year - 1}-06-30` }), message: ['accountingLockDates', 'after.update'] },
  closeAccountingPeriod: { input: () => ({ id: period }), message: ['accountingPeriod', 'after.close'] },
  reopenAccountingPeriod: { input: () => ({ id: period }), message: ['accountingPeriod', 'after.reopen'] },
  createAccountingEntryUsingCodes: { input: () => lines, message: ['accountingEntry', 'after.create'] },
  createAccountingEntryUsingIds: {
    input: () => ({ date: `${year}-04-05`, journalTypeId: gen, accountingEntryLines: [{ subAccountId: accounts[1].id, debitAmount: '2' }, { subAccountId: accounts[0].id, creditAmount: '2' }] }),
    message: ['accountingEntry', 'after.create'],
  },
  deleteAccountingEntry: { input: () => ({ id: ids.createAccountingEntryUsingCodes }), message: ['accountingEntry', 'after.delete'] },
  createJournalType: { input: () => ({ code: 'QX', name: 'Queue', type: 'GENERAL' }), message: ['journalType', 'after.create'] },
  updateJournalType: { input: () => ({ id: ids.createJournalType, name: 'Queued' }), message: ['journalType', 'after.update'] },
  deleteJournalType: { input: () => ({ id: ids.createJournalType }), message: ['journalType', 'after.delete'] },
  createBusinessArea: { input: () => ({ name: 'Retail' }), message: ['businessArea', 'after.create'] },
  deleteBusinessArea: { input: () => ({ id: ids.createBusinessArea }), message: ['businessArea', 'after.delete'] },
  createJobArea: { input: () => ({ name: 'Purchasing' }), message: ['jobArea', 'after.create'] },
  createPaymentMean: { input: () => ({ description: 'Caja' }), message: ['paymentMean', 'after.create'] },
  deletePaymentMean: { input: () => ({ id: ids.createPaymentMean }), message: ['paymentMean', 'after.delete'] },
  createPaymentTerm: { input: () => ({ name: 'Al contado', lines: [{ condition: 'DAY_OF_PAYMENT', type: 'PERCENTAGE', value: 100 }] }), message: ['paymentTerm', 'after.create'] },
  deletePaymentTerm: { input: () => ({ id: ids.createPaymentTerm }), message: ['paymentTerm', 'after.delete'] },
  createProduct: { input: () => ({ code: 'P1', name: 'Tornillo', category: 'PRODUCT', salesUnitPrice: 45 }), message: ['product', 'after.create'] },
  updateProduct: { input: () => ({ id: ids.createProduct, name: 'Tornillo 4mm', salesUnitPrice: '0.05' }), message: ['product', 'after.update'] },
  createSalesTariff: { input: () => ({ code: 'T1', name: 'Mayoristas', lines: [{ productId: ids.createProduct, indicatorValue: '0.04' }] }), message: ['salesTariff', 'after.create'] },
  updateSalesTariff: { input: () => ({ id: ids.createSalesTariff, name: 'Mayoristas 2' }), message: ['salesTariff', 'after.update'] },
  deleteSalesTariff: { input: () => ({ id: ids.createSalesTariff }), message: ['salesTariff', 'after.delete'] },
  createSalesDiscount: { input: () => ({ code: 'D1', name: 'Tornillería', lines: [{ productId: ids.createProduct, firstDiscount: '5' }] }), message: ['salesDiscount', 'after.create'] },
  updateSalesDiscount: { input: () => ({ id: ids.createSalesDiscount, name: 'Tornillería 2' }), message: ['salesDiscount', 'after.update'] },
  deleteSalesDiscount: { input: () => ({ id: ids.createSalesDiscount }), message: ['salesDiscount', 'after.delete'] },
  createPaymentMethod: { input: () => ({ referenceName: 'Banco Q', type: 'BANK_ACCOUNT', journalTypeId: gen, subAccountId: accounts[1].id }), message: ['paymentMethod', 'after.create'] },
  updatePaymentMethod: { input: () => ({ id: ids.createPaymentMethod, disabled: true }), message: ['paymentMethod', 'after.update'] },
  deletePaymentMethod: { input: () => ({ id: ids.createPaymentMethod }), message: ['paymentMethod', 'after.delete'] },
  deleteProduct: { input: () => ({ id: ids.createProduct }), message: ['product', 'after.delete'] },
  createCustomer: { input: () => ({ socialName: 'Cliente Cola S.L.' }), message: ['customer', 'after.create'] },
  updateCustomer: { input: () => ({ id: ids.createCustomer, tradeName: 'Cola' }), message: ['customer', 'after.update'] },
  ...salesDocumentRows(),
  applyGdprCustomer: { input: () => ({ id: ids.createCustomer }), message: ['customer', 'after.applyGdpr'] },
  deleteCustomer: { input: () => ({ id: ids.createCustomer }), message: ['customer', 'after.delete'] },
  createSupplier: { input: () => ({ socialName: 'Proveedor Cola S.L.' }), message: ['supplier', 'after.create'] },
  updateSupplier: { input: () => ({ id: ids.createSupplier, tradeName: 'Cola' }), message: ['supplier', 'after.update'] },
  deleteSupplier: { input: () => ({ id: ids.createSupplier }), message: ['supplier', 'after.delete'] },
  applyGdprSupplier: { input: () => ({ id: ids.createSupplier }), message: ['supplier', 'after.applyGdpr'] },
  createEmployee: { input: () => ({ name: 'Empleada Cola' }), message: ['employee', 'after.create'] },
  updateEmployee: { input: () => ({ id: ids.createEmployee, shortName: 'Cola' }), message: ['employee', 'after.update'] },
  applyGdprEmployee: { input: () => ({ id: ids.createEmployee }), message: ['employee', 'after.applyGdpr'] },
  deleteEmployee: { input: () => ({ id: ids.createEmployee }), message: ['employee', 'after.delete'] },
};

/**
 * Each sales document kind created and updated; an order linked to its quote; the invoice closed and credited; the
 * (pending) credit note, then the other documents deleted, followers first.
 */
function salesDocumentRows(): typeof TABLE {
  const line = { productCode: 'SRV1', productName: 'Servicio', totalQuantity: '2', unitPrice: '10.00' };
  // A customer of its own: the posted invoice keeps it (a party with entries cannot be deleted, the table deletes createCustomer's).
  const document = async () => {
    ids.salesCustomer ??= (await api.gql(`mutation { createCustomer(input: { socialName: "Cliente Ventas S.L." }) { id } }`)).data.createCustomer.id;
    return { customerId: ids.salesCustomer, documentDate: `${year}-04-06`, lines: [line] };
  };
  const kinds = [['Quote', 'salesQuote'], ['Order', 'salesOrder'], ['DeliveryNote', 'salesDeliveryNote'], ['Invoice', 'salesInvoice']] as const;
  const rows: typeof TABLE = {};
  for (const [kind, object] of kinds) {
    rows[`createSales${kind}`] = { input: document, message: [object, 'after.create'] };
    rows[`updateSales${kind}`] = { input: () => ({ id: ids[`createSales${kind}`], comments: 'Queued' }), message: [object, 'after.update'] };
  }
  rows.linkRelatedSalesDocument = { input: () => ({ documentId: ids.createSalesOrder, originId: ids.createSalesQuote }), select: 'documentId', message: ['salesOrder', 'after.link'] };
  rows.closeSalesInvoice = { input: () => ({ salesInvoiceId: ids.createSalesInvoice }), message: ['salesInvoice', 'after.close'] };
  rows.generateCreditNote = { input: () => ({ id: ids.createSalesInvoice }), message: ['salesCreditNote', 'after.create'] };
  // A deleted credit note is queued under its kind, salesInvoice (the deletion event names the kind only).
  rows.deleteSalesInvoice = { input: () => ({ id: ids.generateCreditNote }), message: ['salesInvoice', 'after.delete'] };
  rows.postSalesInvoice = {
    input: async () => {
      const journal = (await api.gql(`{ journalTypes(where: { type: { eq: SALES_INVOICE } }, first: 1) { nodes { id } } }`)).data.journalTypes.nodes[0].id;
      return { salesInvoiceId: ids.createSalesInvoice, journalTypeId: journal, accountingEntryDescription: 'Queued' };
    },
    select: 'accountingEntryId', key: () => ids.createSalesInvoice, message: ['salesInvoice', 'after.post'],
  };
  rows.salesOpenItemSettlement = {
    input: async () => {
      const item = (await api.gql(`query($id: UUID!) { salesInvoiceOpenItems(where: { salesInvoice: { id: { eq: $id } } }) { nodes { id amount } } }`, { id: ids.createSalesInvoice })).data.salesInvoiceOpenItems.nodes[0];
      const method = await api.gql(`mutation($v: PaymentMethodCreateGLDtoInput!) { createPaymentMethod(input: $v) { id } }`, { v: { referenceName: 'Banco Cobros', type: 'BANK_ACCOUNT', journalTypeId: gen, subAccountId: accounts[1].id } });
      return { entryDate: `${year}-04-07`, paymentMethodId: method.data.createPaymentMethod.id, thirdPartyId: ids.salesCustomer, salesOpenItemLinkagePaidAmounts: [{ openItemId: item.id, paidAmount: item.amount }] };
    },
    select: 'accountingEntryId', message: ['salesOpenItemSettlement', 'after.create'],
  };
  for (const [kind, object] of kinds.slice(0, 3).reverse()) rows[`deleteSales${kind}`] = { input: () => ({ id: ids[`createSales${kind}`] }), message: [object, 'after.delete'] };
  return rows;
}

t.test('the table holds every mutation of every module', async (t) => {
  t.same(MUTATIONS.map((m) => m.name).filter((name) => !TABLE[name]).sort(), [], 'no mutation without its row');
  t.same(Object.keys(TABLE).filter((name) => !MUTATIONS.some((m) => m.name === name)), [], 'no row for a mutation that is gone');
});

t.test('every mutation produces its queue message and its webhook delivery', async (t) => {
  const expected = [];
  for (const [name, step] of Object.entries(TABLE)) {
    ids[name] = await run(name, await step.input(), step.select, step.us && usAuth);
    expected.push({ name, object: step.message[0], event: step.message[1], key: step.key?.() ?? ids[name], us: step.us });
  }
  await caughtUp();
  const batch = await list();
  const messages = batch.events.map((e) => ({ eventId: e.eventId, context: decode(e.clientContext), payload: decode(e.payload) }));
  const ofUs = await usMessages();
  for (const e of expected) {
    const found = (e.us ? ofUs : messages).find((m) => m.context.object === e.object && m.context.event === e.event && m.context.key === e.key);
    if (!t.ok(found, `${e.name}: queued as ${e.object}/${e.event} with key ${e.key}`)) continue;
    t.equal(found!.payload.id, found!.eventId, `${e.name}: the payload is the event's`);
    t.notOk('personal' in found!.payload.data, `${e.name}: no sealed part in the public payload`);
  }
  await until('every message delivered by webhook', () => messages.every((m) => everything.delivered().some((r) => r.headers['webhook-id'] === m.eventId)));
  for (const m of messages) {
    const delivery = everything.delivered().find((r) => r.headers['webhook-id'] === m.eventId)!;
    t.equal(delivery.headers['webhook-event'], `${m.context.object}/${m.context.event}`, `${m.payload.type}: delivered as ${m.context.object}/${m.context.event}`);
  }
  await ack(batch.ackId!);
});

const SECRETS = ['Zacarías Ordóñez', 'Calle del Secreto 42', 'zacarias.ordonez@example.org', '12345678Z'];
const holdsSecret = (text: string) => SECRETS.filter((s) => text.includes(s));

t.test('a customer queued, then erased: listed again and redelivered with no personal value', async (t) => {
  let answer: Answer = { status: 410 }; // first refused: the trigger is disabled and its event stays queued
  const hook = await receiver(t, () => answer);
  const trigger = await createTrigger(db.pool, { organisationId, type: 'http-post', url: hook.url, events: ['customer/after.create'] }, { allowLoopback: true });
  const id = await run('createCustomer', {
    socialName: SECRETS[0], vatNumber: SECRETS[3], countryAcronym: 'ES',
    addresses: [{ firstLine: SECRETS[1], city: 'Toledo', countryIsoCodeAlpha2: 'ES', isMainAddress: true }],
    contacts: [{ name: 'Zacarías', isDefault: true, emails: [{ emailAddress: SECRETS[2] }] }],
  });
  await caughtUp();
  const before = (await list()).events.find((e) => decode(e.clientContext).key === id);
  const personal = decode(before.payload).data;
  t.equal(personal.fields.socialName, SECRETS[0], 'while its key exists the queue shows the personal fields');
  t.equal(personal.addresses[0].firstLine, SECRETS[1]);
  t.equal(personal.contacts[0].emails[0].emailAddress, SECRETS[2]);
  await until('the first (refused) delivery', () => hook.requests.length > 0);
  t.same(holdsSecret(hook.requests[0].body).sort(), [...SECRETS].sort(), 'and so does a delivery');
  const stored = await db.pool.query(`SELECT payload::text AS p FROM event_queue WHERE record_key = $1`, [id]);
  t.ok(stored.rows.length > 0);
  for (const row of stored.rows) t.same(holdsSecret(row.p), [], 'the queue table holds it sealed, never in clear');

  await run('applyGdprCustomer', { id });
  await caughtUp();
  await new Promise((r) => setTimeout(r, LEASE * 1000 + 200)); // the listed batch's lease lapses
  const after = (await list()).events.find((e) => e.eventId === before.eventId);
  t.ok(after, 'the unacknowledged event is listed again');
  const text = Buffer.from(after.payload, 'base64').toString();
  t.same(holdsSecret(text), [], 'with no personal value');
  t.notMatch(text, /A256GCM/, 'and no sealed envelope');
  t.equal(decode(after.payload).personalDataErased, true, 'saying it was erased');

  answer = { status: 204 };
  const seen = hook.requests.length;
  t.ok(await redriveTrigger(db.pool, organisationId, trigger.id));
  webhooks.wake(trigger.id);
  await until('the redelivery', () => hook.delivered().length > 0);
  const redelivered = hook.requests.slice(seen);
  t.ok(redelivered.length > 0);
  for (const r of redelivered) {
    t.same(holdsSecret(r.body), [], 'the redelivery carries no personal value');
    t.notMatch(r.body, /A256GCM/, 'and no sealed envelope');
  }
});
