/**
 * STAND-IN for H3's domain/reports/statements.ts (contract C), so that the report roots compile and run before the
 * statement models land: one tiny model per statement. Replaced by H3's file on merge.
 */
import { Decimal } from '../money.ts';

export type Statement = 'BALANCE_SHEET' | 'PROFIT_AND_LOSS';
export interface AccountBalance { debit: Decimal; credit: Decimal }
export interface StatementRow { code: string; description: string; lineType: string; multiColumn: boolean; order: number; amountColumn1: Decimal; amountColumn2: Decimal; amountTotal: Decimal }
export interface GuideLine { code: string; description: string; lineType: string; order: number; multiColumn: boolean; prefixes?: string[]; sign?: 1 | -1; result?: true }
export interface StatementModel { key: string; statement: Statement; lines: GuideLine[] }

const MODELS: Record<Statement, GuideLine[]> = {
  BALANCE_SHEET: [
    { code: 'A', description: 'Assets', lineType: 'ACCOUNT_CALCULATION', order: 1, multiColumn: false, prefixes: ['2', '3', '4', '5'], sign: 1 },
    { code: 'P', description: 'Equity and liabilities', lineType: 'ACCOUNT_CALCULATION', order: 2, multiColumn: false, prefixes: ['1'], sign: -1 },
    { code: 'R', description: 'Result', lineType: 'RESULT_CALCULATION', order: 3, multiColumn: false, prefixes: ['6', '7'], sign: -1, result: true },
  ],
  PROFIT_AND_LOSS: [
    { code: 'I', description: 'Income', lineType: 'ACCOUNT_CALCULATION', order: 1, multiColumn: false, prefixes: ['7'], sign: -1 },
    { code: 'E', description: 'Expenses', lineType: 'ACCOUNT_CALCULATION', order: 2, multiColumn: false, prefixes: ['6'], sign: 1 },
  ],
};

export function statementVariants(_country: string): readonly string[] {
  return ['STANDARD'];
}

export function statementModel(country: string, statement: Statement, variant?: string): StatementModel {
  if (variant !== undefined && !statementVariants(country).includes(variant)) throw new Error(`no statement model ${variant}`);
  return { key: `${country}:${statement}:${variant ?? 'STANDARD'}`, statement, lines: MODELS[statement] };
}

const matches = (line: GuideLine, code: string) => (line.prefixes ?? []).some((p) => code.startsWith(p));

export function evaluate(model: StatementModel, balances: ReadonlyMap<string, AccountBalance>): StatementRow[] {
  return model.lines.map((line) => {
    let total = new Decimal(0);
    for (const [code, b] of balances) if (matches(line, code)) total = total.plus(b.debit.minus(b.credit).times(line.sign ?? 1));
    return { code: line.code, description: line.description, lineType: line.lineType, multiColumn: line.multiColumn, order: line.order, amountColumn1: total, amountColumn2: new Decimal(0), amountTotal: total };
  });
}

export function positions(model: StatementModel, accountCode: string): { main?: GuideLine; detail?: GuideLine; alternativeIfNegative?: GuideLine } {
  const main = model.lines.find((l) => !l.result && matches(l, accountCode));
  return main ? { main } : {};
}

export function unmapped(model: StatementModel, accountCodes: readonly string[]): string[] {
  return accountCodes.filter((c) => !positions(model, c).main);
}

export function indicatorAccounts(_country: string): Partial<Record<string, readonly { prefix: string; sign: 1 | -1 }[]>> {
  return { TURNOVER: [{ prefix: '70', sign: -1 }], ASSETS: ['2', '3', '4', '5'].map((prefix) => ({ prefix, sign: 1 as const })) };
}
