/**
 * `accountingKpis(input: { kpiTypes })` (research §1.9): the accounting dashboard's figures as
 * `KpiGlDto { type value currency }`, in the order asked, each once. Each figure is the country's statement lines
 * for it, or its account-code prefixes with their signs (domain/reports/statements.ts indicatorValue). Positions
 * (ASSETS, EQUITY, TREASURY_BALANCE, WORKING_CAPITAL) are read from the exercise's first day to endDate, flows (the
 * others) over startDate..endDate. The period (ours: Sage's input has only kpiTypes) is by default the exercise
 * holding today; given one bound, the exercise holding it. Closing and temporary carry-forward entries never count.
 * A figure the country's model does not define reads 0 (every figure, for a country with no statement models yet).
 */
import type pg from 'pg';
import { Decimal } from '../../../domain/money.ts';
import { CLOSING_ENTRY_TYPES } from '../../../domain/accounting/enums.ts';
import { AccountingIndicatorType } from '../../../domain/reports/enums.ts';
import { indicatorValue } from '../../../domain/reports/statements.ts';
import { accountMovements } from '../../../projections/reports/sql.ts';
import { hasStatements } from './statements.ts';
import { type ReportEnv, READING_FIELDS, asOfOf, datesWithin, dayOf, exerciseHolding, invalid, organisationFacts, spansOf } from './inputs.ts';

/** Figures that are a position at endDate, not a flow over the period. */
const POSITIONS: ReadonlySet<string> = new Set(['ASSETS', 'EQUITY', 'TREASURY_BALANCE', 'WORKING_CAPITAL']);

export const KPIS_SDL = `
enum AccountingIndicatorType {
  ${AccountingIndicatorType.join('\n  ')}
}

input AccountingKpiInput {
  kpiTypes: [AccountingIndicatorType!]!
  "First day of the period (ours; default: the first day of the exercise holding endDate, or today)."
  startDate: DateTime
  "Last day of the period, included (ours; default: the last day of the exercise holding startDate, or today)."
  endDate: DateTime${READING_FIELDS}
}`;

export const KPIS_ROOT_FIELDS = `
  accountingKpis(input: AccountingKpiInput!): [KpiGlDto!]! @listSize(assumedSize: 14)`;

export interface AccountingKpiInput {
  kpiTypes: string[];
  startDate?: string | null;
  endDate?: string | null;
  asOf?: string | null;
}

const EXCLUDED = [...CLOSING_ENTRY_TYPES, 'TEMPORARY_CARRY_FORWARD'];

export async function accountingKpis(db: pg.PoolClient, organisationId: string, input: AccountingKpiInput, { now }: ReportEnv) {
  const types = [...new Set(input.kpiTypes ?? [])];
  const unknown = types.find((t) => !(AccountingIndicatorType as readonly string[]).includes(t));
  if (unknown !== undefined || !Array.isArray(input.kpiTypes)) throw invalid('kpiTypes', `${JSON.stringify(String(unknown).slice(0, 40))} is not one of ${AccountingIndicatorType.join(', ')}`);
  const asOf = asOfOf(input.asOf, now);
  const anchor = input.endDate != null ? ['endDate', input.endDate] : input.startDate != null ? ['startDate', input.startDate] : ['startDate', now.toISOString()];
  const exercise = await exerciseHolding(db, organisationId, dayOf(anchor[1], anchor[0]), anchor[0]);
  const dates = datesWithin(exercise, { startDate: input.startDate ?? exercise.start, endDate: input.endDate ?? exercise.end });
  const facts = await organisationFacts(db, organisationId);
  const rows = await accountMovements(db, organisationId, exercise.id, spansOf(exercise, dates, true), {}, { asOf, excludedEntryTypes: EXCLUDED });
  const balances = (debit: 'debit' | 'accumulated_debit', credit: 'credit' | 'accumulated_credit') =>
    new Map(rows.map((r) => [r.code, { debit: new Decimal(r[debit] ?? 0), credit: new Decimal(r[credit] ?? 0) }]));
  const period = balances('debit', 'credit');
  const position = balances('accumulated_debit', 'accumulated_credit');
  return types.map((type) => {
    // The country's lines for it (an overdrawn bank leaves TREASURY_BALANCE), or its prefixes; 0 where the country
    // defines none (e.g. EXCEPTIONAL_RESULT outside FR).
    const value = (hasStatements(facts.country) ? indicatorValue(facts.country, type, POSITIONS.has(type) ? position : period) : undefined) ?? new Decimal(0);
    return { type, value: value.toFixed(facts.precision), currency: facts.currency };
  });
}
