/**
 * Statement models: a country's balance sheet or P&L as "balance guide lines" (Sage's term), each keeping the legal
 * formula text it was copied from beside the terms parsed out of it, so the two cannot disagree.
 *
 * Formula text (what the model files write):
 * - accounts: prefixes separated by commas, e.g. "20, (280), (290)" or "700..705, (706)". Parentheses are the legal
 *   texts' mark of a contra account (amortisation, returns): they do not change the arithmetic, because every account
 *   enters the line with its balance read in the line's direction (`balance`), so a credit balance on 280 already
 *   lowers an asset line. "57[D]" takes only accounts with a debit balance, "57[C]" only those with a credit balance
 *   (Sage's alternativePositionIfNegative: an overdrawn bank moves to the liabilities). "a | b" puts b in column 2.
 * - lines: codes joined by + and -, e.g. "AA + AB" or "PE1 - CE1".
 * An account falls on the line of its LONGEST matching prefix in the model ("50" and "509" on two lines: 5090 goes to
 * the second), so "50 (sauf 509)" is written as two terms. Detail lines (`detailOf`) resolve apart from main lines.
 */
import { BalanceGuideLineType } from './enums.ts';

export type Statement = 'BALANCE_SHEET' | 'PROFIT_AND_LOSS';
export type BalanceSide = 'DEBIT' | 'CREDIT';

/** An account prefix on a line: the account's balance (debit − credit) times `sign` goes to `column`. */
export interface Term { prefix: string; sign: 1 | -1; side?: BalanceSide; column?: 1 | 2 }

export interface GuideLine {
  code: string;
  description: string;
  lineType: BalanceGuideLineType;
  order: number;
  multiColumn: boolean;
  /** How the line reads balances: DEBIT = debit − credit (assets, charges); CREDIT = credit − debit. */
  balance: BalanceSide;
  /** The legal formula text the terms or line references come from. */
  formula?: string;
  accounts?: readonly Term[];
  lines?: readonly { code: string; sign: 1 | -1 }[];
  /** The balance sheet's result line: its own accounts plus the P&L's result. */
  result?: true;
  /** A "dont"/detail line: its accounts are also counted on this main line. */
  detailOf?: string;
}

export interface StatementModel {
  key: string;
  /** The organisation country whose master chart the model reads (GB also serves IE, US also CA). */
  country: string;
  description: string;
  statement: Statement;
  variant: string;
  lines: readonly GuideLine[];
  /** Column semantics of multi-column lines: NET = column 1 − column 2 (Brut − Amortissements), SUM = 1 + 2. */
  columns: 'NET' | 'SUM';
  /** Balance sheet: the P&L whose result line completes the result line; P&L: the balance sheet it completes. */
  companion?: StatementModel;
  /** P&L: the line holding the year's result. Balance sheet: the two totals that must agree. */
  resultLine?: string;
  totals?: { assets: string; equityAndLiabilities: string };
  /** Accounts deliberately on no line, with the reason (they are not "unmapped"). */
  offStatement: readonly { prefix: string; reason: string }[];
}

// ---------------------------------------------------------------------------------------------
// The compact rows the model files write.

export interface RowOptions {
  title?: true;
  label?: true;
  result?: true;
  detailOf?: string;
  /** Variant letters the row is in (e.g. 'N' for ES normal only); default: every variant. */
  in?: string;
}
/**
 * `formula` may differ per variant: keys are variant letters groups, e.g. { N: 'AA11 + AA12', AP: '20, (280)' }; so may
 * `description` (a line the smaller model numbers I where the others number it II).
 */
export type Row = readonly [code: string, description: string | Readonly<Record<string, string>>, formula?: string | Readonly<Record<string, string>>, options?: RowOptions];
/** Switches how the following rows read balances and whether they have two amount columns. */
export interface Section { balance: BalanceSide; multiColumn?: boolean }
export type ModelRow = Row | Section;

/** A country's two statements in one variant, as its model file writes them. */
export interface StatementsSpec {
  country: string;
  variant: string;
  /** The variant's letter in `in` and per-variant formulas (e.g. 'P' for PYMES). */
  letter?: string;
  offStatement?: readonly { prefix: string; reason: string }[];
  balanceSheet: { description: string; rows: readonly ModelRow[]; columns?: 'NET' | 'SUM'; totals: { assets: string; equityAndLiabilities: string } };
  profitAndLoss: { description: string; rows: readonly ModelRow[]; columns?: 'NET' | 'SUM'; resultLine: string };
}

interface ModelSpec {
  key: string;
  country: string;
  description: string;
  statement: Statement;
  variant: string;
  letter?: string;
  columns?: 'NET' | 'SUM';
  rows: readonly ModelRow[];
  resultLine?: string;
  totals?: { assets: string; equityAndLiabilities: string };
  offStatement?: readonly { prefix: string; reason: string }[];
}

const MAX_CODE = 10; // Sage's code field (≤ 10 characters)
const ITEM = /^\(?\s*(\d+)(?:\s*\.\.\s*(\d+))?\s*(?:\[([DC])\])?\s*\)?$/;

/** Builds a country's balance sheet and P&L, each naming the other as companion, frozen. */
export function buildModels(spec: StatementsSpec): { BALANCE_SHEET: StatementModel; PROFIT_AND_LOSS: StatementModel } {
  const { balanceSheet, profitAndLoss, ...common } = spec;
  const key = (statement: Statement) => `${spec.country}-${spec.variant}-${statement}`;
  return pairModels(
    buildModel({ ...common, ...balanceSheet, key: key('BALANCE_SHEET'), statement: 'BALANCE_SHEET' }),
    buildModel({ ...common, ...profitAndLoss, key: key('PROFIT_AND_LOSS'), statement: 'PROFIT_AND_LOSS' }),
  );
}

function buildModel(spec: ModelSpec): StatementModel {
  const columns = spec.columns ?? 'NET';
  let section: Section = { balance: 'DEBIT' };
  const lines: GuideLine[] = [];
  for (const row of spec.rows) {
    if (!Array.isArray(row)) { section = row as Section; continue; }
    const [code, rawDescription, rawFormula, options = {}] = row as Row;
    if (options.in && spec.letter && !options.in.includes(spec.letter)) continue;
    const formula = typeof rawFormula === 'object' ? pickFormula(rawFormula, spec.letter, code) : rawFormula;
    const description = typeof rawDescription === 'object' ? pickFormula(rawDescription, spec.letter, code)! : rawDescription;
    if (code.length > MAX_CODE) throw new Error(`${spec.key}: line code '${code}' is longer than ${MAX_CODE}`);
    const base = { code, description, order: lines.length + 1, balance: section.balance, ...(formula ? { formula } : {}) };
    if (!formula && options.result) {
      lines.push({ ...base, lineType: 'RESULT_CALCULATION', multiColumn: !!section.multiColumn, accounts: [], result: true });
    } else if (!formula) {
      lines.push({ ...base, lineType: options.label ? 'LABEL' : 'TITLE', multiColumn: false });
    } else if (isLineFormula(formula)) {
      lines.push({ ...base, lineType: options.result ? 'RESULT_CALCULATION' : 'LINE_CALCULATION', multiColumn: !!section.multiColumn, lines: parseLines(formula) });
    } else {
      lines.push({
        ...base, lineType: options.result ? 'RESULT_CALCULATION' : 'ACCOUNT_CALCULATION', multiColumn: !!section.multiColumn,
        accounts: parseAccounts(formula, section.balance, columns, `${spec.key} ${code}`),
        ...(options.result ? { result: true as const } : {}), ...(options.detailOf ? { detailOf: options.detailOf } : {}),
      });
    }
  }
  const model: StatementModel = {
    key: spec.key, country: spec.country, description: spec.description, statement: spec.statement, variant: spec.variant, lines, columns,
    ...(spec.resultLine ? { resultLine: spec.resultLine } : {}), ...(spec.totals ? { totals: spec.totals } : {}),
    offStatement: spec.offStatement ?? [],
  };
  checkModel(model);
  return model;
}

function pairModels(balanceSheet: StatementModel, profitAndLoss: StatementModel): { BALANCE_SHEET: StatementModel; PROFIT_AND_LOSS: StatementModel } {
  if (!profitAndLoss.resultLine) throw new Error(`${profitAndLoss.key}: no result line`);
  if (!balanceSheet.lines.some((l) => l.result)) throw new Error(`${balanceSheet.key}: no result line`);
  balanceSheet.companion = profitAndLoss;
  profitAndLoss.companion = balanceSheet;
  return { BALANCE_SHEET: Object.freeze(balanceSheet), PROFIT_AND_LOSS: Object.freeze(profitAndLoss) };
}

/** The text (formula or description) of a row for the variant's letter. */
function pickFormula(byVariant: Readonly<Record<string, string>>, letter: string | undefined, code: string): string | undefined {
  const key = Object.keys(byVariant).find((k) => letter !== undefined && k.includes(letter));
  if (!key) throw new Error(`line ${code}: no text for variant letter ${letter}`);
  return byVariant[key];
}

export function isLineFormula(formula: string): boolean {
  return /[A-Za-z]/.test(formula.replace(/\[[DC]\]/g, ''));
}

function parseLines(formula: string): { code: string; sign: 1 | -1 }[] {
  const out: { code: string; sign: 1 | -1 }[] = [];
  for (const match of formula.replace(/\s+/g, '').matchAll(/([+-]?)([A-Za-z][A-Za-z0-9]*)/g)) {
    out.push({ code: match[2]!, sign: match[1] === '-' ? -1 : 1 });
  }
  return out;
}

/** The terms of an account formula: column 1 reads in the line's direction; column 2 (contra) the other way. */
export function parseAccounts(formula: string, balance: BalanceSide, columns: 'NET' | 'SUM', where: string): Term[] {
  const direction = balance === 'DEBIT' ? 1 : -1;
  const parts = formula.split('|');
  if (parts.length > 2) throw new Error(`${where}: more than two columns in '${formula}'`);
  const terms: Term[] = [];
  parts.forEach((part, index) => {
    const column = (index + 1) as 1 | 2;
    const sign = (column === 2 && columns === 'NET' ? -direction : direction) as 1 | -1;
    for (const raw of part.split(',').map((s) => s.trim()).filter(Boolean)) {
      const m = ITEM.exec(raw);
      if (!m) throw new Error(`${where}: cannot read '${raw}' in '${formula}'`);
      const side = m[3] === 'D' ? 'DEBIT' as const : m[3] === 'C' ? 'CREDIT' as const : undefined;
      for (const prefix of expandRange(m[1]!, m[2], where)) {
        terms.push({ prefix, sign, ...(side ? { side } : {}), ...(parts.length > 1 ? { column } : {}) });
      }
    }
  });
  return terms;
}

function expandRange(from: string, to: string | undefined, where: string): string[] {
  if (to === undefined) return [from];
  if (to.length !== from.length || Number(to) < Number(from)) throw new Error(`${where}: bad range ${from}..${to}`);
  const out: string[] = [];
  for (let n = Number(from); n <= Number(to); n++) out.push(String(n).padStart(from.length, '0'));
  return out;
}

/** Codes unique, references resolvable and acyclic, and no prefix on two main lines unless split by sign. */
function checkModel(model: StatementModel): void {
  const byCode = new Map(model.lines.map((l) => [l.code, l]));
  if (byCode.size !== model.lines.length) throw new Error(`${model.key}: duplicate line codes`);
  for (const line of model.lines) {
    for (const ref of line.lines ?? []) if (!byCode.has(ref.code)) throw new Error(`${model.key} ${line.code}: unknown line ${ref.code}`);
    if (line.detailOf && !byCode.has(line.detailOf)) throw new Error(`${model.key} ${line.code}: unknown main line ${line.detailOf}`);
  }
  for (const code of [model.resultLine, model.totals?.assets, model.totals?.equityAndLiabilities]) {
    if (code && !byCode.has(code)) throw new Error(`${model.key}: unknown line ${code}`);
  }
  for (const detail of [false, true]) {
    // prefix → the line of its unsided term, or of its DEBIT-only and CREDIT-only terms
    const seen = new Map<string, Partial<Record<'ANY' | BalanceSide, string>>>();
    for (const line of model.lines) {
      if (!!line.detailOf !== detail) continue;
      for (const term of line.accounts ?? []) {
        const slots = seen.get(term.prefix) ?? {};
        const clash = term.side ? slots.ANY ?? slots[term.side] : slots.ANY ?? slots.DEBIT ?? slots.CREDIT;
        if (clash) throw new Error(`${model.key}: account prefix ${term.prefix} on ${clash} and ${line.code}`);
        slots[term.side ?? 'ANY'] = line.code;
        seen.set(term.prefix, slots);
      }
    }
  }
  const visiting = new Set<string>();
  const visit = (code: string): void => {
    if (visiting.has(code)) throw new Error(`${model.key}: line ${code} refers to itself`);
    visiting.add(code);
    for (const ref of byCode.get(code)!.lines ?? []) visit(ref.code);
    visiting.delete(code);
  };
  for (const line of model.lines) visit(line.code);
}
