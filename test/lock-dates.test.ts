/**
 * Lock dates (Odoo's) through GraphQL on the real service: updateAccountingLockDates (administrators only) sets them
 * on the organisation; postings, deletions and sales postings (an invoice, a settlement) dated on or before either
 * are refused and append nothing; the lock date moves either way and lifts; the hard lock date only moves forward,
 * is never lifted, and nothing at or behind it reopens (an exercise, a period). The organisation's accounting
 * set-up reads both.
 */
import t from 'tap';
import { AccountingErrors } from '../domain/accounting/errors.ts';
import { graphqlAnswers } from './helpers/graphql-answers.ts';
import { runningService } from './helpers/service.ts';
import { clientOf, type Client } from './helpers/organisation-client.ts';

const api = await runningService(t);
const { commands, identity } = api.service;
const year = new Date().getUTCFullYear();

/** The checks of test/helpers/graphql-answers.ts as one organisation's client makes them. */
const ok = (c: Client, query: string, variables?: object) => graphqlAnswers(api, c.headers).ok(query, variables);
const refused = (t: any, c: Client, query: string, variables: object, code: string) => graphqlAnswers(api, c.headers).refused(t, code, query, variables, code);

const LOCK = `mutation($v: AccountingLockDatesUpdateGLDtoInput!) { updateAccountingLockDates(input: $v) { id lockDate hardLockDate } }`;
const POST = `mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id } }`;
const DELETE = `mutation($v: AccountingEntryDeleteGLDtoInput!) { deleteAccountingEntry(input: $v) { id } }`;
const entry = (date: string) => ({ v: { date, journalTypeCode: 'GEN', accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '10.00' }, { subAccountCode: '7000000', creditAmount: '10.00' }] } });
const setup = async (c: Client) => (await ok(c, `query($id: ID!) { organizationAccountingSetupByOrgId(id: $id) { lockDate hardLockDate defaultProfitAccountCFId } }`, { id: c.orgId })).organizationAccountingSetupByOrgId;

const es = await clientOf(api, 'ES', 'Cerrojo SL', 'cerrojo@example.es');

t.test('the lock date refuses postings and deletions on or before it; it moves back and lifts', async (t) => {
  const early = (await ok(es, POST, entry(`${year}-02-10`))).createAccountingEntryUsingCodes.id;
  t.same((await ok(es, LOCK, { v: { lockDate: `${year}-03-31` } })).updateAccountingLockDates, { id: es.orgId, lockDate: `${year}-03-31`, hardLockDate: null });
  t.match(await setup(es), { lockDate: `${year}-03-31`, hardLockDate: null }, 'the accounting set-up reads the lock date');
  const error = await refused(t, es, POST, entry(`${year}-03-31`), AccountingErrors.dateLocked);
  t.match(error?.message, `${year}-03-31`, 'the message names the lock date');
  await refused(t, es, POST, entry(`${year}-01-01`), AccountingErrors.dateLocked);
  await refused(t, es, DELETE, { v: { id: early } }, AccountingErrors.dateLocked);
  await ok(es, POST, entry(`${year}-04-01`));

  await ok(es, LOCK, { v: { lockDate: `${year}-01-31` } });
  await ok(es, DELETE, { v: { id: early } });
  await ok(es, LOCK, { v: { lockDate: null } });
  t.match(await setup(es), { lockDate: null });
  await ok(es, POST, entry(`${year}-01-15`));
});

t.test('sales postings go through the same decider: an invoice and a settlement dated on or before the lock are refused', async (t) => {
  const customer = (await ok(es, `mutation($v: CustomerCreateGLDtoInput!) { createCustomer(input: $v) { id } }`, { v: { socialName: 'Cliente Bloqueado' } })).createCustomer.id;
  const product = (await ok(es, `mutation($v: ProductCreateGLDtoInput!) { createProduct(input: $v) { id } }`, { v: { code: 'LCK1', name: 'Producto', category: 'PRODUCT', salesUnitPrice: '100.00' } })).createProduct.id;
  const org = await commands.organisation(es.orgId);
  const journalTypeId = org.journalTypeIdByCode.get('VEN');
  const invoice = async (documentDate: string) => {
    const id = (await ok(es, `mutation($v: SalesInvoiceCreateGLDtoInput!) { createSalesInvoice(input: $v) { id } }`, {
      v: { customerId: customer, documentDate, lines: [{ productId: product, totalQuantity: '1' }] },
    })).createSalesInvoice.id;
    await ok(es, `mutation($v: CloseSalesInvoiceGLDtoInput!) { closeSalesInvoice(input: $v) { id } }`, { v: { salesInvoiceId: id } });
    return id;
  };
  const POST_INVOICE = `mutation($v: PostSalesInvoiceGLDtoInput!) { postSalesInvoice(input: $v) { accountingEntryId } }`;
  const posted = await invoice(`${year}-05-02`);
  await ok(es, POST_INVOICE, { v: { salesInvoiceId: posted, journalTypeId } });
  const locked = await invoice(`${year}-05-03`);

  await ok(es, LOCK, { v: { lockDate: `${year}-05-31` } });
  await refused(t, es, POST_INVOICE, { v: { salesInvoiceId: locked, journalTypeId } }, AccountingErrors.dateLocked);
  const method = (await ok(es, `mutation($v: PaymentMethodCreateGLDtoInput!) { createPaymentMethod(input: $v) { id } }`, {
    v: { referenceName: 'Banco Cerrojo', type: 'BANK_ACCOUNT', journalTypeId: org.journalTypeIdByCode.get('BAN'), subAccountId: org.accountIdByCode.get('5720000') },
  })).createPaymentMethod.id;
  const [item] = (await ok(es, `query($id: UUID!) { salesInvoiceOpenItems(where: { salesInvoiceId: { eq: $id } }) { nodes { id } } }`, { id: posted })).salesInvoiceOpenItems.nodes;
  const settle = (entryDate: string) => ({ v: { entryDate, paymentMethodId: method, thirdPartyId: customer, description: 'Cobro', salesOpenItemLinkagePaidAmounts: [{ openItemId: item.id, paidAmount: '10.00' }] } });
  const SETTLE = `mutation($v: SalesOpenItemSettlementGLDtoInput!) { salesOpenItemSettlement(input: $v) { accountingEntryId } }`;
  await refused(t, es, SETTLE, settle(`${year}-05-20`), AccountingErrors.dateLocked);
  await ok(es, SETTLE, settle(`${year}-06-01`));
  await ok(es, LOCK, { v: { lockDate: null } });
});

t.test('the hard lock date only moves forward, is never lifted, and nothing at or behind it reopens', async (t) => {
  const fr = await clientOf(api, 'FR', 'Verrou SARL', 'verrou@example.fr');
  const last = year - 1;
  // Last year's exercise: every date the hard lock takes here is in the past, whatever day the suite runs
  // (a hard lock later than today is refused); this year's exercise, made with the organisation, is the next one.
  const { createAccountingExercise: { id: exerciseId } } = await ok(fr, `mutation($v: AccountingExerciseCreateGLDtoInput!) { createAccountingExercise(input: $v) { id } }`, { v: { startDate: `${last}-01-01`, endDate: `${last}-12-31` } });
  const org = await commands.organisation(fr.orgId);
  const exercise = org.exercises.get(exerciseId)!;
  const january = exercise.periods[0].periodId;
  await ok(fr, `mutation($v: AccountingPeriodCloseGLDtoInput!) { closeAccountingPeriod(input: $v) { id } }`, { v: { id: january } });
  const frEntry = (date: string) => ({ v: { date, journalTypeCode: 'OD', accountingEntryLines: [{ subAccountCode: '512000', debitAmount: '10.00' }, { subAccountCode: '706000', creditAmount: '10.00' }] } });
  await ok(fr, POST, frEntry(`${last}-06-15`));

  t.same((await ok(fr, LOCK, { v: { hardLockDate: `${last}-02-28` } })).updateAccountingLockDates, { id: fr.orgId, lockDate: null, hardLockDate: `${last}-02-28` });
  await refused(t, fr, POST, frEntry(`${last}-02-28`), AccountingErrors.dateLocked);
  await refused(t, fr, LOCK, { v: { hardLockDate: `${last}-01-31` } }, AccountingErrors.hardLockDateBackwards);
  await refused(t, fr, LOCK, { v: { hardLockDate: null } }, AccountingErrors.hardLockDateBackwards);
  await refused(t, fr, `mutation($v: AccountingPeriodReopenGLDtoInput!) { reopenAccountingPeriod(input: $v) { id } }`, { v: { id: january } }, AccountingErrors.dateLocked);
  // The soft lock may be set and lifted around it; the hard one still holds.
  await ok(fr, LOCK, { v: { lockDate: `${last}-01-15` } });
  await ok(fr, LOCK, { v: { lockDate: null } });
  await refused(t, fr, POST, frEntry(`${last}-02-01`), AccountingErrors.dateLocked);
  t.match(await setup(fr), { lockDate: null, hardLockDate: `${last}-02-28`, defaultProfitAccountCFId: org.accountIdByCode.get('120000') });

  // Closing posts on the exercise's last day: refused while the lock date covers it, nothing appended.
  const CLOSE = `mutation($v: AccountingExerciseCloseGLDtoInput!) { closeAccountingExercise(input: $v) { id } }`;
  await ok(fr, LOCK, { v: { lockDate: `${last}-12-31` } });
  await refused(t, fr, CLOSE, { v: { id: exercise.id } }, AccountingErrors.dateLocked);
  await ok(fr, LOCK, { v: { lockDate: null } });
  // The exercise closes (its closing entries are dated after the hard lock) but, holding locked days, never reopens.
  await ok(fr, CLOSE, { v: { id: exercise.id } });
  await refused(t, fr, `mutation($v: AccountingExerciseReopenGLDtoInput!) { reopenAccountingExercise(input: $v) { id } }`, { v: { id: exercise.id } }, AccountingErrors.dateLocked);
  // Never later than today; up to today it covers the closed exercise (carried into the next one).
  await refused(t, fr, LOCK, { v: { hardLockDate: `${year + 1}-01-01` } }, AccountingErrors.hardLockDateInFuture);
  const today = new Date().toISOString().slice(0, 10);
  t.same((await ok(fr, LOCK, { v: { hardLockDate: today } })).updateAccountingLockDates.hardLockDate, today, 'moved forward');
});

t.test('a deletion that waited on the lock while a hard lock was set is decided with it', async (t) => {
  const de = await clientOf(api, 'ES', 'Espera SL', 'espera@example.es');
  const id = (await ok(de, POST, entry(`${year}-01-10`))).createAccountingEntryUsingCodes.id;
  const { OrganisationAggregate } = await import('../commands/accounting/aggregates.ts');
  const { decideOrganisation } = await import('../domain/accounting/organisation.ts');
  const mutate = api.service.mutate as Record<string, (ctx: object, input: object) => Promise<unknown>>;
  let deletion!: Promise<unknown>;
  await commands.locks.exclusive(de.orgId, async () => {
    deletion = mutate.deleteAccountingEntry({ organisationId: de.orgId }, { id });
    deletion.catch(() => undefined);
    // The deletion has looked at the organisation and waits on the lock when the hard lock is set under it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await commands.aggregates.execute(OrganisationAggregate, de.orgId, { organisationId: de.orgId }, (s) =>
      decideOrganisation({ type: 'SetAccountingLockDates', hardLockDate: `${year}-01-31`, now: new Date().toISOString() }, s));
  });
  await t.rejects(deletion, { code: AccountingErrors.dateLocked }, 'refused: the entry is behind the hard lock');
  const { LedgerAggregate } = await import('../commands/accounting/aggregates.ts');
  const [exercise] = [...(await commands.organisation(de.orgId)).exercises.values()];
  t.ok((await commands.aggregates.load(LedgerAggregate, exercise.id)).state.entries.has(id), 'the entry stands');
});

t.test('a hard lock date never leaves an exercise unclosable: not later than today, not over an exercise not carried forward', async (t) => {
  const gb = await clientOf(api, 'ES', 'Abierta SL', 'abierta@example.es');
  const [current] = [...(await commands.organisation(gb.orgId)).exercises.values()];
  const CREATE = `mutation($v: AccountingExerciseCreateGLDtoInput!) { createAccountingExercise(input: $v) { id } }`;
  const previous = (await ok(gb, CREATE, { v: { startDate: `${year - 1}-01-01`, endDate: `${year - 1}-12-31` } })).createAccountingExercise.id;
  await ok(gb, POST, entry(`${year - 1}-06-01`));
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await refused(t, gb, LOCK, { v: { hardLockDate: tomorrow } }, AccountingErrors.hardLockDateInFuture);
  const error = await refused(t, gb, LOCK, { v: { hardLockDate: `${year - 1}-12-31` } }, AccountingErrors.hardLockDateOpenExercise);
  t.match(error?.message, `${year - 1}`, 'the message names the exercise');
  t.match(await setup(gb), { hardLockDate: null }, 'nothing changed');
  await ok(gb, LOCK, { v: { hardLockDate: `${year - 1}-12-30` } });
  // Closed and carried into the current exercise: the hard lock may cover its last day.
  await ok(gb, `mutation($v: AccountingExerciseCloseGLDtoInput!) { closeAccountingExercise(input: $v) { id } }`, { v: { id: previous } });
  await ok(gb, LOCK, { v: { hardLockDate: `${year - 1}-12-31` } });
  t.ok(current, 'the current exercise stays open');
});

t.test('administrators only: an accountant may post but not set lock dates', async (t) => {
  const email = 'comptable-lock@example.es';
  await identity.createUser(es.orgId, email, 'a-long-password-here', 'accountant');
  const token = await identity.issueToken(es.orgId, email, api.clientId, 'full_access');
  const accountant: Client = { orgId: es.orgId, headers: { Authorization: `Bearer ${token.access_token}`, 'X-Site': es.orgId } };
  const error = await refused(t, accountant, LOCK, { v: { lockDate: `${year}-12-31` } }, 'AUTH_NOT_AUTHORIZED');
  t.match(error?.message, /role accountant/);
  await ok(accountant, POST, entry(`${year}-07-01`));
  t.match(await setup(es), { lockDate: null, hardLockDate: null });
});
