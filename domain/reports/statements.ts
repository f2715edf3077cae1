/**
 * The statement engine (pure): evaluates a country's balance sheet or P&L model over account balances, says on which
 * lines an account falls, and lists the accounts that fall on none (Sage 200's "Cuentas fuera de guía").
 * The models themselves are reference data: domain/reference/statements/<country>.ts.
 */
import { Decimal, ZERO } from '../money.ts';
import type { GuideLine, Statement, StatementModel, Term } from './statement-model.ts';
import { sumTerms, type IndicatorTerm } from './indicators.ts';
import { STATEMENTS_BY_COUNTRY } from '../reference/statements/index.ts';
import { classifyAccountCode, masterChartFor } from '../reference/charts.ts';
import type { OrganisationCountry } from '../enums.ts';

export type { GuideLine, Statement, StatementModel, Term } from './statement-model.ts';
export type { IndicatorTerm } from './indicators.ts';

export interface AccountBalance { debit: Decimal; credit: Decimal }
export interface StatementRow {
  code: string;
  description: string;
  lineType: string;
  multiColumn: boolean;
  order: number;
  amountColumn1: Decimal;
  amountColumn2: Decimal;
  amountTotal: Decimal;
}

function countryEntry(country: string) {
  const entry = STATEMENTS_BY_COUNTRY[country];
  if (!entry) throw new Error(`no statement models for country ${country}`);
  return entry;
}

/** The variants a country offers, the default first (ES: PYMES, ABREVIADO, NORMAL). */
export function statementVariants(country: string): readonly string[] {
  return countryEntry(country).variants;
}

/** The model of a country's statement; `variant` defaults to the country's first. Throws on an unknown variant. */
export function statementModel(country: string, statement: Statement, variant?: string): StatementModel {
  const entry = countryEntry(country);
  const name = variant ?? entry.variants[0]!;
  const pair = entry.models[name];
  if (!pair) throw new Error(`unknown statement model '${name}' for ${country} (one of ${entry.variants.join(', ')})`);
  return pair[statement];
}

// ---------------------------------------------------------------------------------------------
// Where an account falls: the terms of its longest matching prefix; sided terms split it by its balance's sign.

interface Placed { term: Term; line: GuideLine }
interface Resolver { main: Map<string, Placed[]>; detail: Map<string, Placed[]>; byCode: Map<string, GuideLine> }

const resolvers = new WeakMap<StatementModel, Resolver>();

function resolverOf(model: StatementModel): Resolver {
  let resolver = resolvers.get(model);
  if (!resolver) {
    resolver = { main: new Map(), detail: new Map(), byCode: new Map(model.lines.map((l) => [l.code, l])) };
    for (const line of model.lines) {
      const into = line.detailOf ? resolver.detail : resolver.main;
      for (const term of line.accounts ?? []) into.set(term.prefix, [...(into.get(term.prefix) ?? []), { term, line }]);
    }
    resolvers.set(model, resolver);
  }
  return resolver;
}

function candidates(index: Map<string, Placed[]>, accountCode: string): Placed[] {
  for (let length = accountCode.length; length > 0; length--) {
    const found = index.get(accountCode.slice(0, length));
    if (found) return found;
  }
  return [];
}

/**
 * The term an account's balance goes to: an unsided one, else the one whose side is the balance's sign. A main line
 * must hold every account it names (else the balance sheet would not balance), so there the first term takes a sign
 * no term names; a detail line ("dont concours bancaires courants": 512[C]) takes only the side it names.
 */
function route(found: Placed[], balance: Decimal, detail = false): Placed | undefined {
  if (found.length === 0) return undefined;
  const side = balance.isPositive() && !balance.isZero() ? 'DEBIT' : balance.isNegative() && !balance.isZero() ? 'CREDIT' : undefined;
  return found.find((p) => !p.term.side) ?? found.find((p) => p.term.side === side) ?? (detail ? undefined : found[0]);
}

/**
 * An account's positions: its main line, its detail line, and the line it moves to when its balance has the other
 * sign. Of an account split by sign, the main line is the one of its usual balance, from its nature in the master
 * chart (a bank, an asset, is on the assets and moves to the debts when overdrawn; a supplier the other way round).
 */
export function positions(model: StatementModel, accountCode: string): { main?: GuideLine; detail?: GuideLine; alternativeIfNegative?: GuideLine } {
  const resolver = resolverOf(model);
  const found = candidates(resolver.main, accountCode);
  const usual = usualSide(model.country, accountCode);
  const main = found.find((p) => !p.term.side) ?? found.find((p) => p.term.side === usual) ?? found[0];
  const alternative = main?.term.side ? found.find((p) => p.term.side !== main.term.side) : undefined;
  const detail = candidates(resolver.detail, accountCode)[0];
  return {
    ...(main ? { main: main.line } : {}),
    ...(detail ? { detail: detail.line } : {}),
    ...(alternative ? { alternativeIfNegative: alternative.line } : {}),
  };
}

function usualSide(country: string, accountCode: string): 'DEBIT' | 'CREDIT' | undefined {
  const nature = classifyAccountCode(masterChartFor(country as OrganisationCountry), accountCode)?.nature;
  if (nature === 'ASSET' || nature === 'EXPENSE') return 'DEBIT';
  if (nature === 'LIABILITY' || nature === 'EQUITY' || nature === 'INCOME') return 'CREDIT';
  return undefined;
}

/**
 * The accounts that fall on no line: neither on this statement nor on its companion (a P&L account reaches the
 * balance sheet through the result line), nor listed as off-statement.
 */
export function unmapped(model: StatementModel, accountCodes: readonly string[]): string[] {
  const models = model.companion ? [model, model.companion] : [model];
  return accountCodes.filter((code) =>
    !models.some((m) => candidates(resolverOf(m).main, code).length > 0 || m.offStatement.some((o) => code.startsWith(o.prefix))));
}

// ---------------------------------------------------------------------------------------------
// Evaluation

interface Amounts { column1: Decimal; column2: Decimal; total: Decimal }
const NONE: Amounts = { column1: ZERO, column2: ZERO, total: ZERO };

/** Every line of the model with its amounts; the balance sheet's result line includes the P&L's result. */
export function evaluate(model: StatementModel, balances: ReadonlyMap<string, AccountBalance>): StatementRow[] {
  const amounts = lineAmounts(model, balances);
  return model.lines.map((line) => {
    const a = amounts.get(line.code)!;
    return {
      code: line.code, description: line.description, lineType: line.lineType, multiColumn: line.multiColumn, order: line.order,
      amountColumn1: line.multiColumn ? a.column1 : ZERO, amountColumn2: line.multiColumn ? a.column2 : ZERO, amountTotal: a.total,
    };
  });
}

function lineAmounts(model: StatementModel, balances: ReadonlyMap<string, AccountBalance>): Map<string, Amounts> {
  const resolver = resolverOf(model);
  const fromAccounts = new Map<string, { column1: Decimal; column2: Decimal }>();
  const add = (placed: Placed | undefined, balance: Decimal): void => {
    if (!placed) return;
    const into = fromAccounts.get(placed.line.code) ?? { column1: ZERO, column2: ZERO };
    const value = balance.times(placed.term.sign);
    if (placed.term.column === 2) into.column2 = into.column2.plus(value);
    else into.column1 = into.column1.plus(value);
    fromAccounts.set(placed.line.code, into);
  };
  for (const [code, { debit, credit }] of balances) {
    const balance = debit.minus(credit);
    add(route(candidates(resolver.main, code), balance), balance);
    add(route(candidates(resolver.detail, code), balance, true), balance);
  }
  const combine = (c1: Decimal, c2: Decimal): Decimal => (model.columns === 'NET' ? c1.minus(c2) : c1.plus(c2));
  let pnlResult: Decimal | undefined;
  const resultOfCompanion = (): Decimal => {
    if (pnlResult === undefined) {
      const pnl = model.companion!;
      pnlResult = lineAmounts(pnl, balances).get(pnl.resultLine!)!.total;
    }
    return pnlResult;
  };
  const out = new Map<string, Amounts>();
  const amountOf = (line: GuideLine): Amounts => {
    const known = out.get(line.code);
    if (known) return known;
    let amounts = NONE;
    if (line.accounts) {
      const a = fromAccounts.get(line.code) ?? { column1: ZERO, column2: ZERO };
      amounts = { ...a, total: combine(a.column1, a.column2) };
      if (line.result && model.statement === 'BALANCE_SHEET') {
        const pnl = model.companion!;
        const resultLine = pnl.lines.find((l) => l.code === pnl.resultLine)!;
        const result = resultOfCompanion().times(resultLine.balance === line.balance ? 1 : -1);
        amounts = { column1: amounts.column1.plus(result), column2: amounts.column2, total: amounts.total.plus(result) };
      }
    } else if (line.lines) {
      amounts = line.lines.reduce((sum, ref) => {
        const a = amountOf(resolver.byCode.get(ref.code)!);
        return { column1: sum.column1.plus(a.column1.times(ref.sign)), column2: sum.column2.plus(a.column2.times(ref.sign)), total: sum.total.plus(a.total.times(ref.sign)) };
      }, NONE);
    }
    out.set(line.code, amounts);
    return amounts;
  };
  for (const line of model.lines) amountOf(line);
  return out;
}

/**
 * The account-code prefixes each AccountingIndicatorType sums, per country: value = Σ sign × (debit − credit) over
 * the accounts under each prefix, a term with `side` counting only the accounts whose balance is of that side (an
 * overdrawn bank: its DEBIT term is in TREASURY_BALANCE, its CREDIT term is not). Equal to indicatorValue().
 */
export function indicatorAccounts(country: string): Partial<Record<string, readonly IndicatorTerm[]>> {
  return countryEntry(country).indicators;
}

/**
 * An indicator's value over the balances: the country's lines for it evaluated on its default model (an overdrawn
 * bank leaves TREASURY_BALANCE and ASSETS, as on the balance sheet), or its prefixes where no line fits.
 * Undefined for an indicator the country does not define (e.g. EXCEPTIONAL_RESULT outside FR, TAXES in GB).
 */
export function indicatorValue(country: string, type: string, balances: ReadonlyMap<string, AccountBalance>): Decimal | undefined {
  const entry = countryEntry(country);
  const spec = entry.indicatorSpecs[type as keyof typeof entry.indicatorSpecs];
  if (!spec) return undefined;
  if ('prefixes' in spec) return sumTerms(spec.prefixes, balances);
  const balanceSheet = entry.models[entry.variants[0]!]!.BALANCE_SHEET;
  const amounts = new Map([...lineAmounts(balanceSheet, balances), ...lineAmounts(balanceSheet.companion!, balances)]);
  const lines = [...balanceSheet.lines, ...balanceSheet.companion!.lines];
  return spec.lines.reduce((sum, code) => {
    const line = lines.find((l) => l.code === code)!;
    return sum.plus(amounts.get(code)!.total.times(line.balance === spec.direction ? 1 : -1));
  }, ZERO);
}
