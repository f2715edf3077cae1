/**
 * Issue 19's report roots (trial balance, third-party balance, balance sheet, P&L, report positions, KPIs) as one
 * QuerySpec, and the same reports by name for `ledger report` (cli/reports.ts): one function each, given a client
 * confined to the organisation, so that GraphQL and the CSV answer alike. Each report reads one snapshot of the books
 * (readScoped's `snapshot`): what it decides from one statement (an exercise closed or not) holds in the next.
 */
import { GraphQLError } from 'graphql';
import type pg from 'pg';
import { balancesReadable } from '../../../projections/reports/balances.ts';
import { READ_MODELS_BEHIND } from '../read-your-writes.ts';
import type { QuerySpec } from '../../../modules/module.ts';
import type { ReportEnv } from './inputs.ts';
import { KPIS_ROOT_FIELDS, KPIS_SDL, accountingKpis } from './kpis.ts';
import { REPORT_POSITIONS_ROOT_FIELDS, REPORT_POSITIONS_SDL, reportPositions } from './report-positions.ts';
import { STATEMENTS_ROOT_FIELDS, STATEMENTS_SDL, statementReport } from './statements.ts';
import { THIRD_PARTY_BALANCE_ROOT_FIELDS, THIRD_PARTY_BALANCE_SDL, thirdPartyBalance } from './third-party-balance.ts';
import { TRIAL_BALANCE_ROOT_FIELDS, TRIAL_BALANCE_SDL, trialBalance } from './trial-balance.ts';

type Report = (db: pg.PoolClient, organisationId: string, input: any, env: ReportEnv) => Promise<Record<string, unknown>[]>;

/**
 * A report over the kept balances: while an upgrade's rebuild has not swapped the balance tables in yet, it answers
 * READ_MODELS_BEHIND (reason 'rebuilding') instead of failing on a missing table.
 */
const overBalances = (report: Report): Report => async (db, org, input, env) => {
  if (!(await balancesReadable(db))) {
    throw new GraphQLError('The balances are being rebuilt to a new version in the background and are read once swapped in (GET /health shows the progress); ask again shortly.', {
      extensions: { code: READ_MODELS_BEHIND, reason: 'rebuilding' },
    });
  }
  return report(db, org, input, env);
};

/** Each root: its report, by the root's name. */
export const REPORT_ROOTS: Readonly<Record<string, Report>> = {
  accountingTrialBalance: overBalances(trialBalance),
  accountingThirdPartyBalance: overBalances(thirdPartyBalance),
  accountingBalanceSheet: overBalances((db, org, input, env) => statementReport(db, org, input, 'BALANCE_SHEET', env)),
  accountingProfitAndLoss: overBalances((db, org, input, env) => statementReport(db, org, input, 'PROFIT_AND_LOSS', env)),
  accountingReportPositions: (db, org, input) => reportPositions(db, org, input),
  accountingKpis: overBalances(accountingKpis),
};

export const ACCOUNTING_REPORTS: QuerySpec = {
  sdl: [TRIAL_BALANCE_SDL, THIRD_PARTY_BALANCE_SDL, STATEMENTS_SDL, REPORT_POSITIONS_SDL, KPIS_SDL].join('\n'),
  rootFields: [TRIAL_BALANCE_ROOT_FIELDS, THIRD_PARTY_BALANCE_ROOT_FIELDS, STATEMENTS_ROOT_FIELDS, REPORT_POSITIONS_ROOT_FIELDS, KPIS_ROOT_FIELDS].join(''),
  resolvers: Object.fromEntries(Object.entries(REPORT_ROOTS).map(([root, report]) => [
    root, (args: { input: unknown }, ctx) => ctx.readSnapshot((db) => report(db, ctx.caller.organisationId, args.input, { now: ctx.now, organisation: () => ctx.services.organisation(ctx.caller.organisationId) })),
  ])),
};
