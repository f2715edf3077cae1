/**
 * `accountingThirdPartyBalance` (research §1.9, §3.3): per third party of one kind (customers, suppliers or
 * employees) with movements on its lines, the same columns as the trial balance, over every account the party's
 * lines post to. The party is named and ranged by its current code and name (an erased party reads as its read
 * model shows it); `isBalanceComparative` fills the accumulated columns (the exercise from its first day to endDate).
 */
import type pg from 'pg';
import { partyMovements } from '../../../projections/reports/sql.ts';
import { READING_FIELDS, datesWithin, exerciseById, hasBalance, invalid, organisationFacts, readingOf, reportColumns, spansOf, withCarryForward, type ReportEnv } from './inputs.ts';

export const THIRD_PARTY_BALANCE_SDL = `
input AccountingThirdPartyBalanceGLDtoInput {
  "Whose lines: CUSTOMER, SUPPLIER or EMPLOYEE."
  thirdPartyType: OriginType!
  exerciseId: UUID!
  "First day, within the exercise."
  startDate: DateTime!
  "Last day, included, within the exercise."
  endDate: DateTime!
  "Third parties whose code is this one or after it."
  thirdPartyCodeFrom: String
  "Third parties whose code is this one or before it, every code beginning with it included."
  thirdPartyCodeTo: String
  "Leave out third parties whose balance is zero (the period's, and the accumulated one when comparative)."
  isWithoutZeroBalance: Boolean
  "Fill the accumulated columns: the exercise from its first day to endDate."
  isBalanceComparative: Boolean
  "While the previous exercise is not closed, count the opening its close would post, on the exercise's first day; left out by default."
  showTemporaryCarryForward: Boolean${READING_FIELDS}
}`;

export const THIRD_PARTY_BALANCE_ROOT_FIELDS = `
  accountingThirdPartyBalance(input: AccountingThirdPartyBalanceGLDtoInput!): [AccountingThirdPartyBalanceOutputGLDto!]! @listSize(assumedSize: 500)`;

export interface ThirdPartyBalanceInput {
  thirdPartyType: string;
  exerciseId: string;
  startDate: string;
  endDate: string;
  thirdPartyCodeFrom?: string | null;
  thirdPartyCodeTo?: string | null;
  isWithoutZeroBalance?: boolean | null;
  isBalanceComparative?: boolean | null;
  showTemporaryCarryForward?: boolean | null;
  asOf?: string | null;
}

const KINDS: readonly string[] = ['CUSTOMER', 'SUPPLIER', 'EMPLOYEE'];

export async function thirdPartyBalance(db: pg.PoolClient, organisationId: string, input: ThirdPartyBalanceInput, env: ReportEnv) {
  // (GraphQL checks the enum; the CLI's JSON is checked here.)
  if (!KINDS.includes(input.thirdPartyType)) throw invalid('thirdPartyType', `${JSON.stringify(String(input.thirdPartyType ?? '').slice(0, 20))} is not one of ${KINDS.join(', ')}`);
  const exercise = await exerciseById(db, organisationId, input.exerciseId);
  const plain = readingOf(input, env.now);
  const reading = input.showTemporaryCarryForward ? await withCarryForward(db, organisationId, exercise, plain, env) : plain;
  const spans = spansOf(exercise, datesWithin(exercise, input), input.isBalanceComparative === true);
  const { precision } = await organisationFacts(db, organisationId);
  const range = { start: input.thirdPartyCodeFrom, end: input.thirdPartyCodeTo };
  const rows = await partyMovements(db, organisationId, exercise.id, input.thirdPartyType, spans, range, reading);
  const answers = rows.map((r) => ({ thirdPartyId: r.third_party_id, thirdPartyDescription: r.description, ...reportColumns(r, precision) }));
  return input.isWithoutZeroBalance ? answers.filter(hasBalance) : answers;
}
