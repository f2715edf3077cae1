/**
 * accountingKpis' indicators as account prefixes: each country names the statement lines an indicator is (or, where
 * no line fits, its prefixes), and the prefixes follow from those lines' terms. Summing Σ sign × (debit − credit)
 * over accounts by prefix must give what the lines give, so a longer prefix routed to an unselected line is
 * subtracted again (e.g. FR "50" minus "509"). A prefix split by sign ([D]/[C]) counts whole when either of its lines
 * is selected: exact for P&L indicators; for a balance sheet indicator an account with the other sign (an overdrawn
 * bank) stays inside it, so evaluate() on the model is the exact figure.
 */
import type { BalanceSide, GuideLine, StatementModel } from './statement-model.ts';

export interface IndicatorTerm { prefix: string; sign: 1 | -1 }
export type IndicatorSpec =
  | { readonly lines: readonly string[]; readonly direction: BalanceSide }
  | { readonly prefixes: readonly IndicatorTerm[] };

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
  const selected = new Set<string>();
  const collect = (code: string): void => {
    const { model, line } = lineOf(code);
    for (const term of line.detailOf ? [] : line.accounts ?? []) selected.add(term.prefix);
    for (const ref of line.lines ?? []) collect(ref.code);
    if (line.result && model.statement === 'BALANCE_SHEET') collect(model.companion!.resultLine!);
  };
  for (const code of spec.lines) collect(code);
  const all = [...new Set(models.flatMap((m) => m.lines.filter((l) => !l.detailOf).flatMap((l) => (l.accounts ?? []).map((t) => t.prefix))))];
  const parentOf = (prefix: string): string | undefined => {
    for (let length = prefix.length - 1; length > 0; length--) if (all.includes(prefix.slice(0, length))) return prefix.slice(0, length);
    return undefined;
  };
  const sign = spec.direction === 'DEBIT' ? 1 : -1;
  const out: IndicatorTerm[] = [];
  for (const prefix of all.sort()) {
    const parent = parentOf(prefix);
    const parentSelected = parent !== undefined && selected.has(parent);
    if (selected.has(prefix) && !parentSelected) out.push({ prefix, sign });
    if (!selected.has(prefix) && parentSelected) out.push({ prefix, sign: -sign as 1 | -1 });
  }
  return out;
}
