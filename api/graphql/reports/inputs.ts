/**
 * What every report's input shares: days, the exercise they fall in, `asOf`, the entry types shown, and the
 * organisation's currency and country. A bad value is refused as INVALID_QUERY naming the input's field; an
 * exercise of another organisation is not seen (row-level security) and so reads as unknown.
 */
import { GraphQLError } from 'graphql';
import type pg from 'pg';
import { nextDay } from '../../../domain/calendar.ts';
import { isUuid } from '../../../domain/ids.ts';
import { Decimal } from '../../../domain/money.ts';
import { AccountingExercise, OrganizationCurrency } from '../../../projections/accounting/read-models.ts';
import { Organisation } from '../../../projections/accounting/organisation.ts';
import { asOfInstant } from '../../../projections/reports/as-of.ts';
import { dayOf } from '../sales-kpis.ts';
import { CLOSING_ENTRY_TYPES, OPENING_ENTRY_TYPE } from '../../../domain/accounting/enums.ts';
import { exerciseBalances, periodsOf, spanOf, yearEndEntriesHeld, type Day, type Period, type Reading, type Span } from '../../../projections/reports/sql.ts';
import type { OrganisationState } from '../../../domain/accounting/organisation.ts';
import { temporaryOpening, type YearEndBalance, type YearEndLine } from '../../../domain/accounting/year-end.ts';

export { dayOf };

export const invalid = (field: string, message: string) => new GraphQLError(`input.${field}: ${message}`, { extensions: { code: 'INVALID_QUERY', field: `input.${field}` } });

/** `asOf` and the flags that choose which entries count, as every report's input names them. */
export const READING_FIELDS = `
  "The books as they stood at this instant (the events recorded up to it; an ISO 8601 date-time with Z or an offset); now when absent or later. Ours."
  asOf: DateTime`;

/** `asOf` as an ISO instant (projections/reports/as-of.ts: an offset required; the future taken as now). */
export const asOfOf = (value: unknown, now: Date): string | undefined => asOfInstant(value, now)?.toISOString();

/**
 * Which entry types count: closing entries (CLOSURE_*) unless `showClosingEntries` is false; the temporary
 * carry-forward of a year not yet closed only when `showTemporaryCarryForward` is true.
 */
export function readingOf(input: { asOf?: unknown; showClosingEntries?: boolean | null; showTemporaryCarryForward?: boolean | null }, now: Date): Reading {
  const excluded: string[] = [];
  if (input.showClosingEntries === false) excluded.push(...CLOSING_ENTRY_TYPES);
  if (input.showTemporaryCarryForward !== true) excluded.push('TEMPORARY_CARRY_FORWARD');
  return { asOf: asOfOf(input.asOf, now), excludedEntryTypes: excluded };
}

/** What a report is given besides its input: the service's clock and the organisation's state (its chart). */
export interface ReportEnv {
  now: Date;
  organisation(): Promise<OrganisationState>;
}

export interface Exercise {
  id: string;
  start: Day;
  end: Day;
  periods: Period[];
}

const EXERCISE_COLUMNS = `id, to_char(start_date AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS start, to_char(end_date AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "end"`;

async function withPeriods(db: pg.PoolClient, organisationId: string, row: { id: string; start: Day; end: Day }): Promise<Exercise> {
  return { ...row, periods: await periodsOf(db, organisationId, row.id) };
}

/** The organisation's exercise of that id (`field` names it in a refusal). */
export async function exerciseById(db: pg.PoolClient, organisationId: string, id: unknown, field = 'exerciseId'): Promise<Exercise> {
  if (!isUuid(id)) throw invalid(field, `${JSON.stringify(String(id ?? '').slice(0, 40))} is not a UUID`);
  const { rows } = await db.query(`SELECT ${EXERCISE_COLUMNS} FROM ${AccountingExercise.table} WHERE organisation_id = $1 AND id = $2`, [organisationId, id]);
  if (!rows[0]) throw invalid(field, `no accounting exercise ${id} in this organisation`);
  return withPeriods(db, organisationId, rows[0]);
}

/** The organisation's exercise holding that day (`field` names it in a refusal). */
export async function exerciseHolding(db: pg.PoolClient, organisationId: string, day: Day, field: string): Promise<Exercise> {
  const { rows } = await db.query(
    `SELECT ${EXERCISE_COLUMNS} FROM ${AccountingExercise.table}
      WHERE organisation_id = $1 AND (start_date AT TIME ZONE 'UTC')::date <= $2::date AND (end_date AT TIME ZONE 'UTC')::date >= $2::date`,
    [organisationId, day],
  );
  if (!rows[0]) throw invalid(field, `${day} is in no accounting exercise of this organisation`);
  return withPeriods(db, organisationId, rows[0]);
}

/** How many open exercises back the temporary carry-forward walks (each one read costs two statements). */
const CARRY_FORWARD_DEPTH = 20;

/**
 * The exercises before `exercise`, nearest first, each ending the day before the next starts, while not closed as
 * the books stood at `asOf`: the next one holds no opening (OPENING) and it holds no closing entries (CLOSURE_*).
 * Decided from the entries, not from the exercises' status now: a close or a reopening after `asOf` does not count.
 */
async function openExercisesBefore(db: pg.PoolClient, organisationId: string, exercise: Exercise, asOf?: string): Promise<Array<{ id: string; start: Day }>> {
  const { rows } = await db.query(
    `SELECT id, to_char(start_date AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS start, to_char(end_date AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "end"
       FROM ${AccountingExercise.table} WHERE organisation_id = $1 AND (end_date AT TIME ZONE 'UTC')::date < $2::date
      ORDER BY start_date DESC LIMIT ${CARRY_FORWARD_DEPTH}`,
    [organisationId, exercise.start],
  );
  const held = await yearEndEntriesHeld(db, organisationId, [exercise.id, ...rows.map((r) => r.id)], asOf);
  const open = [];
  let next: { id: string; start: Day } = exercise;
  for (const previous of rows as Array<{ id: string; start: Day; end: Day }>) {
    const adjoining = nextDay(previous.end) === next.start;
    const closed = held.has(`${next.id} ${OPENING_ENTRY_TYPE}`) || CLOSING_ENTRY_TYPES.some((type) => held.has(`${previous.id} ${type}`));
    if (!adjoining || closed) break;
    open.push(previous);
    next = previous;
  }
  return open;
}

/** Balances and carried lines summed per account and third party (temporaryOpening takes one balance per key). */
function summed(balances: readonly YearEndBalance[]): YearEndBalance[] {
  const sums = new Map<string, YearEndBalance>();
  for (const b of balances) {
    const key = `${b.subAccountId}|${b.thirdPartyId ?? ''}`;
    const sum = sums.get(key);
    sums.set(key, sum ? { ...sum, debit: sum.debit.plus(b.debit), credit: sum.credit.plus(b.credit) } : b);
  }
  return [...sums.values()];
}

/**
 * showTemporaryCarryForward: while the previous exercise is not closed, the opening its close would post
 * (domain/accounting/year-end.ts temporaryOpening: its balance-sheet balances, the year's result in the result
 * account) counts on the exercise's first day, as the books stood at `asOf`; an open exercise before it carries its
 * own temporary opening into it first, oldest first. Nothing is added once it is closed: its real opening entry
 * (OPENING) is in the books then.
 */
export async function withCarryForward(db: pg.PoolClient, organisationId: string, exercise: Exercise, reading: Reading, env: ReportEnv): Promise<Reading> {
  if (exercise.periods.length === 0) return reading;
  const open = await openExercisesBefore(db, organisationId, exercise, reading.asOf);
  if (open.length === 0) return reading;
  const organisation = await env.organisation();
  let carried: YearEndLine[] = [];
  for (const previous of open.reverse()) {
    const balances = (await exerciseBalances(db, organisationId, previous.id, reading.asOf)).map((b): YearEndBalance => ({
      subAccountId: b.sub_account_id, thirdCode: null, thirdPartyId: b.third_party_id, thirdPartyOrigin: b.third_party_origin as never,
      debit: new Decimal(b.debit ?? 0), credit: new Decimal(b.credit ?? 0),
    }));
    const opening = carried.map((l): YearEndBalance => ({ ...l, thirdCode: null, debit: new Decimal(l.debitAmount), credit: new Decimal(l.creditAmount) }));
    carried = temporaryOpening(organisation, summed([...balances, ...opening]));
  }
  return { ...reading, virtual: { day: exercise.start, periodId: exercise.periods[0].id, lines: carried } };
}

/** startDate..endDate, in order and within the exercise. */
export function datesWithin(exercise: Exercise, input: { startDate?: unknown; endDate?: unknown }): { start: Day; end: Day } {
  const start = dayOf(input.startDate, 'startDate');
  const end = dayOf(input.endDate, 'endDate');
  if (end < start) throw invalid('endDate', `${end} is before startDate ${start}`);
  if (start < exercise.start || start > exercise.end) throw invalid('startDate', `${start} is outside the exercise (${exercise.start} to ${exercise.end})`);
  if (end > exercise.end) throw invalid('endDate', `${end} is outside the exercise (${exercise.start} to ${exercise.end})`);
  return { start, end };
}

/** The period's span and, when asked, the exercise's from its first day (the accumulated columns). */
export function spansOf(exercise: Exercise, dates: { start: Day; end: Day }, accumulated: boolean): { period: Span; accumulated?: Span } {
  return { period: spanOf(exercise.periods, dates.start, dates.end), ...(accumulated ? { accumulated: spanOf(exercise.periods, exercise.start, dates.end) } : {}) };
}

export interface OrganisationFacts {
  country: string;
  currency: string | null;
  precision: number;
}

export async function organisationFacts(db: pg.PoolClient, organisationId: string): Promise<OrganisationFacts> {
  const { rows } = await db.query(
    `SELECT o.country, c.code, c.precision FROM ${Organisation.table} o
       LEFT JOIN ${OrganizationCurrency.table} c ON c.organisation_id = o.id AND c.is_base_currency
      WHERE o.id = $1`,
    [organisationId],
  );
  // (Every organisation has a base currency from its creation; the precision is an integer put into no SQL.)
  return { country: rows[0]?.country ?? 'ES', currency: rows[0]?.code ?? null, precision: Math.trunc(Number(rows[0]?.precision ?? 2)) };
}

/** Debit, credit and the balance split by sign, at the currency's precision: the columns every balance report has. */
export function balanceColumns(debit: Decimal.Value | null, credit: Decimal.Value | null, precision: number) {
  const d = new Decimal(debit ?? 0);
  const c = new Decimal(credit ?? 0);
  const balance = d.minus(c);
  const fixed = (v: Decimal) => v.toFixed(precision);
  return {
    debitAmount: fixed(d), creditAmount: fixed(c), balance: fixed(balance),
    debitBalance: fixed(balance.isPos() && !balance.isZero() ? balance : new Decimal(0)),
    creditBalance: fixed(balance.isNeg() && !balance.isZero() ? balance : new Decimal(0)),
  };
}

/** The Sage columns of a period and, accumulated, of the exercise up to its end (zeros when not comparative). */
export function reportColumns(row: { debit: string | null; credit: string | null; accumulated_debit: string | null; accumulated_credit: string | null }, precision: number) {
  const p = balanceColumns(row.debit, row.credit, precision);
  const a = balanceColumns(row.accumulated_debit, row.accumulated_credit, precision);
  return {
    ...p,
    accumulatedDebitAmount: a.debitAmount, accumulatedCreditAmount: a.creditAmount, accumulatedBalance: a.balance,
    accumulatedDebitBalance: a.debitBalance, accumulatedCreditBalance: a.creditBalance,
  };
}

/** isWithoutZeroBalance: a row whose balances (the period's, and the accumulated one when asked) are all zero goes. */
export const hasBalance = (row: { balance: string; accumulatedBalance: string }) => !new Decimal(row.balance).isZero() || !new Decimal(row.accumulatedBalance).isZero();
