/**
 * STAND-IN for H2's reports/balances.ts (contract B), so that the report queries run before the balance tables
 * land: the same grains and columns, summed from the lines and their entries. Replaced by H2's file on merge.
 */
export type BalanceGrain = 'account_period' | 'account_day' | 'party_period';

const KEYS: Record<BalanceGrain, string> = {
  account_period: 'e.accounting_exercise_id, e.accounting_period_id, l.sub_account_id, e.entry_type',
  account_day: `e.accounting_exercise_id, (e.date AT TIME ZONE 'UTC')::date AS date, l.sub_account_id, e.entry_type`,
  party_period: 'e.accounting_exercise_id, e.accounting_period_id, l.third_party_origin, l.third_party_id, l.sub_account_id, e.entry_type',
};
const GROUPS: Record<BalanceGrain, number> = { account_period: 4, account_day: 4, party_period: 6 };

export function balancesFrom(grain: BalanceGrain, alias: string, asOfParam?: number): string {
  const groups = Array.from({ length: GROUPS[grain] }, (_, i) => i + 1).join(', ');
  return `(SELECT l.organisation_id, ${KEYS[grain]}, sum(coalesce(l.debit_amount, 0)) AS debit_amount, sum(coalesce(l.credit_amount, 0)) AS credit_amount, count(*)::int AS line_count
    FROM accounting_entry_lines l JOIN accounting_entries e ON e.organisation_id = l.organisation_id AND e.id = l.accounting_entry_id
    WHERE l.organisation_id = $1${grain === 'party_period' ? ' AND l.third_party_id IS NOT NULL' : ''}${asOfParam ? ` AND l.creation_date <= $${asOfParam}::timestamptz` : ''}
    GROUP BY 1, ${groups.split(', ').map((n) => Number(n) + 1).join(', ')}) AS ${alias}`;
}
