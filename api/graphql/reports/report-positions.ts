/**
 * `accountingReportPositions` (research §1.9, §3.1): each account of the balance sheet or the income statement
 * with the statement lines it falls on in the organisation's model: its main line, its detail line (only when
 * `isDetail`) and the line it moves to when its balance is negative. An account on no line answers
 * `reportPositions: []`; `onlyUnmapped` (ours, Sage 200's "cuentas fuera de guía") lists just those, the accounts a
 * statement leaves out.
 */
import type pg from 'pg';
import { derivedId, isUuid } from '../../../domain/ids.ts';
import { positions, type GuideLine, type Statement } from '../../../domain/reports/statements.ts';
import { AccountingAccount } from '../../../projections/accounting/read-models.ts';
import { invalid, organisationFacts } from './inputs.ts';
import { hasStatements, modelOf } from './statements.ts';

export const REPORT_POSITIONS_SDL = `
input AccountingReportPositionGLDtoInput {
  "One account; every account of the balance sheet and the income statement when absent."
  accountId: UUID
  "Include the detail lines the accounts fall on as well as their main lines."
  isDetail: Boolean
  "Only the accounts that fall on no line of the statements (they are left out of them). Ours."
  onlyUnmapped: Boolean
  "The country's model (e.g. ES: PYMES, ABREVIADO, NORMAL); the country's first when absent. Ours."
  statementModel: String
}

extend type ReportPositionsDto {
  "BALANCE_SHEET or PROFIT_AND_LOSS."
  statement: String
  balanceGuideLineId: UUID
  balanceGuideLineCode: String
  balanceGuideLineDescription: String
  isMain: Boolean!
  isDetail: Boolean!
  "The line the account moves to when its balance is negative (e.g. an overdrawn bank account)."
  alternativePositionIfNegative: Boolean!
}`;

export const REPORT_POSITIONS_ROOT_FIELDS = `
  accountingReportPositions(input: AccountingReportPositionGLDtoInput!): [AccountingReportPositionOutputGLDto!]! @listSize(assumedSize: 500)`;

export interface ReportPositionsInput {
  accountId?: string | null;
  isDetail?: boolean | null;
  onlyUnmapped?: boolean | null;
  statementModel?: string | null;
}

const STATEMENTS: readonly Statement[] = ['BALANCE_SHEET', 'PROFIT_AND_LOSS'];
/** The account types a statement reads (the others, classes 8-9, are on none). */
const STATEMENT_ACCOUNT_TYPES = ['BALANCE_SHEET', 'INCOME_STATEMENT'];
/** The sub-account types of the accounts that hold third parties (Sage's collective accounts). */
const COLLECTIVE = new Set(['CUSTOMER', 'PROVIDER', 'EMPLOYEE']);

/** A statement line's id: one per organisation, statement and line code. */
const lineId = (organisationId: string, statement: Statement, line: GuideLine) => derivedId(organisationId, 'balance-guide-line', `${statement}:${line.code}`);

export async function reportPositions(db: pg.PoolClient, organisationId: string, input: ReportPositionsInput) {
  if (input.accountId != null && !isUuid(input.accountId)) throw invalid('accountId', `${JSON.stringify(String(input.accountId).slice(0, 40))} is not a UUID`);
  const facts = await organisationFacts(db, organisationId);
  // (A country with no statement models yet puts every account on no line.)
  const models = hasStatements(facts.country) ? STATEMENTS.map((s) => modelOf(facts, s, input.statementModel)) : [];
  const { rows } = await db.query(
    `SELECT * FROM ${AccountingAccount.table} WHERE organisation_id = $1 AND ${input.accountId != null ? 'id = $2' : 'account_type = ANY($2::text[])'} ORDER BY code, id`,
    [organisationId, input.accountId ?? STATEMENT_ACCOUNT_TYPES],
  );
  if (input.accountId != null && rows.length === 0) throw invalid('accountId', `no account ${input.accountId} in this organisation`);
  const entry = (statement: Statement, line: GuideLine, kind: 'main' | 'detail' | 'alternative') => ({
    id: lineId(organisationId, statement, line), statement, balanceGuideLineId: lineId(organisationId, statement, line),
    balanceGuideLineCode: line.code, balanceGuideLineDescription: line.description,
    isMain: kind === 'main', isDetail: kind === 'detail', alternativePositionIfNegative: kind === 'alternative',
  });
  const answers = rows.map((a) => {
    const found = models.flatMap((model, i) => {
      const p = positions(model, a.code);
      return [
        ...(p.main ? [entry(STATEMENTS[i], p.main, 'main')] : []),
        ...(p.detail && input.isDetail ? [entry(STATEMENTS[i], p.detail, 'detail')] : []),
        ...(p.alternativeIfNegative ? [entry(STATEMENTS[i], p.alternativeIfNegative, 'alternative')] : []),
      ];
    });
    return {
      accountLevel: a.account_level ?? 'UNDEFINED', accountType: a.account_type ?? 'UNDEFINED', applyVat: a.apply_vat, code: a.code,
      collectiveAccount: COLLECTIVE.has(a.sub_account_type), exportAccountNumber: a.export_account_number,
      exportAutomaticAccount: a.export_automatic_account ?? false, deactivated: a.deactivated ?? false, description: a.description,
      id: a.id, name: a.name, reportPositions: found, subAccountType: a.sub_account_type ?? 'UNDEFINED', taxTreatmentId: a.tax_treatment_id,
    };
  });
  // On no line: no main line in either statement (a detail or an alternative line is never an account's only one).
  return input.onlyUnmapped ? answers.filter((a) => !a.reportPositions.some((p) => p.isMain)) : answers;
}
