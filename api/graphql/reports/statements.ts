/**
 * `accountingBalanceSheet` and `accountingProfitAndLoss` (research §1.9, §3.1): the organisation's country's
 * statement model (domain/reports/statements.ts) evaluated over the balances by account code. The P&L reads
 * startDate..endDate; the balance sheet is a position: the exercise holding endDate from its first day to endDate
 * (startDate must lie in the same exercise), its result line included. Both read the books before their closing:
 * closing entries (CLOSURE_*) never count (they would bring every account to zero at the year end).
 */
import type pg from 'pg';
import { Decimal } from '../../../domain/money.ts';
import { evaluate, statementModel, statementVariants, type AccountBalance, type Statement, type StatementModel } from '../../../domain/reports/statements.ts';
import { CLOSING_ENTRY_TYPES } from '../../../domain/accounting/enums.ts';
import { accountMovements } from '../../../projections/reports/sql.ts';
import { READING_FIELDS, datesWithin, exerciseHolding, dayOf, invalid, organisationFacts, readingOf, spansOf, withCarryForward, type OrganisationFacts, type ReportEnv } from './inputs.ts';

const STATEMENT_FIELDS = `
  "First day (the P&L's; the balance sheet's must lie in the exercise holding endDate)."
  startDate: DateTime!
  "Last day, included."
  endDate: DateTime!
  "Leave out the lines whose amounts are all zero."
  onlyLinesWithAmount: Boolean
  "While the previous exercise is not closed, count the opening its close would post, on the exercise's first day; left out by default."
  showTemporaryCarryForward: Boolean
  "The country's model to use (e.g. ES: PYMES, ABREVIADO, NORMAL); the country's first when absent. Ours."
  statementModel: String${READING_FIELDS}`;

export const STATEMENTS_SDL = `
input AccountingBalanceSheetGLDtoInput {${STATEMENT_FIELDS}
}

input AccountingProfitAndLossGLDtoInput {${STATEMENT_FIELDS}
}`;

export const STATEMENTS_ROOT_FIELDS = `
  accountingBalanceSheet(input: AccountingBalanceSheetGLDtoInput!): [AccountingBalanceSheetOutputGLDto!]! @listSize(assumedSize: 200)
  accountingProfitAndLoss(input: AccountingProfitAndLossGLDtoInput!): [AccountingProfitAndLossOutputGLDto!]! @listSize(assumedSize: 200)`;

export interface StatementInput {
  startDate: string;
  endDate: string;
  onlyLinesWithAmount?: boolean | null;
  showTemporaryCarryForward?: boolean | null;
  statementModel?: string | null;
  asOf?: string | null;
}

/** Whether the country has statement models (ES and FR so far). */
export function hasStatements(country: string): boolean {
  try {
    return statementVariants(country).length > 0;
  } catch {
    return false;
  }
}

/** The country's model of that variant (its first when none is named). */
export function modelOf(facts: OrganisationFacts, statement: Statement, variant: string | null | undefined): StatementModel {
  if (!hasStatements(facts.country)) throw invalid('statementModel', `the organisation's country (${facts.country}) has no statement models yet (ES and FR have)`);
  const variants = statementVariants(facts.country);
  if (variant != null && !variants.includes(variant)) {
    throw invalid('statementModel', `${JSON.stringify(String(variant).slice(0, 40))} is not a model of ${facts.country} (${variants.join(', ') || 'none'})`);
  }
  return statementModel(facts.country, statement, variant ?? undefined);
}

/** Balances by account code over the statement's days, as the model reads them. */
export async function balancesByCode(db: pg.PoolClient, organisationId: string, input: StatementInput, statement: Statement, env: ReportEnv) {
  const exercise = await exerciseHolding(db, organisationId, dayOf(input.endDate, 'endDate'), 'endDate');
  const plain = readingOf(input, env.now);
  plain.excludedEntryTypes = [...plain.excludedEntryTypes, ...CLOSING_ENTRY_TYPES];
  const reading = input.showTemporaryCarryForward ? await withCarryForward(db, organisationId, exercise, plain, env) : plain;
  const dates = datesWithin(exercise, input);
  const from = statement === 'BALANCE_SHEET' ? exercise.start : dates.start;
  const spans = spansOf(exercise, { start: from, end: dates.end }, false);
  const rows = await accountMovements(db, organisationId, exercise.id, spans, {}, reading);
  const balances = new Map<string, AccountBalance>();
  for (const r of rows) balances.set(r.code, { debit: new Decimal(r.debit ?? 0), credit: new Decimal(r.credit ?? 0) });
  return balances;
}

export async function statementReport(db: pg.PoolClient, organisationId: string, input: StatementInput, statement: Statement, env: ReportEnv) {
  const facts = await organisationFacts(db, organisationId);
  const model = modelOf(facts, statement, input.statementModel);
  const rows = evaluate(model, await balancesByCode(db, organisationId, input, statement, env));
  const shown = input.onlyLinesWithAmount ? rows.filter((r) => ![r.amountColumn1, r.amountColumn2, r.amountTotal].every((a) => a.isZero())) : rows;
  const fixed = (a: Decimal) => a.toFixed(facts.precision);
  return shown.map((r) => ({
    code: r.code, description: r.description, lineType: r.lineType, multiColumn: r.multiColumn, order: r.order,
    amountColumn1: fixed(r.amountColumn1), amountColumn2: fixed(r.amountColumn2), amountTotal: fixed(r.amountTotal),
  }));
}
