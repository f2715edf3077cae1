/**
 * `ledger report <name> --org ID --input JSON [--out FILE]`: a report as CSV, the same rows the GraphQL root answers
 * (the same functions, under the same row-level security), one header line of the output's field names, then one
 * line per row (RFC 4180: fields with a comma, a quote or a line break quoted; null as an empty field).
 */
import fs from 'node:fs';
import { GraphQLError } from 'graphql';
import type pg from 'pg';
import { readScoped } from '../api/read-scope.ts';
import { REPORT_ROOTS } from '../api/graphql/reports/index.ts';
import type { ReportEnv } from '../api/graphql/reports/inputs.ts';
import { UsageError } from './args.ts';

/** The CLI's names of the reports, and the root each one is. */
export const CSV_REPORTS = {
  'trial-balance': 'accountingTrialBalance',
  'third-party-balance': 'accountingThirdPartyBalance',
  'balance-sheet': 'accountingBalanceSheet',
  'profit-and-loss': 'accountingProfitAndLoss',
  kpis: 'accountingKpis',
} as const;
export type CsvReport = keyof typeof CSV_REPORTS;

/** The output's fields, in the order of its GraphQL type (spec-types.graphql), so columns do not follow the rows. */
const COLUMNS: Record<CsvReport, readonly string[]> = {
  'trial-balance': ['accountCode', 'accountDescription', 'accountType', 'debitAmount', 'creditAmount', 'debitBalance', 'creditBalance', 'balance',
    'accumulatedDebitAmount', 'accumulatedCreditAmount', 'accumulatedDebitBalance', 'accumulatedCreditBalance', 'accumulatedBalance'],
  'third-party-balance': ['thirdPartyId', 'thirdPartyDescription', 'debitAmount', 'creditAmount', 'debitBalance', 'creditBalance', 'balance',
    'accumulatedDebitAmount', 'accumulatedCreditAmount', 'accumulatedDebitBalance', 'accumulatedCreditBalance', 'accumulatedBalance'],
  'balance-sheet': ['code', 'description', 'lineType', 'order', 'multiColumn', 'amountColumn1', 'amountColumn2', 'amountTotal'],
  'profit-and-loss': ['code', 'description', 'lineType', 'order', 'multiColumn', 'amountColumn1', 'amountColumn2', 'amountTotal'],
  kpis: ['type', 'value', 'currency'],
};

const field = (value: unknown) => {
  const text = value == null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

export function toCsv(report: CsvReport, rows: readonly Record<string, unknown>[]): string {
  const columns = COLUMNS[report];
  return [columns.join(','), ...rows.map((row) => columns.map((c) => field(row[c])).join(','))].map((line) => `${line}\r\n`).join('');
}

/** The report's CSV for the organisation; a bad input is a usage error naming the field, as GraphQL names it. */
export async function reportCsv(pool: pg.Pool, organisationId: string, report: string, inputJson: string, env: ReportEnv): Promise<string> {
  if (!Object.hasOwn(CSV_REPORTS, report)) throw new UsageError(`ledger report: REPORT must be one of ${Object.keys(CSV_REPORTS).join(', ')}${report ? `, not '${report}'` : ''}`);
  let input: unknown;
  try {
    input = JSON.parse(inputJson);
  } catch {
    throw new UsageError('ledger report: --input must be a JSON object (the GraphQL input, e.g. {"exerciseId":"...","startDate":"2026-01-01","endDate":"2026-03-31"})');
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new UsageError('ledger report: --input must be a JSON object');
  const name = report as CsvReport;
  try {
    const rows = await readScoped(pool, organisationId, (db) => REPORT_ROOTS[CSV_REPORTS[name]](db, organisationId, input, env), { snapshot: true });
    return toCsv(name, rows);
  } catch (error) {
    if (error instanceof GraphQLError && error.extensions.code === 'INVALID_QUERY') throw new UsageError(`ledger report ${name}: ${error.message}`);
    throw error;
  }
}

export async function writeReport(csv: string, out: string | undefined): Promise<void> {
  if (out) await fs.promises.writeFile(out, csv);
  else process.stdout.write(csv);
}
