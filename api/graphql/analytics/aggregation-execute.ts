/**
 * aggregationExecute (breadth §4): one context's rows within [dateMin, dateMax] (days, both included), filtered,
 * grouped, cut into periods, aggregated, ranked and, with `compare`, set beside the same range one year earlier.
 *
 * - Ranking always uses valueColumn1 over the whole range: top −1 no ranking (rows by group), 0 all groups ranked,
 *   N the first N groups (ties by the group's value, so exactly N) and, with includeOthers, one more group
 *   "Others" (othersLabel) aggregating the rest from their rows (so a distinct count or a mean stays right).
 * - compare: valueN is this range's value1, valueN_1 the same group's and period's a year earlier: the earlier
 *   range is every day that falls in this one when moved one year on (29 February lands on the 28th, so
 *   dateMax 2025-02-28 reaches back to 2024-02-29), and each earlier day is moved one year on before cutting
 *   periods. A Week is therefore the same days one year earlier, not the ISO week of the same number (whose days
 *   differ); periodN_1 is the first of those days (periodN less one year). deltaPercent =
 *   (valueN − valueN_1) / |valueN_1| × 100 to 2 decimals, null when valueN_1 is 0 or absent. value1, value2 and
 *   period are null then, and the compare fields are null without compare.
 * - With a group-by, a period type and (top > 0 or compare), dateMin is realigned to its period's first day; with
 *   groupByName None the dates are used as given.
 * - At most 500 rows: more is refused (narrow the range, a coarser period, or top N), not cut silently; a range of
 *   more than 500 periods is refused before reading anything.
 * Amounts (SUM, AVG, MIN, MAX) are in the organisation's currency at its decimals, rounded half away from zero as
 * postings are (so is deltaPercent); counts are whole numbers.
 */
import type pg from 'pg';
import { Decimal } from '../../../domain/money.ts';
import { baseCurrency } from '../sales-kpis.ts';
import { AGGREGATION_CONTEXTS, AGGREGATION_TYPES, PERIOD_TYPES, UNSERVED_CONTEXTS, type AggregationContext, type AggregationType } from './aggregation-catalog.ts';
import { dayRange, invalid, named } from './input.ts';
import type { DayRange } from './sources.ts';

export const AGGREGATION_LIMITS = Object.freeze({ maxRows: 500, maxSearch: 200 });

export interface AggregationExecuteInput {
  entityKey: string;
  aggregationType: string;
  periodType: string;
  dateMin: string;
  dateMax: string;
  compare?: boolean | null;
  top?: number | null;
  includeOthers?: boolean | null;
  othersLabel?: string | null;
  filterName?: string | null;
  groupByName?: string | null;
  valueColumn1?: string | null;
  valueColumn2?: string | null;
  distinctCountName?: string | null;
  search?: string | null;
  searchScope?: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function contextOf(entityKey: string): AggregationContext {
  const found = AGGREGATION_CONTEXTS.find((c) => c.entityKey === entityKey);
  if (found) return found;
  if (Object.hasOwn(UNSERVED_CONTEXTS, entityKey)) throw invalid('entityKey', `${entityKey}: unknown context (${UNSERVED_CONTEXTS[entityKey]})`);
  throw invalid('entityKey', `${JSON.stringify(entityKey.slice(0, 100))}: unknown context (aggregationCatalog lists them)`);
}

/** How many periods (date_trunc units) the range touches, at least (weeks counted as whole 7 days). */
function periodsWithin(range: { min: string; max: string }, unit: string): number {
  const [y1, m1] = range.min.split('-').map(Number);
  const [y2, m2] = range.max.split('-').map(Number);
  const days = (Date.parse(`${range.max}T00:00:00Z`) - Date.parse(`${range.min}T00:00:00Z`)) / 86_400_000 + 1;
  const months = (y2 - y1) * 12 + (m2 - m1) + 1;
  const counts: Record<string, number> = { day: days, week: Math.floor(days / 7), month: months, quarter: Math.floor(months / 3), year: y2 - y1 + 1 };
  return counts[unit] ?? 1;
}

/** The input checked against the context's catalog entry, with Sage's defaults filled in. */
function plan(input: AggregationExecuteInput) {
  const context = contextOf(input.entityKey);
  const aggregationType = named(Object.fromEntries(AGGREGATION_TYPES.map((a) => [a, a])), input.aggregationType, 'aggregationType') as AggregationType;
  const period = named(PERIOD_TYPES, input.periodType, 'periodType');
  const filterName = input.filterName ?? Object.keys(context.filters)[0];
  const filter = named(context.filters, filterName, 'filterName');
  const groupBy = named(Object.fromEntries(context.groupBy.map((g) => [g.name, g])), input.groupByName ?? 'None', 'groupByName');
  const counting = aggregationType === 'COUNT' || aggregationType === 'DISTINCTCOUNT';
  const valueColumn1 = input.valueColumn1 ?? (counting ? null : Object.keys(context.valueColumns)[0]);
  const value1 = valueColumn1 == null ? null : named(context.valueColumns, valueColumn1, 'valueColumn1');
  const value2 = input.valueColumn2 == null ? null : named(context.valueColumns, input.valueColumn2, 'valueColumn2');
  const distinctCountName = aggregationType === 'DISTINCTCOUNT' ? (input.distinctCountName ?? Object.keys(context.distinctCounts)[0]) : input.distinctCountName ?? null;
  const distinct = distinctCountName == null ? null : named(context.distinctCounts, distinctCountName, 'distinctCountName');
  const top = input.top ?? -1;
  if (!Number.isInteger(top) || top < -1) throw invalid('top', `${top}: −1 (no ranking), 0 (all ranked) or the number of groups to keep`);
  const search = input.search ?? null;
  let scope = null;
  let searchScope = input.searchScope ?? null;
  if (search != null) {
    searchScope ??= Object.keys(context.searchScopes)[0];
    scope = named(context.searchScopes, searchScope, 'searchScope');
    if (search.length > AGGREGATION_LIMITS.maxSearch) throw invalid('search', `at most ${AGGREGATION_LIMITS.maxSearch} characters`);
    if (scope.match === 'id' && !UUID.test(search)) throw invalid('search', `${JSON.stringify(search.slice(0, 40))} is not a UUID (searchScope ${searchScope} is an id)`);
  } else if (searchScope != null) named(context.searchScopes, searchScope, 'searchScope');
  const compare = input.compare ?? false;
  const range = dayRange(input.dateMin, input.dateMax);
  if (period && periodsWithin(range, period) > AGGREGATION_LIMITS.maxRows) {
    throw invalid('periodType', `more than ${AGGREGATION_LIMITS.maxRows} ${input.periodType} periods from ${range.min} to ${range.max}: narrow the range or choose a longer period type`);
  }
  return {
    context, aggregationType, period, filter, groupBy, value1, value2, distinct, top, search, scope, compare, range,
    meta: {
      entityKey: context.entityKey, context: context.context, aggregationType, periodType: input.periodType, compare, top,
      includeOthers: input.includeOthers ?? false, othersLabel: input.othersLabel ?? 'Others', filterName, groupByName: groupBy.name,
      valueColumn1, valueColumn2: input.valueColumn2 ?? null, distinctCountName, search, searchScope, dateMin: range.min, dateMax: range.max,
    },
  };
}

type Plan = ReturnType<typeof plan>;

/** The aggregate of a value column (or the count) over the rows of one cell; `rangeOnly`: of this range's rows. */
function aggregate(p: Plan, column: 'v1' | 'v2', rangeOnly = false): string {
  let sql: string | null;
  if (p.aggregationType === 'COUNT') sql = column === 'v1' ? 'count(*)' : null;
  else if (p.aggregationType === 'DISTINCTCOUNT') sql = column === 'v1' ? 'count(DISTINCT d)' : null;
  else sql = (column === 'v1' ? p.value1 : p.value2) == null ? null : `${p.aggregationType.toLowerCase()}(${column})`;
  if (sql == null) return 'NULL::numeric';
  return rangeOnly ? `${sql} FILTER (WHERE era = 0)` : sql;
}

/**
 * The earlier range's bounds: the days that fall within [dateMin, dateMax] when moved one year on (PostgreSQL moves
 * 29 February to the 28th): its first day is dateMin's a year earlier, or the next when that one would land
 * before dateMin (dateMin 29 February); its last is dateMax's a year earlier, or the next when that one, 29
 * February, lands on dateMax (dateMax 28 February).
 */
const yearBefore = (day: string) => `(${day} - interval '1 year')::date`;
const yearAfter = (day: string) => `(${day} + interval '1 year')::date`;
const earlierFirstDay = (min: string) => `(CASE WHEN ${yearAfter(yearBefore(min))} < ${min} THEN ${yearBefore(min)} + 1 ELSE ${yearBefore(min)} END)`;
const earlierLastDay = (max: string) => `(CASE WHEN ${yearAfter(`${yearBefore(max)} + 1`)} <= ${max} THEN ${yearBefore(max)} + 1 ELSE ${yearBefore(max)} END)`;

/** The statement: cells (group or Others, period, era 0 = the range, 1 = a year earlier) in output order. */
function statement(p: Plan, organisationId: string, precision: number): { text: string; values: unknown[] } {
  const values: unknown[] = [organisationId, p.range.min, p.range.max];
  const conditions = [`(${p.filter})`];
  if (p.search != null && p.scope) {
    values.push(p.search);
    conditions.push(p.scope.match === 'id' ? `${p.scope.column} = $${values.length}::uuid` : `starts_with(${p.scope.column}, $${values.length})`);
    if (p.scope.also) conditions.push(`(${p.scope.also})`);
  }
  const rowsOf = (range: DayRange, era: number) => `SELECT ${p.groupBy.key ?? 'NULL::text'} AS g, ${p.groupBy.second ?? 'NULL::text'} AS s, ${era} AS era,
      ${era === 0 ? 'x.day' : `(x.day + interval '1 year')::date`} AS day, ${p.value1 ?? 'NULL::numeric'} AS v1, ${p.value2 ?? 'NULL::numeric'} AS v2, ${p.distinct ?? 'NULL'} AS d
    FROM ${p.context.source(range, precision)} WHERE ${conditions.join(' AND ')}`;
  const eras = [rowsOf({ from: '$2', to: '$3' }, 0)];
  if (p.compare) eras.push(rowsOf({ from: earlierFirstDay('$2::date'), to: earlierLastDay('$3::date') }, 1));
  const periodOf = p.period ? `date_trunc('${p.period}', src.day)::date` : 'NULL::date';
  // The period's first day a year earlier, as PostgreSQL moves it (2024-02-29 to 2023-02-28, not into March).
  const columns = `${periodOf}::text AS p, (${periodOf} - interval '1 year')::date::text AS p1, src.era, ${aggregate(p, 'v1')} AS v1, ${aggregate(p, 'v2')} AS v2`;
  const limit = `LIMIT ${AGGREGATION_LIMITS.maxRows * (p.compare ? 2 : 1) + 1}`;
  if (p.top === -1) {
    // No ranking: no ranked groups to join.
    const text = `WITH src AS (${eras.join('\nUNION ALL\n')})
      SELECT false AS others, src.g, max(src.s) AS s, ${columns} FROM src GROUP BY src.g, ${periodOf}, src.era ORDER BY g NULLS FIRST, p NULLS FIRST, era ${limit}`;
    return { text, values };
  }
  const ranking = p.top > 0 ? `ranked.r > ${p.top}` : 'false';
  const keep = p.top > 0 && !p.meta.includeOthers ? `WHERE ranked.r <= ${p.top}` : '';
  // Joined on (is null, value or ''): equalities PostgreSQL can hash; IS NOT DISTINCT FROM would be a nested loop.
  const text = `WITH src AS (SELECT *, g IS NULL AS g_null, coalesce(g::text, '') AS g_key FROM (${eras.join('\nUNION ALL\n')}) AS rows),
    ranked AS (SELECT g_null, g_key, row_number() OVER (ORDER BY coalesce(${aggregate(p, 'v1', true)}, 0) DESC, min(g) NULLS FIRST) AS r FROM src GROUP BY g_null, g_key)
    SELECT (${ranking}) AS others, CASE WHEN ${ranking} THEN NULL ELSE src.g END AS g, CASE WHEN ${ranking} THEN NULL ELSE max(src.s) END AS s,
      min(ranked.r) AS r, ${columns}
    FROM src JOIN ranked ON ranked.g_null = src.g_null AND ranked.g_key = src.g_key ${keep}
    GROUP BY 1, 2, ${periodOf}, src.era ORDER BY others, r, p NULLS FIRST, era ${limit}`;
  return { text, values };
}

/** The statement an input reads (dateMin as given), for its plan. */
export const aggregationStatement = (input: AggregationExecuteInput, organisationId: string, precision: number) => statement(plan(input), organisationId, precision);

interface Cell {
  others: boolean;
  g: string | null;
  s: string | null;
  p: string | null;
  /** The period's first day a year earlier. */
  p1: string | null;
  era: number;
  v1: string | null;
  v2: string | null;
}

/** A period's first day as Sage normalises it (`2024-03-01T00:00:00.000Z`). */
const periodText = (p: string | null) => (p == null ? null : `${p}T00:00:00.000Z`);

export async function aggregationExecute(db: pg.PoolClient, organisationId: string, input: AggregationExecuteInput) {
  const p = plan(input);
  // dateMin realigned to its period's first day (Sage's rule), before reading.
  if (p.groupBy.key && p.period && (p.top > 0 || p.compare)) {
    const { rows } = await db.query(`SELECT date_trunc('${p.period}', $1::date)::date::text AS day`, [p.range.min]);
    p.range.min = rows[0].day;
    p.meta.dateMin = rows[0].day;
  }
  const currency = await baseCurrency(db, organisationId);
  const { rows } = await db.query<Cell>(statement(p, organisationId, currency.precision));
  const counting = p.aggregationType === 'COUNT' || p.aggregationType === 'DISTINCTCOUNT';
  // Half away from zero, as postings round (Decimal's default here is half-even).
  const shown = (v: string | null) => (v == null ? null : new Decimal(v).toFixed(counting ? 0 : currency.precision, Decimal.ROUND_HALF_UP));
  const label = (c: Cell) => (c.others ? p.meta.othersLabel : c.g);
  let answer;
  if (!p.compare) {
    answer = rows.map((c) => ({ groupValue: label(c), secondValue: c.s, period: periodText(c.p), value1: shown(c.v1), value2: shown(c.v2), periodN: null, periodN_1: null, valueN: null, valueN_1: null, deltaPercent: null }));
  } else {
    // One row per group and period of either range; a side with no rows is 0 (sums, counts) or null (mean, min, max).
    const absent = p.aggregationType === 'SUM' || counting ? '0' : null;
    const byKey = new Map<string, { first: Cell; n?: Cell; n1?: Cell }>();
    for (const c of rows) {
      const key = JSON.stringify([c.others, c.g, periodText(c.p)]);
      const entry = byKey.get(key) ?? { first: c };
      entry[c.era === 0 ? 'n' : 'n1'] = c;
      byKey.set(key, entry);
    }
    answer = [...byKey.values()].map(({ first, n, n1 }) => {
      const valueN = shown(n?.v1 ?? absent);
      const valueN_1 = shown(n1?.v1 ?? absent);
      const base = valueN_1 == null ? null : new Decimal(valueN_1);
      const deltaPercent = valueN == null || base == null || base.isZero() ? null : new Decimal(valueN).minus(base).div(base.abs()).times(100).toFixed(2, Decimal.ROUND_HALF_UP);
      return {
        groupValue: label(first), secondValue: n?.s ?? n1?.s ?? null, period: null, value1: null, value2: null,
        periodN: periodText(first.p), periodN_1: periodText(first.p1), valueN, valueN_1, deltaPercent,
      };
    });
  }
  if (answer.length > AGGREGATION_LIMITS.maxRows) {
    throw invalid('periodType', `more than ${AGGREGATION_LIMITS.maxRows} rows: narrow dateMin..dateMax, choose a longer period type or a top N`);
  }
  return { meta: p.meta, rows: answer };
}
