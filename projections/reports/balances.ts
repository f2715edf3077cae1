/**
 * Reading the kept balances (CONTRACT19 A.2-A.4), now or as the books stood at an instant.
 *
 * As of t the books hold the lines of the events recorded up to t: the current balances, less the lines recorded
 * after t, plus the tombstones of lines recorded up to t and deleted after it. Both corrections are range scans on
 * (organisation_id, recorded_at) and (organisation_id, deleted_at), so they cost what was recorded after t. When
 * more than half the organisation's lines came after t, summing the lines recorded up to t is cheaper: a count
 * probe, capped at that half, picks the path inside the statement (each path's scans sit under a one-time filter
 * and only the chosen one runs). Both paths give the same rows (test/as-of-balances.test.ts).
 */
import type pg from 'pg';
import { AccountDayBalance, AccountPeriodBalance, DeletedEntryLine, PartyPeriodBalance } from '../accounting/balances.ts';
import { AccountingEntryLine } from '../accounting/read-models.ts';
import { COUNTS_TABLE } from '../engine/counts.ts';

export type BalanceGrain = 'account_period' | 'account_day' | 'party_period';

interface GrainTable {
  table: string;
  /** The table's key after organisation_id, in its column order. */
  keys: readonly string[];
  /** Only lines with a third party count (party_period_balances). */
  partiesOnly: boolean;
}

const GRAINS: Readonly<Record<BalanceGrain, GrainTable>> = {
  account_period: { table: AccountPeriodBalance.table, keys: ['accounting_exercise_id', 'accounting_period_id', 'sub_account_id', 'entry_type'], partiesOnly: false },
  account_day: { table: AccountDayBalance.table, keys: ['accounting_exercise_id', 'date', 'sub_account_id', 'entry_type'], partiesOnly: false },
  party_period: {
    table: PartyPeriodBalance.table,
    keys: ['accounting_exercise_id', 'accounting_period_id', 'third_party_origin', 'third_party_id', 'sub_account_id', 'entry_type'],
    partiesOnly: true,
  },
};

const LINES_TABLE = AccountingEntryLine.table;
const TOMBSTONES_TABLE = DeletedEntryLine.table;
/**
 * The probe weighs all the organisation's lines, whatever the grain: both paths scan lines by recorded_at alone (a
 * party filter is no index's). Their number is the lines' kept count (counts.ts: one row, written by the same
 * transactions as the lines, so exact in the query's snapshot; a replay's schema has its own), not a sum over the
 * organisation's period balances of every year. Only the path's cost rides on it: both paths give the same rows.
 */
const LINE_COUNT = `SELECT n FROM ${COUNTS_TABLE} WHERE table_name = '${LINES_TABLE}' AND organisation_id = $1 AND field = '' AND value = ''`;

const AMOUNTS = ['debit_amount', 'credit_amount', 'line_count'] as const;
const ALIAS = /^[a-z_][a-z0-9_]*$/;

/** The grain table's columns, in order: what every FROM item of that grain answers. */
export function balanceColumns(grain: BalanceGrain): string[] {
  return ['organisation_id', ...GRAINS[grain].keys, ...AMOUNTS];
}

/**
 * A FROM item `(SELECT ...) AS <alias>` with exactly the columns of the grain's table, as the books stood at
 * `$<asOfParam>` (a timestamptz: the events recorded up to that instant) when given, else as they are now.
 * $1 is the organisation's id.
 */
export function balancesFrom(grain: BalanceGrain, alias: string, asOfParam?: number): string {
  if (asOfParam === undefined) {
    checkAlias(alias);
    return `(SELECT ${balanceColumns(grain).join(', ')} FROM ${GRAINS[grain].table} WHERE organisation_id = $1) AS ${alias}`;
  }
  return balancesAsOf(grain, alias, asOfParam, 'probe');
}

/** How the balances as of t are summed: chosen by the probe, or (tests, to compare the paths) one of them. */
export type AsOfPath = 'probe' | 'from_now' | 'from_start';

export function balancesAsOf(grain: BalanceGrain, alias: string, asOfParam: number, path: AsOfPath): string {
  checkAlias(alias);
  if (!Number.isInteger(asOfParam) || asOfParam < 2) throw new Error(`balancesFrom: the asOf parameter must be $2 or later, not $${asOfParam}`);
  const g = GRAINS[grain];

  const t = `$${asOfParam}::timestamptz`;
  const keys = ['organisation_id', ...g.keys].join(', ');
  // Lines and tombstones give their key columns cast to the table's types, so the branches line up.
  const lineKeys = ['organisation_id', ...g.keys.map((k) => `${k}${CASTS[k] ?? ''}`)].join(', ');
  const parties = g.partiesOnly ? ' AND third_party_id IS NOT NULL' : '';
  const since = `FROM ${LINES_TABLE} WHERE organisation_id = $1 AND recorded_at > ${t}`;
  const probe = path === 'probe'
    ? `SELECT (SELECT count(*) FROM (SELECT 1 ${since} LIMIT half + 1) AS later) <= half AS from_now
      FROM (SELECT coalesce((${LINE_COUNT}), 0) / 2 AS half) AS lines`
    : `SELECT ${path === 'from_now'} AS from_now`;
  return `(WITH as_of_path AS MATERIALIZED (${probe})
    SELECT ${keys}, sum(debit_amount) AS debit_amount, sum(credit_amount) AS credit_amount, sum(line_count)::int AS line_count
    FROM (
      SELECT ${keys}, debit_amount, credit_amount, line_count FROM ${g.table}
        WHERE organisation_id = $1 AND (SELECT from_now FROM as_of_path)
      UNION ALL
      SELECT ${lineKeys}, -debit_amount, -credit_amount, -1 ${since}${parties} AND (SELECT from_now FROM as_of_path)
      UNION ALL
      SELECT ${lineKeys}, debit_amount, credit_amount, 1 FROM ${LINES_TABLE}
        WHERE organisation_id = $1 AND recorded_at <= ${t}${parties} AND NOT (SELECT from_now FROM as_of_path)
      UNION ALL
      SELECT ${lineKeys}, debit_amount, credit_amount, 1 FROM ${TOMBSTONES_TABLE}
        WHERE organisation_id = $1 AND deleted_at > ${t} AND recorded_at <= ${t}${parties}
    ) AS moves
    GROUP BY ${keys}
    HAVING sum(line_count) <> 0) AS ${alias}`;
}

/**
 * Whether the kept balances can be read in the schema the connection's search path names. A store upgraded from a
 * version without them has the entries projection rebuilt in the background (the daemon holds it aside as
 * 'rebuilding'), and its balance tables appear only when the rebuild swaps its tables in: until then any balance
 * query fails with 42P01. A report root asks first and answers READ_MODELS_BEHIND with reason 'rebuilding'
 * (api/graphql/read-your-writes.ts). One catalog look-up, no privilege needed (the reader role may ask).
 */
export async function balancesReadable(db: pg.Pool | pg.PoolClient): Promise<boolean> {
  const tables = [...Object.values(GRAINS).map((g) => g.table), TOMBSTONES_TABLE];
  const { rows } = await db.query(`SELECT bool_and(to_regclass(name) IS NOT NULL) AS readable FROM unnest($1::text[]) AS name`, [tables]);
  return rows[0].readable === true;
}

function checkAlias(alias: string): void {
  if (!ALIAS.test(alias)) throw new Error(`balancesFrom: ${JSON.stringify(alias)} is not a plain SQL alias`);
}

/** Key columns whose line and balance types could differ (the line's date, its enums kept as text). */
const CASTS: Readonly<Record<string, string>> = { date: '::date', entry_type: '::text', third_party_origin: '::text' };
