/**
 * What each accountingKpis indicator means, the same in every country (the country files name their lines for it):
 * - ASSETS: the balance sheet's total assets; EQUITY: its equity (capital and reserves, the year's result included).
 * - WORKING_CAPITAL: current assets − current liabilities. Bank overdrafts and short-term bank credit are current
 *   liabilities everywhere (ES 572[C], 520 in pasivo corriente; FR 512[C], 519: B402's "dont concours bancaires
 *   courants"; DE Bank[C] and loans due within a year: PC2's "davon"; GB and US bank[C] in their current creditors).
 *   Where the legal model does not split debts by maturity (FR, DE), the short-term ones are those its lines name.
 * - TREASURY_BALANCE: cash and banks − bank overdrafts and short-term bank credit (the same two pieces).
 * - TURNOVER: net revenue from sales and services.
 * - PURCHASES: purchases of goods for resale and of raw materials and consumables, net of returns, discounts and
 *   rebates, plus their stock variation; not subcontracted work or services (ES 607, FR 604/605/606, DE bezogene
 *   Leistungen) nor impairment (ES 693/793). GB and US charts have no stock variation account: their purchases.
 * - STAFF_COST: wages and social charges. OTHER_EXPENSES: the external and other operating expenses line(s).
 * - TAXES: the tax on profit (income tax) only, not other taxes. GB: none, its chart has no tax expense account.
 * - TRADE_MARGIN: sales of goods − their cost. RESULT: the operating result. FINANCIAL_RESULT: financial income −
 *   financial expenses (US: interest income − interest expense only). EXCEPTIONAL_RESULT: FR only.
 *   NET_RESULT: the year's result.
 *
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
 * line an account of that side goes to (as evaluate() routes it) selected?
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
      const target = found.find((p) => !p.side) ?? found.find((p) => p.side === side) ?? (detail ? undefined : found[0]);
      return target && selected.has(target.line) ? 1 : 0;
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
