/** Checks of a posted entry's lines as GraphQL reads them ({ subAccount { code } debitAmount creditAmount }). */
import type { TAP } from 'tap';
import { Decimal } from '../../domain/money.ts';

type Line = { subAccount: { code: string }; debitAmount: string | null; creditAmount: string | null };

/** A zero side reads as null, so an expectation names only the side an account is on. */
const side = (amount: string | null) => (amount === null || new Decimal(amount).isZero() ? null : amount);

/** Per account code: [debit, credit]. */
export const byAccount = (lines: readonly Line[]) => Object.fromEntries(lines.map((l) => [l.subAccount.code, [side(l.debitAmount), side(l.creditAmount)]]));

/** Debits equal credits, to the cent. */
export function balanced(t: Pick<TAP, 'equal'>, lines: readonly Line[]) {
  const sum = (k: 'debitAmount' | 'creditAmount') => lines.reduce((s, l) => s.plus(l[k] ?? 0), new Decimal(0)).toFixed(2);
  t.equal(sum('debitAmount'), sum('creditAmount'), 'the entry is balanced');
}
