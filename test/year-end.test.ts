/**
 * The year end through GraphQL on the real service: closing N posts the result to equity and opens N+1 with N's
 * closing balances (balance-sheet accounts and parties at their balances, income and expense at zero, the result in
 * 129 (ES) or 120/129 (FR)), everything balanced; closing again changes nothing; without N+1 it is refused and
 * appends nothing; reopening restores both exercises' balances; an exercise closed without its opening gets only
 * the opening; random ledgers close and reopen to the same balances (property).
 */
import fc from 'fast-check';
import t from 'tap';
import { AccountingErrors } from '../domain/accounting/errors.ts';
import { Decimal } from '../domain/money.ts';
import { holdsAsync } from './helpers/property.ts';
import { graphqlAnswers } from './helpers/graphql-answers.ts';
import { runningService } from './helpers/service.ts';
import { clientOf, type Client } from './helpers/organisation-client.ts';

const api = await runningService(t);
const { db, store, daemon } = api.service;
const year = new Date().getUTCFullYear();

/** The checks of test/helpers/graphql-answers.ts as one organisation's client makes them. */
const ok = (c: Client, query: string, variables?: object) => graphqlAnswers(api, c.headers).ok(query, variables);
const refused = (t: any, c: Client, query: string, variables: object, code: string) => graphqlAnswers(api, c.headers).refused(t, code, query, variables, code);

const CREATE_EXERCISE = `mutation($v: AccountingExerciseCreateGLDtoInput!) { createAccountingExercise(input: $v) { id } }`;
const CLOSE = `mutation($v: AccountingExerciseCloseGLDtoInput!) { closeAccountingExercise(input: $v) { id } }`;
const REOPEN = `mutation($v: AccountingExerciseReopenGLDtoInput!) { reopenAccountingExercise(input: $v) { id } }`;
const POST = `mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id } }`;

type Line = [code: string, debit: string | null, credit: string | null, thirdCode?: string];
const post = (c: Client, date: string, lines: Line[], journalTypeCode = 'GEN') => ok(c, POST, {
  v: { date, journalTypeCode, description: 'entry', accountingEntryLines: lines.map(([subAccountCode, debitAmount, creditAmount, thirdCode]) => ({ subAccountCode, debitAmount, creditAmount, thirdCode })) },
});

async function exercises(c: Client) {
  const { accountingExercises } = await ok(c, `{ accountingExercises(first: 10) { nodes { id exercise status startDate } } }`);
  return accountingExercises.nodes as { id: string; exercise: number; status: string; startDate: string }[];
}

/**
 * The read models once they hold every event committed so far (the store's head as readers see it may lag behind
 * while other transactions of the server are open; the last commit does not).
 */
async function caughtUp() {
  if (!(await daemon.waitFor(await store.committedHead!()))) throw new Error('the projections did not catch up');
}

/** Balances per account code and third party (and entry type), from the entry lines read model once caught up. */
async function balances(c: Client, exerciseId: string, entryTypes?: string[]): Promise<Record<string, string>> {
  await caughtUp();
  const { rows } = await db.pool.query(
    `SELECT a.code, coalesce(l.third_code, '') AS third, sum(l.debit_amount - l.credit_amount)::text AS net
       FROM accounting_entry_lines l JOIN accounting_entries e ON e.id = l.accounting_entry_id JOIN accounting_accounts a ON a.id = l.sub_account_id
      WHERE l.organisation_id = $1 AND e.accounting_exercise_id = $2 AND ($3::text[] IS NULL OR e.entry_type = ANY($3))
      GROUP BY 1, 2 HAVING sum(l.debit_amount - l.credit_amount) <> 0 ORDER BY 1, 2`,
    [c.orgId, exerciseId, entryTypes ?? null],
  );
  return Object.fromEntries(rows.map((r) => [r.third ? `${r.code}/${r.third}` : r.code, new Decimal(r.net).toFixed(2)]));
}
const total = (b: Record<string, string>) => Object.values(b).reduce((s, v) => s.plus(v), new Decimal(0)).toFixed(2);

async function entryTypes(c: Client, exerciseId: string) {
  await caughtUp();
  const { rows } = await db.pool.query(
    `SELECT e.entry_type, j.code AS journal, e.date::text AS date, e.source_type FROM accounting_entries e JOIN journal_types j ON j.id = e.journal_type_id
      WHERE e.organisation_id = $1 AND e.accounting_exercise_id = $2 AND e.entry_type <> 'GENERAL' ORDER BY e.number`,
    [c.orgId, exerciseId],
  );
  return rows.map((r) => `${r.entry_type} ${r.journal} ${r.date.slice(0, 10)} ${r.source_type}`);
}

const customer = async (c: Client) => (await ok(c, `mutation($v: CustomerCreateGLDtoInput!) { createCustomer(input: $v) { code } }`, { v: { socialName: 'Cliente Uno' } })).createCustomer.code as string;

t.test('ES: regularisation to 129 and closing entry on CIE, opening on APE; closing again changes nothing; reopening restores both', async (t) => {
  const es = await clientOf(api, 'ES', 'Cierre Anual SL', 'cierre@example.es');
  const [n] = await exercises(es);
  const party = await customer(es);
  await post(es, `${year}-02-01`, [['5720000', '30000.00', null], ['1000000', null, '30000.00']]);
  await post(es, `${year}-03-01`, [['4300000', '1210.00', null, party], ['7000000', null, '1000.00'], ['4770000', null, '210.00']], 'VEN');
  await post(es, `${year}-04-01`, [['6000000', '400.00', null], ['4720000', '84.00', null], ['4000000', null, '484.00']], 'COM');
  await post(es, `${year}-05-01`, [['5720000', '500.00', null], ['4300000', null, '500.00', party]], 'BAN');

  // Without N+1: refused, nothing appended.
  await refused(t, es, CLOSE, { v: { id: n.id } }, AccountingErrors.nextExerciseMissing);
  const next = (await ok(es, CREATE_EXERCISE, { v: { startDate: `${year + 1}-01-01`, endDate: `${year + 1}-12-31` } })).createAccountingExercise.id;
  const before = await balances(es, n.id);
  t.same(before, {
    '1000000': '-30000.00', '4000000': '-484.00', [`4300000/${party}`]: '710.00', '4720000': '84.00', '4770000': '-210.00', '5720000': '30500.00',
    '6000000': '400.00', '7000000': '-1000.00',
  });

  await ok(es, CLOSE, { v: { id: n.id } });
  const opening = await balances(es, next);
  t.same(opening, {
    '1000000': '-30000.00', '1290000': '-600.00', '4000000': '-484.00', [`4300000/${party}`]: '710.00', '4720000': '84.00', '4770000': '-210.00', '5720000': '30500.00',
  }, 'N+1: the balance sheet at N\'s closing balances, the profit in 129, income and expense at zero');
  t.equal(total(opening), '0.00', 'the opening is balanced');
  t.same(await balances(es, n.id), {}, 'N: every account zero after the regularisation and the closing entry');
  t.same(await balances(es, n.id, ['CLOSURE_ACCOUNTING']), { '1290000': '-600.00', '6000000': '-400.00', '7000000': '1000.00' }, 'the regularisation: groups 6 and 7 into 129');
  t.same(await entryTypes(es, n.id), [`CLOSURE_ACCOUNTING CIE ${year}-12-31 YEAR_END_PROCESS`, `CLOSURE_EXERCISE CIE ${year}-12-31 YEAR_END_PROCESS`]);
  t.same(await entryTypes(es, next), [`OPENING APE ${year + 1}-01-01 YEAR_END_PROCESS`]);
  t.same(await statuses(es), { [n.id]: 'CLOSED', [next]: 'OPEN' });

  await refused(t, es, CLOSE, { v: { id: n.id } }, AccountingErrors.exerciseClosed);
  await refused(t, es, `mutation($v: AccountingEntryDeleteGLDtoInput!) { deleteAccountingEntry(input: $v) { id } }`, { v: { id: await openingEntryId(es, next) } }, AccountingErrors.yearEndEntry);

  await ok(es, REOPEN, { v: { id: n.id } });
  t.same(await balances(es, n.id), before, 'reopened: N\'s balances as before its close');
  t.same(await balances(es, next), {}, 'reopened: N+1 holds nothing');
  t.same(await statuses(es), { [n.id]: 'OPEN', [next]: 'OPEN' });
  await post(es, `${year}-12-31`, [['6000000', '100.00', null], ['5720000', null, '100.00']]);
  await refused(t, es, REOPEN, { v: { id: n.id } }, AccountingErrors.exerciseNotClosed);

  // Closed again (new entries since): the opening carries the new result.
  await ok(es, CLOSE, { v: { id: n.id } });
  t.match(await balances(es, next), { '1290000': '-500.00', '5720000': '30400.00' });
  t.equal(total(await balances(es, next)), '0.00');
});

async function statuses(c: Client) {
  await caughtUp();
  return Object.fromEntries((await exercises(c)).map((e) => [e.id, e.status]));
}

async function openingEntryId(c: Client, exerciseId: string) {
  const { rows } = await db.pool.query(`SELECT id FROM accounting_entries WHERE organisation_id = $1 AND accounting_exercise_id = $2 AND entry_type = 'OPENING'`, [c.orgId, exerciseId]);
  return rows[0].id as string;
}

t.test('FR: income and expense into 120 (profit) or 129 (loss) on CLO, à-nouveaux on AN; no closing entry', async (t) => {
  const fr = await clientOf(api, 'FR', 'Clôture SARL', 'cloture@example.fr');
  const [n] = await exercises(fr);
  const next = (await ok(fr, CREATE_EXERCISE, { v: { startDate: `${year + 1}-01-01`, endDate: `${year + 1}-12-31` } })).createAccountingExercise.id;
  await post(fr, `${year}-02-01`, [['512000', '10000.00', null], ['101300', null, '10000.00']], 'OD');
  await post(fr, `${year}-03-01`, [['607000', '2500.00', null], ['512000', null, '2500.00']], 'ACH');
  await post(fr, `${year}-04-01`, [['512000', '1000.00', null], ['707000', null, '1000.00']], 'VTE');
  // December closed before the year end: the regularisation is posted into it all the same, closed from the start.
  const december = (await api.service.commands.organisation(fr.orgId)).exercises.get(n.id)!.periods[11].periodId;
  await ok(fr, `mutation($v: AccountingPeriodCloseGLDtoInput!) { closeAccountingPeriod(input: $v) { id } }`, { v: { id: december } });
  await ok(fr, CLOSE, { v: { id: n.id } });
  await caughtUp();
  const open = await db.pool.query(`SELECT count(*)::int AS n FROM accounting_entries WHERE accounting_exercise_id = $1 AND NOT is_closed`, [n.id]);
  t.equal(open.rows[0].n, 0, 'every entry of the closed exercise reads closed, the regularisation in December too');
  const opening = await balances(fr, next);
  t.same(opening, { '101300': '-10000.00', '129000': '1500.00', '512000': '8500.00' }, 'a loss: 129 debited, income and expense at zero');
  t.equal(total(opening), '0.00');
  t.same(await balances(fr, n.id), { '101300': '-10000.00', '129000': '1500.00', '512000': '8500.00' }, 'N keeps its balance sheet (no closing entry in the PCG)');
  t.same(await entryTypes(fr, n.id), [`CLOSURE_ACCOUNTING CLO ${year}-12-31 YEAR_END_PROCESS`]);
  t.same(await entryTypes(fr, next), [`OPENING AN ${year + 1}-01-01 YEAR_END_PROCESS`]);
  await ok(fr, REOPEN, { v: { id: n.id } });
  await post(fr, `${year}-05-01`, [['512000', '3000.00', null], ['706000', null, '3000.00']], 'VTE');
  await ok(fr, CLOSE, { v: { id: n.id } });
  t.same(await balances(fr, next), { '101300': '-10000.00', '120000': '-1500.00', '512000': '11500.00' }, 'a profit: 120 credited');
});

t.test('a closed exercise without its opening (a crash between the two appends) gets only the opening', async (t) => {
  const es = await clientOf(api, 'ES', 'Recuperación SL', 'recuperacion@example.es');
  const [n] = await exercises(es);
  await post(es, `${year}-02-01`, [['5720000', '100.00', null], ['7000000', null, '100.00']]);
  const next = (await ok(es, CREATE_EXERCISE, { v: { startDate: `${year + 1}-01-01`, endDate: `${year + 1}-12-31` } })).createAccountingExercise.id;
  // The close's first append alone (N's closing entries, as the close names them), the opening never posted: the state a crash leaves.
  const { LedgerAggregate } = await import('../commands/accounting/aggregates.ts');
  const { decideLedger } = await import('../domain/accounting/ledger.ts');
  const { closingEntries, yearEndBalances, yearEndEntryId } = await import('../domain/accounting/year-end.ts');
  const { exerciseRef, ledgerEvents } = await import('../commands/accounting/year-end-openings.ts');
  const { derivedId } = await import('../domain/ids.ts');
  const org = await api.service.commands.organisation(es.orgId);
  const exercise = org.exercises.get(n.id)!;
  const balancesOfN = yearEndBalances(await ledgerEvents(api.service.commands, n.id));
  await api.service.commands.aggregates.execute(LedgerAggregate, n.id, { organisationId: es.orgId }, (s) => decideLedger({
    type: 'CloseAccountingExercise', now: new Date().toISOString(),
    closing: closingEntries(org, exerciseRef(exercise), balancesOfN, (kind) => yearEndEntryId((key) => derivedId(n.id, 'year-end', key), kind, 1)),
  }, s, exercise, org));
  t.same(await balances(es, next), {});
  const head = await api.eventCount();
  await ok(es, CLOSE, { v: { id: n.id } });
  t.same(await balances(es, next), { '1290000': '-100.00', '5720000': '100.00' }, 'the opening added');
  t.same(await entryTypes(es, n.id), [`CLOSURE_ACCOUNTING CIE ${year}-12-31 YEAR_END_PROCESS`, `CLOSURE_EXERCISE CIE ${year}-12-31 YEAR_END_PROCESS`], 'N: its closing entries once');
  t.equal(await api.eventCount(), head + 1, 'one event appended: the opening');
});

t.test('random ledgers: N+1 opens at N\'s balance sheet with the result in 129, balanced; reopening restores N', async (t) => {
  const es = await clientOf(api, 'ES', 'Aleatoria SL', 'aleatoria@example.es');
  const [n] = await exercises(es);
  const next = (await ok(es, CREATE_EXERCISE, { v: { startDate: `${year + 1}-01-01`, endDate: `${year + 1}-12-31` } })).createAccountingExercise.id;
  const party = await customer(es);
  const ACCOUNTS = ['5720000', '1000000', '4000000', '6000000', '7000000', '4770000', '6290000', '7050000'];
  const line = fc.record({ debit: fc.constantFrom(...ACCOUNTS, '4300000'), credit: fc.constantFrom(...ACCOUNTS, '4300000'), cents: fc.integer({ min: 1, max: 1_000_000 }), month: fc.integer({ min: 1, max: 12 }) })
    .filter((l) => l.debit !== l.credit);
  // Straight to the service's mutations (what GraphQL runs, without waiting on the read models each time): the
  // balances below wait for the projections once.
  const mutate = api.service.mutate as Record<string, (ctx: object, input: object) => Promise<unknown>>;
  const as = { organisationId: es.orgId };
  await holdsAsync(t, fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 6 }), async (entries) => {
    for (const e of entries) {
      const amount = (e.cents / 100).toFixed(2);
      const line = (subAccountCode: string, side: object) => ({ subAccountCode, ...side, ...(subAccountCode === '4300000' && { thirdCode: party }) });
      await mutate.createAccountingEntryUsingCodes(as, {
        date: `${year}-${String(e.month).padStart(2, '0')}-15`, journalTypeCode: 'GEN', accountingEntryLines: [line(e.debit, { debitAmount: amount }), line(e.credit, { creditAmount: amount })],
      });
    }
    const before = await balances(es, n.id);
    await mutate.closeAccountingExercise(as, { id: n.id });
    const opening = await balances(es, next);
    const result = Object.entries(before).filter(([code]) => /^[67]/.test(code)).reduce((s, [, v]) => s.plus(v), new Decimal(0));
    const expected = Object.fromEntries(Object.entries(before).filter(([code]) => !/^[67]/.test(code) && !code.startsWith('129')));
    const in129 = result.plus(before['1290000'] ?? '0');
    if (!in129.isZero()) expected['1290000'] = in129.toFixed(2);
    if (JSON.stringify(opening) !== JSON.stringify(Object.fromEntries(Object.entries(expected).sort()))) throw new Error(`opening ${JSON.stringify(opening)} != ${JSON.stringify(expected)}`);
    if (total(opening) !== '0.00') throw new Error('opening unbalanced');
    await mutate.reopenAccountingExercise(as, { id: n.id });
    if (JSON.stringify(await balances(es, n.id)) !== JSON.stringify(before)) throw new Error('reopening did not restore N');
    if (Object.keys(await balances(es, next)).length !== 0) throw new Error('reopening left N+1 with balances');
  }), { numRuns: 8 });
});

t.test('an exercise closed before the year end posted anything (no closing entries) gets its opening, the result in 129', async (t) => {
  const es = await clientOf(api, 'ES', 'Cerrada Antes SL', 'antes@example.es');
  const [n] = await exercises(es);
  await post(es, `${year}-02-01`, [['5720000', '250.00', null], ['7000000', null, '250.00']]);
  const next = (await ok(es, CREATE_EXERCISE, { v: { startDate: `${year + 1}-01-01`, endDate: `${year + 1}-12-31` } })).createAccountingExercise.id;
  // Closed as the service closed exercises before: periods and the exercise, nothing posted.
  const { LedgerAggregate } = await import('../commands/accounting/aggregates.ts');
  const { decideLedger } = await import('../domain/accounting/ledger.ts');
  const org = await api.service.commands.organisation(es.orgId);
  await api.service.commands.aggregates.execute(LedgerAggregate, n.id, { organisationId: es.orgId }, (s) =>
    decideLedger({ type: 'CloseAccountingExercise', now: new Date().toISOString() }, s, org.exercises.get(n.id)!, org));
  await ok(es, CLOSE, { v: { id: n.id } });
  t.same(await balances(es, next), { '1290000': '-250.00', '5720000': '250.00' }, 'the opening carries the result into 129');
  t.same(await entryTypes(es, n.id), [], 'N: nothing posted to the closed exercise');
  await refused(t, es, CLOSE, { v: { id: n.id } }, AccountingErrors.exerciseClosed);
});

/** Projections parked on the organisation's events (a read model that could not apply one). */
async function parkedOf(c: Client) {
  const { listParked } = await import('../projections/engine/parked.ts');
  return (await listParked(db.pool)).filter((p) => p.organisationId === c.orgId).map((p) => `${p.projection}: ${p.error}`);
}

t.test('a reopening stopped after deleting the opening: closing again finishes it and opens N+1 under new ids; nothing parks', async (t) => {
  const es = await clientOf(api, 'ES', 'Reapertura Parcial SL', 'reapertura@example.es');
  const [n] = await exercises(es);
  await post(es, `${year}-02-01`, [['5720000', '100.00', null], ['7000000', null, '100.00']]);
  const next = (await ok(es, CREATE_EXERCISE, { v: { startDate: `${year + 1}-01-01`, endDate: `${year + 1}-12-31` } })).createAccountingExercise.id;
  const before = await balances(es, n.id);
  await ok(es, CLOSE, { v: { id: n.id } });
  // The reopening's first step alone (the opening deleted on N+1), N left closed: the state a crash leaves.
  const { LedgerAggregate } = await import('../commands/accounting/aggregates.ts');
  const { decideLedger } = await import('../domain/accounting/ledger.ts');
  const org = await api.service.commands.organisation(es.orgId);
  const openingId = await openingEntryId(es, next);
  await api.service.commands.aggregates.execute(LedgerAggregate, next, { organisationId: es.orgId }, (s) =>
    decideLedger({ type: 'DeleteAccountingEntry', entryId: openingId, yearEnd: true, now: new Date().toISOString() }, s, org.exercises.get(next)!, org));
  await ok(es, CLOSE, { v: { id: n.id } });
  t.same(await balances(es, next), { '1290000': '-100.00', '5720000': '100.00' }, 'N+1 opened again');
  t.not(await openingEntryId(es, next), openingId, 'under another id than the deleted opening');
  t.same(await entryTypes(es, n.id), [`CLOSURE_ACCOUNTING CIE ${year}-12-31 YEAR_END_PROCESS`, `CLOSURE_EXERCISE CIE ${year}-12-31 YEAR_END_PROCESS`], 'N: its closing entries once');
  await ok(es, REOPEN, { v: { id: n.id } });
  t.same(await balances(es, n.id), before, 'reopened: N as before its close');
  t.same(await balances(es, next), {}, 'reopened: N+1 holds nothing');
  t.same(await parkedOf(es), [], 'no read model parked');
});

t.test('a hard lock cutting into an exercise left closed without its opening is refused: it could never be finished', async (t) => {
  const es = await clientOf(api, 'ES', 'Cerrojo Parcial SL', 'cerrojo@example.es');
  const [next] = await exercises(es);
  // N is last year's, so a hard lock inside it is in the past (a later one is refused as in the future).
  const n = (await ok(es, CREATE_EXERCISE, { v: { startDate: `${year - 1}-01-01`, endDate: `${year - 1}-12-31` } })).createAccountingExercise.id;
  await post(es, `${year - 1}-02-01`, [['5720000', '100.00', null], ['7000000', null, '100.00']]);
  await ok(es, CLOSE, { v: { id: n } });
  const { LedgerAggregate } = await import('../commands/accounting/aggregates.ts');
  const { decideLedger } = await import('../domain/accounting/ledger.ts');
  const org = await api.service.commands.organisation(es.orgId);
  const openingId = await openingEntryId(es, next!.id);
  await api.service.commands.aggregates.execute(LedgerAggregate, next!.id, { organisationId: es.orgId }, (s) =>
    decideLedger({ type: 'DeleteAccountingEntry', entryId: openingId, yearEnd: true, now: new Date().toISOString() }, s, org.exercises.get(next!.id)!, org));
  const LOCK = `mutation($v: AccountingLockDatesUpdateGLDtoInput!) { updateAccountingLockDates(input: $v) { hardLockDate } }`;
  await refused(t, es, LOCK, { v: { hardLockDate: `${year - 1}-06-30` } }, AccountingErrors.hardLockDateOpenExercise);
  // Closing again finishes the stopped reopening; then the lock is taken.
  await ok(es, CLOSE, { v: { id: n } });
  t.same(await balances(es, next!.id), { '1290000': '-100.00', '5720000': '100.00' }, 'N+1 opened again');
  await ok(es, LOCK, { v: { hardLockDate: `${year - 1}-06-30` } });
});

t.test('exercises close in order: N only after N-1 is closed and carried into it; N-1 reopens only after N', async (t) => {
  const es = await clientOf(api, 'ES', 'Orden SL', 'orden@example.es');
  const [n] = await exercises(es);
  const previous = (await ok(es, CREATE_EXERCISE, { v: { startDate: `${year - 1}-01-01`, endDate: `${year - 1}-12-31` } })).createAccountingExercise.id;
  await ok(es, CREATE_EXERCISE, { v: { startDate: `${year + 1}-01-01`, endDate: `${year + 1}-12-31` } });
  await post(es, `${year - 1}-03-01`, [['5720000', '300.00', null], ['7000000', null, '300.00']]);
  const error = await refused(t, es, CLOSE, { v: { id: n.id } }, AccountingErrors.previousExerciseOpen);
  t.match(error?.message, `${year - 1}`, 'the message names the exercise to close first');
  await ok(es, CLOSE, { v: { id: previous } });
  await ok(es, CLOSE, { v: { id: n.id } });
  t.same(await statuses(es), Object.fromEntries((await exercises(es)).map((e) => [e.id, e.startDate.startsWith(`${year + 1}`) ? 'OPEN' : 'CLOSED'])));
  await refused(t, es, REOPEN, { v: { id: previous } }, AccountingErrors.nextExerciseClosed);
  await ok(es, REOPEN, { v: { id: n.id } });
  await ok(es, REOPEN, { v: { id: previous } });
  t.same(await balances(es, previous), { '5720000': '300.00', '7000000': '-300.00' }, 'N-1 as before its close');
});

t.test('a year-end line beyond the largest amount is refused as a merged posting line is, and nothing is appended', async (t) => {
  const es = await clientOf(api, 'ES', 'Importe Enorme SL', 'enorme@example.es');
  const [n] = await exercises(es);
  await ok(es, CREATE_EXERCISE, { v: { startDate: `${year + 1}-01-01`, endDate: `${year + 1}-12-31` } });
  for (const day of ['01', '02']) await post(es, `${year}-02-${day}`, [['5720000', '999999999999999.00', null], ['1000000', null, '999999999999999.00']]);
  const head = await api.eventCount();
  const error = await refused(t, es, CLOSE, { v: { id: n.id } }, AccountingErrors.invalidLineAmount);
  t.match(error?.extensions?.parameters, { reason: 'mergedTooLarge' });
  t.equal(await api.eventCount(), head, 'nothing appended');
});
