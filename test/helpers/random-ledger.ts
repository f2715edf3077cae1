/**
 * Random balanced ledgers over a country's master chart, for the statement tests: entries of two lines (an amount in
 * cents debited to one posting account and credited to another), folded into balances by account code.
 */
import fc from 'fast-check';
import { Decimal } from '../../domain/money.ts';
import { MASTER_CHARTS, type MasterChart } from '../../domain/reference/charts.ts';
import type { AccountBalance, StatementModel } from '../../domain/reports/statements.ts';

export interface RandomEntry { debit: string; credit: string; cents: number }

export function chartOf(country: string): MasterChart {
  const chart = MASTER_CHARTS.find((c) => c.countries.includes(country as never));
  if (!chart) throw new Error(`no chart for ${country}`);
  return chart;
}

/** The chart's posting accounts that a statement places (off-statement ones left out: they net to zero by design). */
export function postingAccounts(country: string, model: StatementModel): string[] {
  return chartOf(country).lines
    .filter((l) => l.accountLevel === 'SUB_ACCOUNT')
    .map((l) => l.code)
    .filter((code) => !model.offStatement.some((o) => code.startsWith(o.prefix)));
}

export function entriesArbitrary(accounts: readonly string[], maxEntries = 40): fc.Arbitrary<RandomEntry[]> {
  const account = fc.constantFrom(...accounts);
  return fc.array(fc.record({ debit: account, credit: account, cents: fc.integer({ min: 1, max: 100_000_000 }) }), { minLength: 1, maxLength: maxEntries });
}

export function balancesOf(entries: readonly RandomEntry[]): Map<string, AccountBalance> {
  const balances = new Map<string, AccountBalance>();
  const add = (code: string, side: 'debit' | 'credit', amount: Decimal): void => {
    const b = balances.get(code) ?? { debit: new Decimal(0), credit: new Decimal(0) };
    balances.set(code, { ...b, [side]: b[side].plus(amount) });
  };
  for (const e of entries) {
    const amount = new Decimal(e.cents).dividedBy(100);
    add(e.debit, 'debit', amount);
    add(e.credit, 'credit', amount);
  }
  return balances;
}
