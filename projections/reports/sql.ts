/**
 * The reports' SQL, shared by the GraphQL roots and `ledger report`: movements per account (or per third party
 * and account) over a span of days of one exercise, read from the balances the entries projection keeps, always
 * through `balancesFrom` so that `asOf` reads every report the same way. Whole periods of the span come from the
 * period grain, the days of its partial edge periods from the day grain (or, for third parties, from the lines).
 * Every function is given a client already confined to the organisation ($1 is its id in every statement).
 */
import type pg from 'pg';
import { CLOSING_ENTRY_TYPES, OPENING_ENTRY_TYPE } from '../../domain/accounting/enums.ts';
import { AccountingAccount, AccountingPeriod } from '../accounting/read-models.ts';
import { Customer, Employee, Supplier } from '../parties/read-models.ts';
import { balancesFrom } from './balances.ts';

/** A day: YYYY-MM-DD. */
export type Day = string;

/** What a report reads: which entry types count, and the books as of when (an ISO instant) or now. */
export interface Reading {
  asOf?: string;
  /** Entry types left out (AccountingEntryType values). */
  excludedEntryTypes: readonly string[];
  /** Lines the books do not hold that the report adds on `day` (of period `periodId`): a temporary carry-forward. */
  virtual?: { day: Day; periodId: string; lines: readonly VirtualLine[] };
}

/** A line of no entry (the opening the previous exercise's close would post: domain/accounting/year-end.ts). */
export interface VirtualLine {
  subAccountId: string;
  thirdPartyId: string | null;
  thirdPartyOrigin: string | null;
  debitAmount: string;
  creditAmount: string;
}

export interface Period {
  id: string;
  start: Day;
  end: Day;
}

/** Days of one exercise: its whole periods by id, and the days of the periods it covers in part. */
export interface Span {
  periodIds: string[];
  days: Array<[Day, Day]>;
}

const nextDay = (day: Day, by: number) => new Date(Date.parse(`${day}T00:00:00Z`) + by * 86_400_000).toISOString().slice(0, 10);

/** from..to (both included) as whole periods plus the days outside them; the periods are the exercise's, in order. */
export function spanOf(periods: readonly Period[], from: Day, to: Day): Span {
  const whole = periods.filter((p) => p.start >= from && p.end <= to);
  if (whole.length === 0) return { periodIds: [], days: [[from, to]] };
  const first = whole[0].start;
  const last = whole[whole.length - 1].end;
  const days: Array<[Day, Day]> = [];
  if (from < first) days.push([from, nextDay(first, -1)]);
  if (to > last) days.push([nextDay(last, 1), to]);
  return { periodIds: whole.map((p) => p.id), days };
}

/** The exercise's periods as days, in order. */
export async function periodsOf(db: pg.Pool | pg.PoolClient, organisationId: string, exerciseId: string): Promise<Period[]> {
  const { rows } = await db.query(
    `SELECT id, to_char(start_date AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS start, to_char(end_date AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "end"
       FROM ${AccountingPeriod.table} WHERE organisation_id = $1 AND accounting_exercise_id = $2 ORDER BY start_date`,
    [organisationId, exerciseId],
  );
  return rows;
}

/** Positional parameters after $1 (the organisation). */
class Params {
  readonly values: unknown[];
  constructor(organisationId: string) {
    this.values = [organisationId];
  }
  add(value: unknown, cast = ''): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}

/** The as-of instant's parameter number, when there is one (balancesFrom refers to it). */
const asOfParam = (params: Params, reading: Reading) => (reading.asOf ? Number(params.add(reading.asOf, '').slice(1)) : undefined);

/**
 * The lines of third parties by day, with the columns of the party grain plus `date` (contract A's hidden line
 * columns): those recorded by `asOf` and not deleted by then (a deleted line's tombstone keeps its key).
 */
function partyDaysFrom(alias: string, asOf?: number): string {
  const columns = 'organisation_id, accounting_exercise_id, date, third_party_origin, third_party_id, sub_account_id, entry_type, debit_amount, credit_amount';
  const lines = `SELECT ${columns} FROM accounting_entry_lines WHERE organisation_id = $1 AND third_party_id IS NOT NULL${asOf ? ` AND recorded_at <= $${asOf}` : ''}`;
  const deleted = asOf ? ` UNION ALL SELECT ${columns} FROM deleted_entry_lines WHERE organisation_id = $1 AND third_party_id IS NOT NULL AND recorded_at <= $${asOf} AND deleted_at > $${asOf}` : '';
  return `(${lines}${deleted}) AS ${alias}`;
}

type Grains = { period: string; day: string };
const ACCOUNT_GRAINS = (asOf?: number): Grains => ({ period: balancesFrom('account_period', 'b', asOf), day: balancesFrom('account_day', 'b', asOf) });
const PARTY_GRAINS = (asOf?: number): Grains => ({ period: balancesFrom('party_period', 'b', asOf), day: partyDaysFrom('b', asOf) });

export type Spans = { period: Span; accumulated?: Span };

/**
 * The spans' movements as `SELECT col, <keys>, debit_amount, credit_amount`, col 'p' (the period) or 'a' (the
 * accumulated span): each grain read once (one as-of correction each, however many spans), its rows joined to the
 * spans they fall in (a row of both counts in both).
 */
function movements(grains: Grains, keys: string, exerciseId: string, spans: Spans, params: Params, reading: Reading): string {
  const tagged = Object.entries({ p: spans.period, a: spans.accumulated }).filter((e): e is [string, Span] => e[1] !== undefined);
  const periods = tagged.flatMap(([col, span]) => span.periodIds.map((id) => [col, id]));
  const days = tagged.flatMap(([col, span]) => span.days.map(([from, to]) => [col, from, to]));
  const exercise = params.add(exerciseId, '::uuid');
  const types = reading.excludedEntryTypes.length ? ` AND b.entry_type <> ALL(${params.add(reading.excludedEntryTypes, '::text[]')})` : '';
  const select = `SELECT s.col, ${keys}, b.debit_amount, b.credit_amount FROM`;
  const parts = [];
  if (periods.length) {
    parts.push(`${select} ${grains.period}
      JOIN unnest(${params.add(periods.map((p) => p[0]), '::text[]')}, ${params.add(periods.map((p) => p[1]), '::uuid[]')}) AS s(col, period_id) ON s.period_id = b.accounting_period_id
      WHERE b.accounting_exercise_id = ${exercise} AND b.accounting_period_id = ANY(${params.add([...new Set(periods.map((p) => p[1]))], '::uuid[]')})${types}`);
  }
  if (days.length) {
    parts.push(`${select} ${grains.day}
      JOIN unnest(${params.add(days.map((d) => d[0]), '::text[]')}, ${params.add(days.map((d) => d[1]), '::date[]')}, ${params.add(days.map((d) => d[2]), '::date[]')}) AS s(col, from_day, to_day)
        ON b.date BETWEEN s.from_day AND s.to_day
      WHERE b.accounting_exercise_id = ${exercise} AND b.date BETWEEN ${params.add(days.map((d) => d[1]).sort()[0], '::date')} AND ${params.add(days.map((d) => d[2]).sort().at(-1), '::date')}${types}`);
  }
  const virtual = reading.virtual;
  const covering = virtual ? tagged.filter(([, span]) => span.periodIds.includes(virtual.periodId) || span.days.some(([from, to]) => from <= virtual.day && virtual.day <= to)) : [];
  if (virtual && virtual.lines.length && covering.length) {
    const column = (f: (l: VirtualLine) => unknown, cast: string) => params.add(virtual.lines.map(f), cast);
    parts.push(`${select} unnest(${column((l) => l.subAccountId, '::uuid[]')}, ${column((l) => l.thirdPartyId, '::uuid[]')}, ${column((l) => l.thirdPartyOrigin, '::text[]')},
        ${column((l) => l.debitAmount, '::numeric[]')}, ${column((l) => l.creditAmount, '::numeric[]')}) AS b(sub_account_id, third_party_id, third_party_origin, debit_amount, credit_amount)
      CROSS JOIN unnest(${params.add(covering.map(([col]) => col), '::text[]')}) AS s(col)`);
  }
  return parts.join('\n UNION ALL\n');
}

/** Sums per key: d/c of the period span ('p') and of the accumulated one ('a'). */
const SUMS = `sum(debit_amount) FILTER (WHERE col = 'p') AS debit, sum(credit_amount) FILTER (WHERE col = 'p') AS credit,
  sum(debit_amount) FILTER (WHERE col = 'a') AS accumulated_debit, sum(credit_amount) FILTER (WHERE col = 'a') AS accumulated_credit`;

/** Codes compare byte by byte, whatever the database's collation (a locale's order would move codes between ranges). */
const byBytes = (sql: string) => `${sql} COLLATE "C"`;

/** The code range: from `start` (as text), up to every code that `end` begins or precedes (an end of "43" takes 4300001). */
function codeRange(column: string, params: Params, start?: string | null, end?: string | null): string {
  const conditions = [];
  if (start) conditions.push(`${byBytes(column)} >= ${params.add(start)}`);
  if (end) {
    const p = params.add(end);
    conditions.push(`${byBytes(`left(${column}, length(${p}))`)} <= ${p}`);
  }
  return conditions.length ? ` AND ${conditions.join(' AND ')}` : '';
}

export interface MovementRow {
  debit: string | null;
  credit: string | null;
  accumulated_debit: string | null;
  accumulated_credit: string | null;
}

export interface AccountMovementRow extends MovementRow {
  sub_account_id: string;
  code: string;
  description: string | null;
  account_type: string;
}

/** Per account of the code range with movements in either span: the period's and the accumulated sums, by code. */
export async function accountMovements(
  db: pg.PoolClient, organisationId: string, exerciseId: string,
  spans: Spans, range: { start?: string | null; end?: string | null }, reading: Reading,
): Promise<AccountMovementRow[]> {
  const params = new Params(organisationId);
  const grains = ACCOUNT_GRAINS(asOfParam(params, reading));
  const sql = `WITH m AS (${movements(grains, 'b.sub_account_id', exerciseId, spans, params, reading)}),
    s AS (SELECT sub_account_id, ${SUMS} FROM m GROUP BY sub_account_id)
    SELECT s.*, a.code, coalesce(a.name, a.description) AS description, a.account_type
      FROM s JOIN ${AccountingAccount.table} a ON a.organisation_id = $1 AND a.id = s.sub_account_id
     WHERE true${codeRange('a.code', params, range.start, range.end)}
     ORDER BY ${byBytes('a.code')}, a.id`;
  return (await db.query(sql, params.values)).rows;
}

export interface PartyMovementRow extends MovementRow {
  third_party_id: string;
  code: string | null;
  description: string | null;
}

const PARTY_TABLES: Record<string, { table: string; name: string }> = {
  CUSTOMER: { table: Customer.table, name: 'social_name' },
  SUPPLIER: { table: Supplier.table, name: 'social_name' },
  EMPLOYEE: { table: Employee.table, name: 'name' },
};

/** Per third party of one kind (and of the code range, on its current code): the period's and the accumulated sums. */
export async function partyMovements(
  db: pg.PoolClient, organisationId: string, exerciseId: string, origin: string,
  spans: Spans, range: { start?: string | null; end?: string | null }, reading: Reading,
): Promise<PartyMovementRow[]> {
  const { text, values } = partyMovementsQuery(organisationId, exerciseId, origin, spans, range, reading);
  return (await db.query(text, values)).rows;
}

/** partyMovements' statement (its plan is checked by a test: the lines of the edge days are read by date). */
export function partyMovementsQuery(
  organisationId: string, exerciseId: string, origin: string,
  spans: Spans, range: { start?: string | null; end?: string | null }, reading: Reading,
): { text: string; values: unknown[] } {
  const party = PARTY_TABLES[origin];
  if (!party) throw new Error(`no third parties of kind ${origin}`);
  const params = new Params(organisationId);
  const grains = PARTY_GRAINS(asOfParam(params, reading));
  const kind = params.add(origin);
  const keys = 'b.third_party_id, b.third_party_origin';
  const sql = `WITH m AS (${movements(grains, keys, exerciseId, spans, params, reading)}),
    s AS (SELECT third_party_id, ${SUMS} FROM m WHERE third_party_origin = ${kind} GROUP BY third_party_id)
    SELECT s.*, p.code, p.${party.name} AS description
      FROM s LEFT JOIN ${party.table} p ON p.organisation_id = $1 AND p.id = s.third_party_id
     WHERE true${codeRange('p.code', params, range.start, range.end)}
     ORDER BY ${byBytes('p.code')}, s.third_party_id`;
  return { text: sql, values: params.values };
}

export interface ExerciseBalanceRow {
  sub_account_id: string;
  third_party_id: string | null;
  third_party_origin: string | null;
  debit: string;
  credit: string;
}


/**
 * A whole exercise's balances per account and third party before its close (what its year end carries forward):
 * each party's on its accounts, and the rest of each account's without a party; closing entries left out.
 */
export async function exerciseBalances(db: pg.PoolClient, organisationId: string, exerciseId: string, asOf?: string): Promise<ExerciseBalanceRow[]> {
  const params = new Params(organisationId);
  const at = asOfParam(params, { asOf, excludedEntryTypes: [] });
  const exercise = params.add(exerciseId, '::uuid');
  const open = `b.accounting_exercise_id = ${exercise} AND b.entry_type::text <> ALL(${params.add(CLOSING_ENTRY_TYPES, '::text[]')})`;
  const sql = `WITH a AS (SELECT sub_account_id, sum(debit_amount) AS debit, sum(credit_amount) AS credit FROM ${balancesFrom('account_period', 'b', at)} WHERE ${open} GROUP BY 1),
    p AS (SELECT sub_account_id, third_party_id, third_party_origin::text, sum(debit_amount) AS debit, sum(credit_amount) AS credit
            FROM ${balancesFrom('party_period', 'b', at)} WHERE ${open} GROUP BY 1, 2, 3),
    ps AS (SELECT sub_account_id, sum(debit) AS debit, sum(credit) AS credit FROM p GROUP BY 1)
    SELECT * FROM p
    UNION ALL
    SELECT a.sub_account_id, NULL, NULL, a.debit - coalesce(ps.debit, 0), a.credit - coalesce(ps.credit, 0) FROM a LEFT JOIN ps USING (sub_account_id)`;
  return (await db.query(sql, params.values)).rows;
}

/** Which of the exercises held year-end entries (closing ones, an opening) as the books stood at `asOf`: `${exerciseId} ${entryType}`. */
export async function yearEndEntriesHeld(db: pg.PoolClient, organisationId: string, exerciseIds: readonly string[], asOf?: string): Promise<Set<string>> {
  const params = new Params(organisationId);
  const at = asOfParam(params, { asOf, excludedEntryTypes: [] });
  const { rows } = await db.query(
    `SELECT DISTINCT b.accounting_exercise_id AS exercise, b.entry_type::text AS type FROM ${balancesFrom('account_period', 'b', at)}
      WHERE b.accounting_exercise_id = ANY(${params.add(exerciseIds, '::uuid[]')}) AND b.entry_type::text = ANY(${params.add([...CLOSING_ENTRY_TYPES, OPENING_ENTRY_TYPE], '::text[]')})`,
    params.values,
  );
  return new Set(rows.map((r: { exercise: string; type: string }) => `${r.exercise} ${r.type}`));
}
