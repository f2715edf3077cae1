/**
 * `accountingTrialBalance` (research §1.9, §3.3): per sub-account of the code range with movements, the debits and
 * credits of startDate..endDate and, when `isTrialBalanceComparative`, of the exercise from its first day to
 * endDate (the accumulated columns; zeros otherwise, as Sage's examples show). balance = debit − credit;
 * debitBalance / creditBalance split it by sign (creditBalance is negative).
 */
import type pg from 'pg';
import { accountMovements } from '../../../projections/reports/sql.ts';
import { READING_FIELDS, datesWithin, exerciseById, hasBalance, organisationFacts, readingOf, reportColumns, spansOf, withCarryForward, type ReportEnv } from './inputs.ts';

export const TRIAL_BALANCE_SDL = `
input AccountingTrialBalanceGLDtoInput {
  exerciseId: UUID!
  "First day, within the exercise."
  startDate: DateTime!
  "Last day, included, within the exercise."
  endDate: DateTime!
  "Accounts whose code is this one or after it."
  startAccountCode: String
  "Accounts whose code is this one or before it, every code beginning with it included (43 takes 4300001)."
  endAccountCode: String
  "Leave out accounts whose balance is zero (the period's, and the accumulated one when comparative)."
  isWithoutZeroBalance: Boolean
  "Fill the accumulated columns: the exercise from its first day to endDate."
  isTrialBalanceComparative: Boolean
  "While the previous exercise is not closed, count the opening its close would post, on the exercise's first day; left out by default."
  showTemporaryCarryForward: Boolean
  "false: leave out the closing entries (CLOSURE_*); counted by default."
  showClosingEntries: Boolean${READING_FIELDS}
}`;

export const TRIAL_BALANCE_ROOT_FIELDS = `
  accountingTrialBalance(input: AccountingTrialBalanceGLDtoInput!): [AccountingTrialBalanceOutputGLDto!]! @listSize(assumedSize: 500)`;

export interface TrialBalanceInput {
  exerciseId: string;
  startDate: string;
  endDate: string;
  startAccountCode?: string | null;
  endAccountCode?: string | null;
  isWithoutZeroBalance?: boolean | null;
  isTrialBalanceComparative?: boolean | null;
  showTemporaryCarryForward?: boolean | null;
  showClosingEntries?: boolean | null;
  asOf?: string | null;
}

export async function trialBalance(db: pg.PoolClient, organisationId: string, input: TrialBalanceInput, env: ReportEnv) {
  const exercise = await exerciseById(db, organisationId, input.exerciseId);
  const plain = readingOf(input, env.now);
  const reading = input.showTemporaryCarryForward ? await withCarryForward(db, organisationId, exercise, plain, env) : plain;
  const spans = spansOf(exercise, datesWithin(exercise, input), input.isTrialBalanceComparative === true);
  const { precision } = await organisationFacts(db, organisationId);
  const rows = await accountMovements(db, organisationId, exercise.id, spans, { start: input.startAccountCode, end: input.endAccountCode }, reading);
  const answers = rows.map((r) => ({ accountCode: r.code, accountDescription: r.description, accountType: r.account_type, ...reportColumns(r, precision) }));
  return input.isWithoutZeroBalance ? answers.filter(hasBalance) : answers;
}
