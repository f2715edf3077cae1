/**
 * accountingKpis' indicators as account prefixes: each country names the statement lines an indicator is (or, where
 * no line fits, its prefixes), and the prefixes follow from those lines' terms. Summing Σ sign × (debit − credit)
 * over accounts by prefix gives what the lines give: a longer prefix routed to an unselected line is subtracted
 * again (e.g. FR "50" minus "509"), and a prefix the model splits by sign ([D]/[C]) gives a term per side, so an
 * overdrawn bank leaves TREASURY_BALANCE and ASSETS through the prefixes exactly as through the lines.
 */
import { Decimal, ZERO } from '../money.ts';
import type { BalanceSide, GuideLine, StatementModel } from './statement-model.ts';

/** value = Σ sign × (debit − credit) over the accounts under `prefix`; with `side`, only those whose balance is a debit (DEBIT) or a credit (CREDIT). */
export interface IndicatorTerm { prefix: string; sign: 1 | -1; side?: BalanceSide }
export type IndicatorSpec =
  | { readonly lines: readonly string[]; readonly direction: BalanceSide }
  | { readonly prefixes: readonly IndicatorTerm[] };

const SIDES: readonly BalanceSide[] = ['DEBIT', 'CREDIT'];

/**
 * The terms that sum what the indicator's lines give. Main and detail lines resolve apart (an account is on one main
 * line and at most one detail line), so each gives its own terms. In each, for a prefix and a balance side: is the
 * line an account of that side goes to (its term of that side, else its first, as evaluate() routes it) selected?
 * The term's coefficient is that answer less its nearest shorter prefix's, so a longer prefix routed elsewhere is
 * taken out again; a prefix whose two sides agree gives one unsided term.
 */
export function indicatorPrefixes(balanceSheet: StatementModel, spec: IndicatorSpec): readonly IndicatorTerm[] {
  if ('prefixes' in spec) return spec.prefixes;
  const models = [balanceSheet, balanceSheet.companion!];
  const lineOf = (code: string): { model: StatementModel; line: GuideLine } => {
    for (const model of models) {
      const line = model.lines.find((l) => l.code === code);
      if (line) return { model, line };
    }
    throw new Error(`${balanceSheet.key}: indicator line ${code} is on neither statement`);
  };
  const selected = new Set<GuideLine>();
  const collect = (code: string): void => {
    const { model, line } = lineOf(code);
    selected.add(line);
    for (const ref of line.lines ?? []) collect(ref.code);
    if (line.result && model.statement === 'BALANCE_SHEET') collect(model.companion!.resultLine!);
  };
  for (const code of spec.lines) collect(code);
  const sign = spec.direction === 'DEBIT' ? 1 : -1;
  const out: IndicatorTerm[] = [];
  for (const detail of [false, true]) {
    const placed = new Map<string, { line: GuideLine; side?: BalanceSide }[]>();
    for (const line of models.flatMap((m) => m.lines)) {
      if (!!line.detailOf !== detail) continue;
      for (const term of line.accounts ?? []) placed.set(term.prefix, [...(placed.get(term.prefix) ?? []), { line, ...(term.side ? { side: term.side } : {}) }]);
    }
    const takes = (prefix: string | undefined, side: BalanceSide): number => {
      const found = prefix === undefined ? undefined : placed.get(prefix);
      if (!found) return 0;
      const target = found.find((p) => !p.side) ?? found.find((p) => p.side === side) ?? found[0]!;
      return selected.has(target.line) ? 1 : 0;
    };
    const parentOf = (prefix: string): string | undefined => {
      for (let length = prefix.length - 1; length > 0; length--) if (placed.has(prefix.slice(0, length))) return prefix.slice(0, length);
      return undefined;
    };
    for (const prefix of [...placed.keys()].sort()) {
      const [debit, credit] = SIDES.map((side) => takes(prefix, side) - takes(parentOf(prefix), side));
      if (debit === credit) {
        if (debit !== 0) out.push({ prefix, sign: (sign * debit) as 1 | -1 });
        continue;
      }
      if (debit !== 0) out.push({ prefix, sign: (sign * debit) as 1 | -1, side: 'DEBIT' });
      if (credit !== 0) out.push({ prefix, sign: (sign * credit) as 1 | -1, side: 'CREDIT' });
    }
  }
  return out;
}

/** Σ of the terms over the balances (what indicatorAccounts' terms mean). */
export function sumTerms(terms: readonly IndicatorTerm[], balances: Iterable<readonly [string, { debit: Decimal; credit: Decimal }]>): Decimal {
  let sum = ZERO;
  for (const [code, { debit, credit }] of balances) {
    const balance = debit.minus(credit);
    for (const term of terms) {
      if (!code.startsWith(term.prefix)) continue;
      if (term.side === 'DEBIT' ? !balance.gt(0) : term.side === 'CREDIT' ? !balance.lt(0) : false) continue;
      sum = sum.plus(balance.times(term.sign));
    }
  }
  return sum;
}
