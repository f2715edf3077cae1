/**
 * `aggregate(aggregateFields, groupFields, orderFields)` on a connection, as Sage's clients write it (Sage's
 * "historical" aggregation): items `field|SUM` (AVG, MIN, MAX, COUNT, DISTINCTCOUNT) and `__count` over the rows the
 * connection's `where` selects, grouped by the resource's own fields (a date field also by `|Day`, `|Week`, `|Month`,
 * `|Quarter` or `|Year`), answered as groups of name/value pairs whose values are strings (decimals exact). One GROUP BY
 * over the read model, compiled from the resource definition, confined to the caller's organisation like the list.
 */
import type pg from 'pg';
import { storedFields, type Resource, type Scalar, type StoredField } from '../../projections/engine/resource.ts';
import { QueryInputError, compileWhere } from './query-builder.ts';

/** At most this many items per argument, and groups per answer (Sage pages aggregates by at most 500). */
export const AGGREGATE_LIMITS = Object.freeze({ maxAggregateFields: 10, maxGroupFields: 5, maxGroups: 500 });

/** The type an aggregate answers a list of (api/graphql/spec-types.graphql). */
export const AGGREGATE_RESULT_TYPE = 'GroupMultiAggregateResult';

export const COUNT_ITEM = '__count';

/** Where a connection's answer keeps the `where` it was asked with: its `aggregate` applies the same filter. */
export const CONNECTION_WHERE = Symbol('connection where');

const NUMERIC: ReadonlySet<Scalar> = new Set(['Int', 'Decimal']);
const ORDERED: ReadonlySet<Scalar> = new Set(['Int', 'Decimal', 'String', 'DateTime', 'Date']);
const DATED: ReadonlySet<Scalar> = new Set(['DateTime', 'Date']);

/** Each function: the SQL over a column, and the fields it applies to. */
const FUNCTIONS: Record<string, { sql: (column: string) => string; applies: (x: StoredField) => boolean }> = {
  SUM: { sql: (c) => `sum(${c})`, applies: (x) => NUMERIC.has(x.scalar) },
  AVG: { sql: (c) => `avg(${c})`, applies: (x) => NUMERIC.has(x.scalar) },
  MIN: { sql: (c) => `min(${c})`, applies: (x) => ORDERED.has(x.scalar) },
  MAX: { sql: (c) => `max(${c})`, applies: (x) => ORDERED.has(x.scalar) },
  COUNT: { sql: (c) => `count(${c})`, applies: () => true },
  DISTINCTCOUNT: { sql: (c) => `count(DISTINCT ${c})`, applies: () => true },
};

/** Date parts a date field groups by: the value is the part's first instant, in UTC (`2024-03-01T00:00:00.000Z`). */
const DATE_PARTS: Record<string, string> = { DAY: 'day', WEEK: 'week', MONTH: 'month', QUARTER: 'quarter', YEAR: 'year' };

export interface AggregateArgs {
  aggregateFields?: (string | null)[] | null;
  groupFields?: (string | null)[] | null;
  orderFields?: (string | null)[] | null;
}

export interface KeyValue {
  name: string;
  value: string;
}

export interface AggregateGroup {
  groupValues: KeyValue[];
  aggregates: KeyValue[];
}

/** The items of one argument: strings, at most `max`. */
function itemsOf(args: AggregateArgs, name: keyof AggregateArgs, max: number): string[] {
  const items = args[name] ?? [];
  if (items.length > max) throw new QueryInputError(`aggregate ${name}: at most ${max} items`);
  return items.map((item) => {
    if (typeof item !== 'string' || item.trim() === '') throw new QueryInputError(`aggregate ${name}: an item is a field name, not ${JSON.stringify(item)}`);
    return item.trim();
  });
}

function fieldOf(resource: Resource, name: string, item: string): StoredField {
  const field = storedFields(resource).find((x) => x.name === name && !x.hidden);
  if (!field) throw new QueryInputError(`aggregate ${item}: ${resource.typeName} has no field ${name} to aggregate or group by`);
  return field;
}

/** `__count` or `field|FUNCTION` as SQL over `t`. */
function aggregateSql(resource: Resource, item: string): string {
  if (item === COUNT_ITEM) return 'count(*)';
  const [name, fn, ...rest] = item.split('|');
  const f = FUNCTIONS[(fn ?? '').toUpperCase()];
  if (fn === undefined || rest.length > 0 || !f) throw new QueryInputError(`aggregate ${item}: write ${COUNT_ITEM} or field|FUNCTION, FUNCTION one of ${Object.keys(FUNCTIONS).join(', ')}`);
  const field = fieldOf(resource, name, item);
  if (!f.applies(field)) throw new QueryInputError(`aggregate ${item}: ${fn.toUpperCase()} does not apply to ${name} (${field.scalar})`);
  return f.sql(`t.${field.column}`);
}

/** `field` or `dateField|Month` as SQL over `t`. */
function groupSql(resource: Resource, item: string): string {
  const [name, part, ...rest] = item.split('|');
  const field = fieldOf(resource, name, item);
  if (part === undefined) return `t.${field.column}`;
  const unit = DATE_PARTS[part.toUpperCase()];
  if (rest.length > 0 || !unit || !DATED.has(field.scalar)) throw new QueryInputError(`aggregate ${item}: a date field groups by |Day, |Week, |Month, |Quarter or |Year`);
  return `date_trunc('${unit}', t.${field.column}::timestamptz, 'UTC')`;
}

/** An order item: a group or aggregate item as given, then ASC (the default) or DESC, after a space or a `|`. */
function orderSql(item: string, columns: Map<string, string>): string {
  const m = /^(.*?)(?:[ |](ASC|DESC))?$/i.exec(item)!;
  const column = columns.get(m[1].trim());
  if (!column) throw new QueryInputError(`aggregate orderFields ${item}: order by an item of groupFields or aggregateFields`);
  return `${column} ${(m[2] ?? 'ASC').toUpperCase()} NULLS LAST`;
}

/** A value as the answer shows it: a string (KeyValuePairResult.value is String!), '' for none. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '';
  return value instanceof Date ? value.toISOString() : String(value);
}

/** The groups of the rows `where` selects, in orderFields' order, then the groups': more than AGGREGATE_LIMITS.maxGroups are refused. */
export async function aggregateQuery(db: pg.Pool | pg.PoolClient, resource: Resource, organisationId: string | null, where: Record<string, unknown> | undefined, args: AggregateArgs): Promise<AggregateGroup[]> {
  const aggregates = itemsOf(args, 'aggregateFields', AGGREGATE_LIMITS.maxAggregateFields);
  const groups = itemsOf(args, 'groupFields', AGGREGATE_LIMITS.maxGroupFields);
  const orders = itemsOf(args, 'orderFields', AGGREGATE_LIMITS.maxAggregateFields + AGGREGATE_LIMITS.maxGroupFields);
  if (aggregates.length === 0 && groups.length === 0) throw new QueryInputError(`aggregate: name aggregateFields (${COUNT_ITEM}, field|SUM, ...) or groupFields`);
  const groupColumns = groups.map((item, i) => ({ item, sql: groupSql(resource, item), alias: `g${i}` }));
  const aggregateColumns = aggregates.map((item, i) => ({ item, sql: aggregateSql(resource, item), alias: `a${i}` }));
  const byItem = new Map([...groupColumns, ...aggregateColumns].map((c) => [c.item, c.alias]));
  // Every group last: groups tied on orderFields come in their values' order, the same on every call.
  const order = [...orders.map((item) => orderSql(item, byItem)), ...groupColumns.map((c) => `${c.alias} ASC NULLS LAST`)].join(', ');

  const compiled = await compileWhere(db, resource, organisationId, where);
  const select = [...groupColumns, ...aggregateColumns].map((c) => `${c.sql} AS ${c.alias}`).join(', ');
  const { rows } = await db.query(
    `SELECT ${select} FROM ${resource.table} t WHERE ${compiled.where}` +
      (groupColumns.length ? ` GROUP BY ${groupColumns.map((c) => c.alias).join(', ')}` : '') +
      (order ? ` ORDER BY ${order}` : '') +
      ` LIMIT ${AGGREGATE_LIMITS.maxGroups + 1}`,
    compiled.params,
  );
  // Cut at the limit, the answer would look whole: refuse it instead (Sage pages groups; this interface does not).
  if (rows.length > AGGREGATE_LIMITS.maxGroups) throw new QueryInputError(`aggregate: more than ${AGGREGATE_LIMITS.maxGroups} groups: narrow the filter or group by fewer fields`);
  return rows.map((row) => ({
    groupValues: groupColumns.map((c) => ({ name: c.item, value: shown(row[c.alias]) })),
    aggregates: aggregateColumns.map((c) => ({ name: c.item, value: shown(row[c.alias]) })),
  }));
}
