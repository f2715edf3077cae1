/**
 * Issue 19's report roots through the real service over GraphQL, against a year of random books of the demo
 * organisation (entries on a dozen accounts, with customers, suppliers and an employee, some deleted): the trial
 * balance and the third-party balance equal a GROUP BY over the entry lines for random date ranges (partial
 * periods) and code ranges with every flag; the balance sheet balances (assets = liabilities + equity + result);
 * asOf reads the books as they stood; another organisation's exercise reads as unknown; bad inputs are refused
 * naming the field; `ledger report` writes the GraphQL answer as CSV.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import t from 'tap';
import { LedgerAggregate } from '../commands/accounting/aggregates.ts';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { exerciseForDate } from '../domain/accounting/organisation.ts';
import { Decimal } from '../domain/money.ts';
import { statementModel as esModel, statementVariants } from '../domain/reports/statements.ts';
import { readScoped } from '../api/read-scope.ts';
import { Customer } from '../projections/parties/read-models.ts';
import { partyMovementsQuery, periodsOf, spanOf } from '../projections/reports/sql.ts';
import { appendStored } from './helpers/old-events.ts';
import { clientOf } from './helpers/organisation-client.ts';
import { holdsAsync } from './helpers/property.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, daemon, store, db, commands } = api.service as any;
const year = new Date().getUTCFullYear();
const ctx = { organisationId: api.organisationId };
const projected = async () => daemon.waitFor(await store.committedHead());

// ---- The books: a seeded random year ----
let seed = 19;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
const amount = () => (1 + Math.floor(random() * 500000) / 100).toFixed(2);

/** The parties, with the names the report must show. */
const names = new Map<string, string>();
const party = async (create: string, name: string) => {
  const created = await mutate[create](ctx, create === 'createEmployee' ? { name } : { socialName: name });
  names.set(created.id, name);
  return created as { id: string; code: string };
};
const customers = [await party('createCustomer', 'Cliente Norte S.L.'), await party('createCustomer', 'Cliente Sur S.A.'), await party('createCustomer', 'Cliente, "Este"')];
const suppliers = [await party('createSupplier', 'Proveedor Uno S.L.'), await party('createSupplier', 'Proveedor Dos S.L.')];
const employee = await party('createEmployee', 'Ana Gómez');
/** [debit account, credit account, third party of the debit, of the credit] */
const MOVES: Array<[string, string, string | null, string | null]> = [
  ['4300000', '7000000', 'C', null], ['5720000', '4300000', null, 'C'], ['6000000', '4000000', null, 'S'], ['4000000', '5720000', 'S', null],
  ['6400000', '4650000', null, 'E'], ['4650000', '5720000', 'E', null], ['6290000', '5700000', null, null], ['5720000', '1700000', null, null],
  ['2130000', '5720000', null, null], ['6620000', '5720000', null, null], ['5720000', '7520000', null, null],
];
const partyCode = (kind: string | null) => (kind === 'C' ? pick(customers).code : kind === 'S' ? pick(suppliers).code : kind === 'E' ? employee.code : undefined);
const day = () => `${year}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`;

async function post(date: string) {
  const lines = [];
  for (let i = 0; i < 1 + Math.floor(random() * 3); i++) {
    const [debit, credit, dp, cp] = pick(MOVES);
    const value = amount();
    lines.push({ subAccountCode: debit, debitAmount: value, thirdCode: partyCode(dp) }, { subAccountCode: credit, creditAmount: value, thirdCode: partyCode(cp) });
  }
  return mutate.createAccountingEntryUsingCodes(ctx, { date, journalTypeCode: 'GEN', description: 'random', accountingEntryLines: lines });
}
const posted: Array<{ id: string }> = [];
for (let i = 0; i < 60; i++) posted.push(await post(day()));
for (const entry of posted.slice(0, 4)) await mutate.deleteAccountingEntry(ctx, { id: entry.id });
await projected();

/**
 * Entries of the year end's types (closing entries, a temporary carry-forward) as the ledger stores them: copies of
 * posted entries with another entryType, appended to the exercise's stream (no command posts them here).
 */
async function postAs(entryType: string, template: { id: string }) {
  const exerciseId = exerciseForDate(await commands.organisation(api.organisationId), `${year}-06-01`)!.id;
  const stream = AggregateStore.streamId(LedgerAggregate.category, exerciseId);
  const events = await store.readStream(stream);
  const original = events.find((e: any) => e.data.entryId === template.id);
  const number = (await new AggregateStore(store).load(LedgerAggregate, exerciseId)).state.entryOrder.length + 1;
  const lines = original.data.lines.map((l: object) => ({ ...l, lineId: randomUUID() }));
  await appendStored(api, stream, 'AccountingEntryPosted', { ...original.data, entryId: randomUUID(), number, entryType, lines }, original.metadata);
}
for (const [i, type] of ['CLOSURE_ACCOUNTING', 'CLOSURE_EXERCISE', 'TEMPORARY_CARRY_FORWARD', 'CLOSURE_WORTH', 'OPENING'].entries()) await postAs(type, posted[20 + i]);

const exercise = (await api.gql(`{ accountingExercises { nodes { id startDate endDate } } }`)).data.accountingExercises.nodes[0];

// ---- The oracle: sums over the lines ----
type Sums = Map<string, [Decimal, Decimal]>;
/** What the reports leave out by default: the temporary carry-forward; `closing` false: the closing entries as well. */
const excluded = (flags: { closing?: boolean; carryForward?: boolean } = {}) => [
  ...(flags.closing === false ? ['CLOSURE_ACCOUNTING', 'CLOSURE_EXERCISE', 'CLOSURE_WORTH'] : []), ...(flags.carryForward ? [] : ['TEMPORARY_CARRY_FORWARD']),
];
async function linesBy(key: 'code' | 'party', from: string, to: string, origin?: string, leftOut: string[] = excluded()): Promise<Sums> {
  const { rows } = await db.pool.query(
    `SELECT ${key === 'code' ? 'a.code' : 'l.third_party_id::text'} AS key, sum(coalesce(l.debit_amount, 0))::text AS debit, sum(coalesce(l.credit_amount, 0))::text AS credit
       FROM accounting_entry_lines l JOIN accounting_entries e ON e.id = l.accounting_entry_id JOIN accounting_accounts a ON a.id = l.sub_account_id
      WHERE l.organisation_id = $1 AND (e.date AT TIME ZONE 'UTC')::date BETWEEN $2::date AND $3::date AND ($4::text IS NULL OR l.third_party_origin = $4)
        AND e.entry_type::text <> ALL($5::text[])
      GROUP BY 1`,
    [api.organisationId, from, to, origin ?? null, leftOut],
  );
  return new Map(rows.map((r: any) => [r.key, [new Decimal(r.debit), new Decimal(r.credit)]]));
}
const fixed = (d: Decimal) => d.toFixed(2);
/** The columns a row of either balance report must have, from the oracle's period and accumulated sums. */
function expectedColumns(period: [Decimal, Decimal] | undefined, accumulated: [Decimal, Decimal] | undefined) {
  const cols = (s: [Decimal, Decimal] = [new Decimal(0), new Decimal(0)]) => {
    const balance = s[0].minus(s[1]);
    return { debitAmount: fixed(s[0]), creditAmount: fixed(s[1]), balance: fixed(balance), debitBalance: fixed(Decimal.max(balance, 0)), creditBalance: fixed(Decimal.min(balance, 0)) };
  };
  const p = cols(period);
  const a = cols(accumulated);
  return { ...p, accumulatedDebitAmount: a.debitAmount, accumulatedCreditAmount: a.creditAmount, accumulatedBalance: a.balance, accumulatedDebitBalance: a.debitBalance, accumulatedCreditBalance: a.creditBalance };
}
const inRange = (code: string, start?: string, end?: string) => (!start || code >= start) && (!end || code.slice(0, end.length) <= end);

const TB = `query($input: AccountingTrialBalanceGLDtoInput!) { accountingTrialBalance(input: $input) { accountCode accountDescription accountType debitAmount creditAmount debitBalance creditBalance balance
  accumulatedDebitAmount accumulatedCreditAmount accumulatedDebitBalance accumulatedCreditBalance accumulatedBalance } }`;
const TPB = `query($input: AccountingThirdPartyBalanceGLDtoInput!) { accountingThirdPartyBalance(input: $input) { thirdPartyId thirdPartyDescription debitAmount creditAmount debitBalance creditBalance balance
  accumulatedDebitAmount accumulatedCreditAmount accumulatedDebitBalance accumulatedCreditBalance accumulatedBalance } }`;
const STATEMENT_FIELDS = 'code description lineType order multiColumn amountColumn1 amountColumn2 amountTotal';
const BS = `query($input: AccountingBalanceSheetGLDtoInput!) { accountingBalanceSheet(input: $input) { ${STATEMENT_FIELDS} } }`;
const PL = `query($input: AccountingProfitAndLossGLDtoInput!) { accountingProfitAndLoss(input: $input) { ${STATEMENT_FIELDS} } }`;

async function answer(query: string, input: object, headers?: Record<string, string>) {
  const r = await api.gql(query, { input }, headers);
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return Object.values(r.data)[0] as any[];
}
async function refusal(query: string, input: object, headers?: Record<string, string>) {
  const r = await api.gql(query, { input }, headers);
  return { code: r.errors?.[0]?.extensions?.code, message: r.errors?.[0]?.message ?? '', data: r.data };
}

const dateRange = fc.tuple(fc.integer({ min: 0, max: 364 }), fc.integer({ min: 0, max: 364 })).map(([a, b]) => {
  const at = (n: number) => new Date(Date.UTC(year, 0, 1 + Math.min(n, 364))).toISOString().slice(0, 10);
  return [at(Math.min(a, b)), at(Math.max(a, b))] as const;
});
const CODES = ['', '1', '2', '4', '43', '4300000', '46', '5', '57', '6', '64', '7', '7520000', '9'];

t.test('the trial balance is the lines summed by account: random dates and code ranges, every flag', async (t) => {
  await holdsAsync(t, fc.asyncProperty(dateRange, fc.constantFrom(...CODES), fc.constantFrom(...CODES), fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(),
    async ([startDate, endDate], startAccountCode, endAccountCode, isWithoutZeroBalance, isTrialBalanceComparative, showClosingEntries, showTemporaryCarryForward) => {
      const input = { exerciseId: exercise.id, startDate, endDate, startAccountCode: startAccountCode || null, endAccountCode: endAccountCode || null, isWithoutZeroBalance, isTrialBalanceComparative, showClosingEntries, showTemporaryCarryForward };
      const rows = await answer(TB, input);
      const leftOut = excluded({ closing: showClosingEntries, carryForward: showTemporaryCarryForward });
      const period = await linesBy('code', startDate, endDate, undefined, leftOut);
      const accumulated = isTrialBalanceComparative ? await linesBy('code', `${year}-01-01`, endDate, undefined, leftOut) : new Map();
      const codes = [...new Set([...period.keys(), ...accumulated.keys()])].filter((c) => inRange(c, startAccountCode, endAccountCode)).sort();
      const expected = codes.map((code) => ({ accountCode: code, ...expectedColumns(period.get(code), accumulated.get(code)) }))
        .filter((r) => !isWithoutZeroBalance || !new Decimal(r.balance).isZero() || !new Decimal(r.accumulatedBalance).isZero());
      t.same(rows.map(({ accountDescription, accountType, ...r }) => r), expected, JSON.stringify(input));
      if (rows.some((r) => !r.accountDescription || r.accountType === 'UNDEFINED')) throw new Error('every row names its account and its type');
    }), { numRuns: 25 });
});

t.test('the trial balance\'s columns: balance = debit − credit, split by sign; totals balance', async (t) => {
  const rows = await answer(TB, { exerciseId: exercise.id, startDate: `${year}-01-01`, endDate: `${year}-12-31`, isTrialBalanceComparative: true });
  t.ok(rows.length > 8);
  const sum = (k: string) => rows.reduce((s, r) => s.plus(r[k]), new Decimal(0)).toFixed(2);
  t.equal(sum('debitAmount'), sum('creditAmount'), 'the books balance');
  t.equal(sum('balance'), '0.00');
  for (const r of rows) {
    t.equal(new Decimal(r.debitAmount).minus(r.creditAmount).toFixed(2), r.balance);
    t.ok(new Decimal(r.creditBalance).lte(0) && new Decimal(r.debitBalance).gte(0) && new Decimal(r.debitBalance).plus(r.creditBalance).eq(r.balance), `${r.accountCode} split by sign`);
    t.same([r.accumulatedDebitAmount, r.accumulatedCreditAmount], [r.debitAmount, r.creditAmount], 'the whole year: accumulated = period');
  }
  const whole = { exerciseId: exercise.id, startDate: `${year}-01-01`, endDate: `${year}-12-31` };
  t.not(JSON.stringify(await answer(TB, { ...whole, showClosingEntries: false })), JSON.stringify(await answer(TB, whole)), 'showClosingEntries: false leaves the closing entries out');
  t.same(await answer(TB, { ...whole, showClosingEntries: true }), await answer(TB, whole), 'closing entries count by default');
  t.not(JSON.stringify(await answer(TB, { ...whole, showTemporaryCarryForward: true })), JSON.stringify(await answer(TB, whole)), 'the temporary carry-forward counts only when asked');
  const plain = await answer(TB, { exerciseId: exercise.id, startDate: `${year}-03-01`, endDate: `${year}-03-31` });
  t.ok(plain.every((r) => r.accumulatedDebitAmount === '0.00' && r.accumulatedBalance === '0.00'), 'not comparative: accumulated columns are zero');
});

t.test('the third-party balance is the lines summed by party, per kind', async (t) => {
  const codes = new Map<string, string>([...customers, ...suppliers, employee].map((p) => [p.id, p.code]));
  await holdsAsync(t, fc.asyncProperty(dateRange, fc.constantFrom('CUSTOMER', 'SUPPLIER', 'EMPLOYEE'), fc.boolean(), fc.boolean(), fc.constantFrom<[string | null, string | null]>([null, null], [customers[1].code, null], [null, customers[0].code], [suppliers[0].code, suppliers[0].code]),
    async ([startDate, endDate], thirdPartyType, isWithoutZeroBalance, isBalanceComparative, [from, to]) => {
      const input = { thirdPartyType, exerciseId: exercise.id, startDate, endDate, isWithoutZeroBalance, isBalanceComparative, thirdPartyCodeFrom: from, thirdPartyCodeTo: to };
      const rows = await answer(TPB, input);
      const period = await linesBy('party', startDate, endDate, thirdPartyType);
      const accumulated = isBalanceComparative ? await linesBy('party', `${year}-01-01`, endDate, thirdPartyType) : new Map();
      const ids = [...new Set([...period.keys(), ...accumulated.keys()])].filter((id) => inRange(codes.get(id)!, from ?? undefined, to ?? undefined))
        .sort((a, b) => codes.get(a)!.localeCompare(codes.get(b)!));
      const expected = ids.map((id) => ({ thirdPartyId: id, thirdPartyDescription: names.get(id), ...expectedColumns(period.get(id), accumulated.get(id)) }))
        .filter((r) => !isWithoutZeroBalance || !new Decimal(r.balance).isZero() || !new Decimal(r.accumulatedBalance).isZero());
      t.same(rows, expected, JSON.stringify(input));
    }), { numRuns: 15 });
});

t.test('the balance sheet balances: assets = liabilities + equity + the year\'s result, in every Spanish model', async (t) => {
  for (const statementModel of statementVariants('ES')) {
    const model = esModel('ES', 'BALANCE_SHEET', statementModel);
    const resultLine = model.lines.find((l) => l.result)!.code;
    const plResult = esModel('ES', 'PROFIT_AND_LOSS', statementModel).resultLine!;
    for (const endDate of [`${year}-03-17`, `${year}-06-30`, `${year}-12-31`]) {
      const rows = await answer(BS, { startDate: `${year}-02-01`, endDate, statementModel });
      const line = (code: string) => rows.find((r) => r.code === code)?.amountTotal;
      t.ok(rows.every((r) => /^-?\d+\.\d{2}$/.test(r.amountTotal)), 'amounts at the currency\'s precision');
      t.not(line(model.totals!.assets), '0.00', `${statementModel} ${endDate}: assets`);
      t.equal(line(model.totals!.assets), line(model.totals!.equityAndLiabilities), `${statementModel} ${endDate}: assets = equity and liabilities`);
      // The balance sheet is a position from the exercise's first day; so is a P&L from that day.
      const pl = await answer(PL, { startDate: `${year}-01-01`, endDate, statementModel });
      t.equal(line(resultLine), pl.find((r) => r.code === plResult).amountTotal, `${statementModel} ${endDate}: the result line is the P&L's`);
      const sales = (await linesBy('code', `${year}-01-01`, endDate)).get('7000000') ?? [new Decimal(0), new Decimal(0)];
      t.ok(pl.length > 0 && sales[1].gt(0));
    }
  }
  const all = await answer(PL, { startDate: `${year}-04-01`, endDate: `${year}-04-30` });
  const some = await answer(PL, { startDate: `${year}-04-01`, endDate: `${year}-04-30`, onlyLinesWithAmount: true });
  t.ok(some.length < all.length && some.length > 0, 'onlyLinesWithAmount leaves out the zero lines');
  t.ok(some.every((r) => r.amountTotal !== '0.00' || r.amountColumn1 !== '0.00' || r.amountColumn2 !== '0.00'));
});

t.test('asOf: the books as they stood at an instant, on every report', async (t) => {
  const dates = { exerciseId: exercise.id, startDate: `${year}-01-01`, endDate: `${year}-12-31` };
  const input = { ...dates, isTrialBalanceComparative: true };
  const party = { ...dates, thirdPartyType: 'CUSTOMER', isBalanceComparative: true };
  const statement = { startDate: `${year}-01-01`, endDate: `${year}-12-31` };
  const reads = () => Promise.all([answer(TB, input), answer(TPB, party), answer(BS, statement), answer(PL, statement)]);
  const before = await reads();
  const instant = new Date().toISOString();
  await new Promise((r) => setTimeout(r, 20));
  await mutate.createAccountingEntryUsingCodes(ctx, { date: `${year}-08-08`, journalTypeCode: 'GEN', accountingEntryLines: [
    { subAccountCode: '4300000', debitAmount: '77.00', thirdCode: customers[0].code }, { subAccountCode: '7000000', creditAmount: '77.00' }] });
  await mutate.deleteAccountingEntry(ctx, { id: posted[10].id });
  await projected();
  const now = await reads();
  for (const [i, name] of ['trial balance', 'third-party balance', 'balance sheet', 'P&L'].entries()) {
    t.not(JSON.stringify(now[i]), JSON.stringify(before[i]), `${name}: the new entry and the deletion count now`);
  }
  const asOf = [await answer(TB, { ...input, asOf: instant }), await answer(TPB, { ...party, asOf: instant }), await answer(BS, { ...statement, asOf: instant }), await answer(PL, { ...statement, asOf: instant })];
  t.same(asOf, before, 'but not as of before them, on any report');
  t.same(await answer(TB, { ...input, asOf: `${year + 5}-01-01T00:00:00Z` }), now[0], 'a later instant reads the books as they are');
  t.same(await answer(TB, { ...input, asOf: `${year - 5}-01-01T00:00:00+02:00` }), [], 'an instant before any entry reads no books');
});

t.test('showTemporaryCarryForward: before the previous year is closed, the opening its close then posts', async (t) => {
  const other = await clientOf(api, 'ES', 'Arrastre S.L.', 'arrastre@example.com');
  const c = { organisationId: other.orgId };
  const previous = await mutate.createAccountingExercise(c, { startDate: `${year - 1}-01-01`, endDate: `${year - 1}-12-31`, description: 'Anterior' });
  const client = await mutate.createCustomer(c, { socialName: 'Cliente Antiguo S.L.' });
  const entry = (date: string, lines: object[]) => mutate.createAccountingEntryUsingCodes(c, { date, journalTypeCode: 'GEN', accountingEntryLines: lines });
  await entry(`${year - 1}-03-01`, [{ subAccountCode: '5720000', debitAmount: '5000.00' }, { subAccountCode: '1000000', creditAmount: '5000.00' }]);
  await entry(`${year - 1}-06-01`, [{ subAccountCode: '4300000', debitAmount: '1210.00', thirdCode: client.code }, { subAccountCode: '7000000', creditAmount: '1000.00' }, { subAccountCode: '4770000', creditAmount: '210.00' }]);
  await entry(`${year - 1}-07-01`, [{ subAccountCode: '6290000', debitAmount: '300.00' }, { subAccountCode: '5720000', creditAmount: '300.00' }]);
  await entry(`${year}-02-01`, [{ subAccountCode: '5720000', debitAmount: '400.00' }, { subAccountCode: '4300000', creditAmount: '400.00', thirdCode: client.code }]);
  await projected();
  const current = (await api.gql(`{ accountingExercises(where: { exercise: { eq: ${year} } }) { nodes { id } } }`, {}, other.headers)).data.accountingExercises.nodes[0].id;
  const tb = { exerciseId: current, startDate: `${year}-01-01`, endDate: `${year}-12-31`, isTrialBalanceComparative: true };
  const tp = { thirdPartyType: 'CUSTOMER', exerciseId: current, startDate: `${year}-01-01`, endDate: `${year}-06-30`, isBalanceComparative: true };
  const bs = { startDate: `${year}-01-01`, endDate: `${year}-12-31` };
  const read = (carry: boolean) => Promise.all([answer(TB, { ...tb, showTemporaryCarryForward: carry }, other.headers), answer(TPB, { ...tp, showTemporaryCarryForward: carry }, other.headers), answer(BS, { ...bs, showTemporaryCarryForward: carry }, other.headers)]);

  const [withCarry, without] = [await read(true), await read(false)];
  t.same(without[0].map((r) => r.accountCode), ['4300000', '5720000'], 'without it, the year\'s own entry only');
  t.equal(withCarry[0].find((r) => r.accountCode === '1290000')?.balance, '-700.00', 'the previous year\'s result (1000.00 − 300.00) carried to 129');
  t.equal(withCarry[1][0].balance, '810.00', 'the customer\'s 1210.00 carried, less the 400.00 paid');
  const later = (await answer(TB, { ...tb, startDate: `${year}-03-01`, showTemporaryCarryForward: true }, other.headers));
  t.ok(later.every((r) => r.debitAmount === '0.00' && r.creditAmount === '0.00'), 'a period after the first day has none of it in its own columns');
  t.ok(later.some((r) => r.accumulatedBalance !== '0.00'), 'but in its accumulated ones');

  await mutate.closeAccountingExercise(c, { id: previous.id });
  await projected();
  t.same(await read(false), withCarry, 'once closed, the books hold the same opening, posted');
  t.same(await read(true), withCarry, 'and nothing is added twice');
});

/** A French organisation's exercises by year (the current one exists), and its trial balance of this year with the carry-forward. */
async function frenchBooks(name: string, email: string) {
  const other = await clientOf(api, 'FR', name, email);
  const c = { organisationId: other.orgId };
  const exercises = new Map<number, string>();
  const open = async (y: number) => exercises.set(y, (await mutate.createAccountingExercise(c, { startDate: `${y}-01-01`, endDate: `${y}-12-31`, description: `${y}` })).id);
  const entry = (date: string, debit: string, credit: string, value: string) => mutate.createAccountingEntryUsingCodes(c, { date, journalTypeCode: 'OD', accountingEntryLines: [
    { subAccountCode: debit, debitAmount: value }, { subAccountCode: credit, creditAmount: value }] });
  const current = (await api.gql(`{ accountingExercises(where: { exercise: { eq: ${year} } }) { nodes { id } } }`, {}, other.headers)).data.accountingExercises.nodes[0].id;
  const balances = async (asOf?: string) => Object.fromEntries((await answer(TB, { exerciseId: current, startDate: `${year}-01-01`, endDate: `${year}-12-31`, showTemporaryCarryForward: true, ...(asOf ? { asOf } : {}) }, other.headers))
    .map((r) => [r.accountCode, r.balance]));
  return { c, open, entry, balances, exercises, headers: other.headers };
}
const instant = async () => {
  await projected();
  const at = new Date().toISOString();
  await new Promise((r) => setTimeout(r, 20));
  return at;
};

t.test('showTemporaryCarryForward as of an instant: the previous year open or closed as the books stood then', async (t) => {
  const { c, open, entry, balances, exercises } = await frenchBooks('Report SARL', 'report@example.com');
  await open(year - 1);
  await entry(`${year - 1}-02-01`, '512000', '101300', '5000.00');
  await entry(`${year - 1}-05-01`, '512000', '706000', '1000.00');
  const opening = { 101300: '-5000.00', 120000: '-1000.00', 512000: '6000.00' };
  const beforeClose = await instant();
  await mutate.closeAccountingExercise(c, { id: exercises.get(year - 1) });
  await projected();
  t.same(await balances(), opening, 'closed: the posted opening, once');
  t.same(await balances(beforeClose), opening, 'as of before the close: the opening its close would post');
  const beforeReopen = await instant();
  await mutate.reopenAccountingExercise(c, { id: exercises.get(year - 1) });
  await projected();
  t.same(await balances(), opening, 'reopened: the temporary opening');
  t.same(await balances(beforeReopen), opening, 'as of before the reopening: the posted opening, not counted twice');
});

t.test('showTemporaryCarryForward walks back through every open year', async (t) => {
  const { open, entry, balances } = await frenchBooks('Deux Ans SARL', 'deuxans@example.com');
  await open(year - 2);
  await open(year - 1);
  await entry(`${year - 2}-03-01`, '512000', '101300', '5000.00');
  await entry(`${year - 1}-03-01`, '512000', '706000', '700.00');
  await projected();
  t.same(await balances(), { 101300: '-5000.00', 120000: '-700.00', 512000: '5700.00' }, 'the year before last carried through last year, last year\'s result in 120000');
});

t.test('a report\'s reads share one snapshot: readScoped with snapshot runs REPEATABLE READ READ ONLY', async (t) => {
  const settings = (options?: { snapshot: boolean }) => readScoped(db.pool, api.organisationId, async (client) =>
    (await client.query(`SELECT current_setting('transaction_isolation') AS isolation, current_setting('transaction_read_only') AS read_only`)).rows[0], options);
  t.same(await settings({ snapshot: true }), { isolation: 'repeatable read', read_only: 'on' }, 'one snapshot for every statement, nothing written');
  t.same(await settings(), { isolation: 'read committed', read_only: 'off' }, 'the lists\' reads are as before');
});

t.test('the third-party balance reads the lines of its partial edge periods by date, not every line of the organisation', async (t) => {
  const periods = await periodsOf(db.pool, api.organisationId, exercise.id);
  const spans = { period: spanOf(periods, `${year}-02-10`, `${year}-05-20`), accumulated: spanOf(periods, `${year}-01-01`, `${year}-05-20`) };
  t.ok(spans.period.days.length > 0, 'the span has partial periods');
  for (const asOf of [undefined, new Date().toISOString()]) {
    const { text, values } = partyMovementsQuery(api.organisationId, exercise.id, 'CUSTOMER', spans, {}, { asOf, excludedEntryTypes: [] });
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN; SET LOCAL enable_seqscan = off');
      const plan = (await client.query(`EXPLAIN ${text}`, values)).rows.map((r: any) => r['QUERY PLAN']).join('\n');
      t.match(plan, /(Index (Only )?Scan using \w+ on accounting_entry_lines|Bitmap Index Scan on accounting_entry_lines_\w+)[^\n]*\n\s+Index Cond: \(\(organisation_id = [^)]+\) AND \(date >=/, `the lines by organisation and date${asOf ? ', as of an instant' : ''}`);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }
});

t.test('code ranges and order are byte by byte, whatever the collation of the code column', async (t) => {
  const lines = (await db.pool.query(`SELECT DISTINCT third_party_id AS id FROM accounting_entry_lines WHERE organisation_id = $1 AND third_party_origin = 'CUSTOMER' LIMIT 2`, [api.organisationId])).rows;
  t.equal(lines.length, 2, 'two customers with lines');
  const spans = { period: { periodIds: [], days: [[`${year}-01-01`, `${year}-12-31`]] as Array<[string, string]> } };
  const client = await db.pool.connect();
  try {
    // A locale's order puts "a1" before "B1"; bytes put "B1" (0x42) first. The column takes an ICU collation here only.
    await client.query(`BEGIN; ALTER TABLE customers ALTER COLUMN code TYPE text COLLATE "und-x-icu"`);
    await client.query(`UPDATE customers SET code = CASE id WHEN $2 THEN 'a1' ELSE 'B1' END WHERE organisation_id = $1 AND id = ANY($3::uuid[])`, [api.organisationId, lines[0].id, lines.map((l: any) => l.id)]);
    const codes = async (range: { start?: string; end?: string }) => {
      const { text, values } = partyMovementsQuery(api.organisationId, exercise.id, 'CUSTOMER', spans, range, { excludedEntryTypes: [] });
      return (await client.query(text, values)).rows.map((r: any) => r.code).filter((c: string) => c === 'a1' || c === 'B1');
    };
    t.same(await codes({}), ['B1', 'a1'], 'ordered by bytes');
    t.same(await codes({ start: 'B', end: 'Z' }), ['B1'], 'B..Z holds B1, not a1');
    t.same(await codes({ start: 'a' }), ['a1'], 'from a: a1, not B1');
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
});

t.test('a report reads one snapshot: balances committed between its statements do not count', async (t) => {
  const { c, open, headers } = await frenchBooks('Instantané SARL', 'instantane@example.com');
  await open(year - 1);
  const client = await mutate.createCustomer(c, { socialName: 'Client Ancien SARL' });
  await mutate.createAccountingEntryUsingCodes(c, { date: `${year - 1}-02-01`, journalTypeCode: 'OD', accountingEntryLines: [
    { subAccountCode: '411000', debitAmount: '1000.00', thirdCode: client.code }, { subAccountCode: '706000', creditAmount: '1000.00' }] });
  await projected();
  const org = await commands.organisation(c.organisationId);
  const current = exerciseForDate(org, `${year}-01-01`)!.id;
  const period = (await db.pool.query(`SELECT id FROM accounting_periods WHERE accounting_exercise_id = $1 ORDER BY start_date LIMIT 1`, [current])).rows[0].id;
  // The report decides the carry-forward (the previous year open, its opening not posted), then its movements'
  // statement waits on the customers' table, held locked while the opening's balance is committed (as a close's
  // projection would): read in the report's first snapshot, it does not count.
  const lock = await db.pool.connect();
  t.teardown(() => lock.release());
  await lock.query(`BEGIN; LOCK TABLE ${Customer.table} IN ACCESS EXCLUSIVE MODE`);
  const report = api.gql(TPB, { input: { thirdPartyType: 'CUSTOMER', exerciseId: current, startDate: `${year}-01-01`, endDate: `${year}-12-31`, showTemporaryCarryForward: true } }, headers);
  const waiting = async () => (await db.pool.query(`SELECT count(*)::int AS n FROM pg_locks WHERE relation = $1::regclass AND NOT granted`, [Customer.table])).rows[0].n;
  for (let i = 0; i < 200 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
  t.equal(await waiting(), 1, 'the report waits between its statements');
  await db.pool.query(
    `INSERT INTO party_period_balances (organisation_id, accounting_exercise_id, accounting_period_id, third_party_origin, third_party_id, sub_account_id, entry_type, debit_amount, credit_amount, line_count)
     VALUES ($1, $2, $3, 'CUSTOMER', $4, $5, 'OPENING', 1000, 0, 1)`,
    [c.organisationId, current, period, client.id, org.accountIdByCode.get('411000')],
  );
  await lock.query('COMMIT');
  const r = await report;
  // The balances equal the lines again (contract A.5): the row stood for a projection that never ran.
  await db.pool.query(`DELETE FROM party_period_balances WHERE organisation_id = $1 AND entry_type::text = 'OPENING'`, [c.organisationId]);
  t.same(r.data.accountingThirdPartyBalance.map((row: any) => row.balance), ['1000.00'], 'the carry-forward once: the opening committed meanwhile is not in its snapshot');
});

t.test('another organisation\'s exercise reads as an unknown one', async (t) => {
  const other = await clientOf(api, 'ES', 'Otra S.L.', 'otra@example.com');
  const input = { exerciseId: exercise.id, startDate: `${year}-01-01`, endDate: `${year}-12-31` };
  const theirs = await refusal(TB, input, other.headers);
  const unknown = await refusal(TB, { ...input, exerciseId: '00000000-0000-4000-8000-000000000000' });
  t.equal(theirs.code, 'INVALID_QUERY');
  t.equal(theirs.message.replace(exercise.id, 'X'), unknown.message.replace('00000000-0000-4000-8000-000000000000', 'X'), 'the same answer as an unknown id');
  t.match(theirs.message, /exerciseId/);
  const tp = await refusal(TPB, { ...input, thirdPartyType: 'CUSTOMER' }, other.headers);
  t.equal(tp.code, 'INVALID_QUERY');
  const otherExercise = (await api.gql(`{ accountingExercises { nodes { id } } }`, {}, other.headers)).data.accountingExercises.nodes[0].id;
  t.same(await answer(TB, { ...input, exerciseId: otherExercise }, other.headers), [], 'their own books are empty');
  t.same((await answer(BS, { startDate: `${year}-01-01`, endDate: `${year}-12-31`, onlyLinesWithAmount: true }, other.headers)), [], 'their balance sheet has no amounts');
});

t.test('bad inputs are refused as INVALID_QUERY naming the field', async (t) => {
  const input = { exerciseId: exercise.id, startDate: `${year}-01-01`, endDate: `${year}-12-31` };
  const cases: Array<[string, string, object, RegExp]> = [
    ['endDate before startDate', TB, { ...input, startDate: `${year}-05-02`, endDate: `${year}-05-01` }, /input\.endDate/],
    ['startDate outside the exercise', TB, { ...input, startDate: `${year - 1}-12-31` }, /input\.startDate/],
    ['endDate outside the exercise', TB, { ...input, endDate: `${year + 1}-01-01` }, /input\.endDate/],
    ['a startDate that is no date', TB, { ...input, startDate: 'yesterday' }, /input\.startDate/],
    ['exerciseId no UUID', TB, { ...input, exerciseId: 'nope' }, /input\.exerciseId/],
    ['asOf no date-time', TB, { ...input, asOf: 'soon' }, /input\.asOf/],
    ['asOf with no offset', TB, { ...input, asOf: `${year}-01-01T00:00:00` }, /input\.asOf/],
    ['third-party dates outside', TPB, { ...input, thirdPartyType: 'SUPPLIER', endDate: `${year + 1}-02-01` }, /input\.endDate/],
    ['balance sheet endDate in no exercise', BS, { startDate: `${year}-01-01`, endDate: `${year + 3}-01-01` }, /input\.endDate/],
    ['P&L across exercises', PL, { startDate: `${year - 1}-06-01`, endDate: `${year}-01-31` }, /input\.startDate/],
    ['an unknown statement model', BS, { startDate: `${year}-01-01`, endDate: `${year}-02-01`, statementModel: 'NOPE' }, /input\.statementModel/],
  ];
  for (const [name, query, bad, field] of cases) {
    const r = await refusal(query, bad);
    t.equal(r.code, 'INVALID_QUERY', name);
    t.match(r.message, field, name);
  }
});

t.test('accountingReportPositions and accountingKpis answer in Sage\'s shapes', async (t) => {
  const positions = await answer(`query($input: AccountingReportPositionGLDtoInput!) { accountingReportPositions(input: $input) { id code accountType collectiveAccount reportPositions { id balanceGuideLineCode isMain isDetail alternativePositionIfNegative statement } } }`, {});
  t.ok(positions.length > 50, 'every account of the statements');
  t.ok(positions.every((a) => a.accountType === 'BALANCE_SHEET' || a.accountType === 'INCOME_STATEMENT'));
  const unmapped = await answer(`query($input: AccountingReportPositionGLDtoInput!) { accountingReportPositions(input: $input) { code reportPositions { isMain } } }`, { onlyUnmapped: true });
  t.ok(unmapped.every((a) => a.reportPositions.every((p: any) => !p.isMain)), 'onlyUnmapped: accounts on no main line');
  const bank = positions.find((a) => a.code === '5720000');
  const one = await answer(`query($input: AccountingReportPositionGLDtoInput!) { accountingReportPositions(input: $input) { id code reportPositions { id isMain } } }`, { accountId: bank.id });
  t.same(one.map((a) => a.code), ['5720000']);
  t.equal((await refusal(`query($input: AccountingReportPositionGLDtoInput!) { accountingReportPositions(input: $input) { id } }`, { accountId: '00000000-0000-4000-8000-000000000000' })).code, 'INVALID_QUERY');

  const kpis = await answer(`query($input: AccountingKpiInput!) { accountingKpis(input: $input) { type value currency } }`, { kpiTypes: ['TURNOVER', 'ASSETS', 'TURNOVER'], startDate: `${year}-01-01`, endDate: `${year}-12-31` });
  t.same(kpis.map((k) => [k.type, k.currency]), [['TURNOVER', 'EUR'], ['ASSETS', 'EUR']], 'each once, in the order asked');
  const sales = (await linesBy('code', `${year}-01-01`, `${year}-12-31`, undefined, excluded({ closing: false }))).get('7000000')!;
  t.equal(kpis[0].value, fixed(sales[1].minus(sales[0])), 'TURNOVER: the sales accounts\' credit balance');
  const june = { startDate: `${year}-04-01`, endDate: `${year}-06-30` };
  const [assets, result] = await answer(`query($input: AccountingKpiInput!) { accountingKpis(input: $input) { type value } }`, { kpiTypes: ['ASSETS', 'RESULT'], ...june });
  const sheet = await answer(BS, { startDate: `${year}-01-01`, endDate: june.endDate });
  t.equal(assets.value, sheet.find((r) => r.code === 'AT').amountTotal, 'ASSETS: the balance sheet\'s total assets at endDate');
  const pl = await answer(PL, june);
  t.equal(result.value, pl.find((r) => r.code === 'RA').amountTotal, 'RESULT: the P&L\'s operating result over the period');
});

t.test('ledger report writes the GraphQL answer as CSV', async (t) => {
  const input = { exerciseId: exercise.id, startDate: `${year}-02-10`, endDate: `${year}-09-20`, isTrialBalanceComparative: true };
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'report-')), 'tb.csv');
  const env = { ...process.env, DATABASE_URL: db.url, DEMO: '0', LOG_LEVEL: 'error' };
  const run = (...args: string[]) => new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'cli/ledger.ts', 'report', ...args], { env, timeout: 120_000 }, (error, stdout, stderr) => resolve({ code: error ? ((error as any).code ?? 1) : 0, stdout, stderr }));
  });
  const file = await run('trial-balance', '--org', api.organisationId, '--input', JSON.stringify(input), '--out', out);
  t.equal(file.code, 0, file.stderr);
  t.same(parseCsv(fs.readFileSync(out, 'utf8')), await answer(TB, input), 'the file holds the GraphQL rows');
  const tp = { thirdPartyType: 'CUSTOMER', exerciseId: exercise.id, startDate: `${year}-01-01`, endDate: `${year}-12-31` };
  const stdout = await run('third-party-balance', '--org', api.organisationId, '--input', JSON.stringify(tp));
  t.same(parseCsv(stdout.stdout), await answer(TPB, tp), 'standard output, a name with a comma and quotes included');
  const kpiInput = { kpiTypes: ['TURNOVER', 'ASSETS'] };
  t.same(parseCsv((await run('kpis', '--org', api.organisationId, '--input', JSON.stringify(kpiInput))).stdout), await answer(`query($input: AccountingKpiInput!) { accountingKpis(input: $input) { type value currency } }`, kpiInput));
  const bs = { startDate: `${year}-01-01`, endDate: `${year}-06-30` };
  t.same(parseCsv((await run('balance-sheet', '--org', api.organisationId, '--input', JSON.stringify(bs))).stdout), await answer(BS, bs));
  t.same(parseCsv((await run('profit-and-loss', '--org', api.organisationId, '--input', JSON.stringify(bs))).stdout), await answer(PL, bs));
  const bad = await run('trial-balance', '--org', api.organisationId, '--input', JSON.stringify({ ...input, endDate: `${year}-01-01` }));
  t.equal(bad.code, 2);
  t.match(bad.stderr, /input\.endDate/);
  t.equal(bad.stdout, '');
  const unknown = await run('cash-flow', '--org', api.organisationId, '--input', '{}');
  t.equal(unknown.code, 2);
  t.match(unknown.stderr, /trial-balance, third-party-balance/);
});

/** RFC 4180 back to rows of strings (null for an empty field), typed as GraphQL answers them. */
function parseCsv(text: string): Record<string, unknown>[] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (ch === '"') quoted = false; else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { record.push(field); field = ''; } else if (ch === '\r' && text[i + 1] === '\n') { record.push(field); records.push(record); record = []; field = ''; i++; } else field += ch;
  }
  const [header, ...rows] = records;
  const typed = (name: string, value: string) => (value === '' ? null : name === 'order' ? Number(value) : name === 'multiColumn' ? value === 'true' : value);
  return rows.map((r) => Object.fromEntries(header.map((name, i) => [name, typed(name, r[i])])));
}

t.test('while the balance tables are not swapped in (an upgrade\'s rebuild), the reports say the read models are behind', async (t) => {
  const input = { exerciseId: exercise.id, startDate: `${year}-01-01`, endDate: `${year}-12-31` };
  await db.pool.query('ALTER TABLE account_day_balances RENAME TO account_day_balances_aside');
  try {
    const r = await api.gql(TB, { input });
    t.equal(r.errors?.[0]?.extensions?.code, 'READ_MODELS_BEHIND');
    t.equal(r.errors?.[0]?.extensions?.reason, 'rebuilding');
  } finally {
    await db.pool.query('ALTER TABLE account_day_balances_aside RENAME TO account_day_balances');
  }
  t.ok((await answer(TB, input)).length > 0, 'and read them once they are');
});
