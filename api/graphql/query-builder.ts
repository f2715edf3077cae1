/**
 * HotChocolate-style list queries over a resource's read model: `where` filters (eq neq in nin gt gte
 * lt lte contains ncontains startsWith endsWith, and/or), `order`, cursor paging with totalCount.
 * Every query of an organisation-scoped resource is confined to the caller's organisation.
 */
import type pg from 'pg';
import { keptCount } from '../../projections/engine/counts.ts';
import { MIDNIGHT_SPREAD, datedWithinBounds, isDatedWithin } from '../../projections/engine/dated-within.ts';
import { storedField, storedFields, type EmbeddedField, type Resource, type StoredField } from '../../projections/engine/resource.ts';
import { filterValueProblem } from './filter-values.ts';
import { LIST_OPERATORS, MAX_RELATION_DEPTH, childrenOwnedBy, quantifiedSql, relatedRows, relatedScope, relationOf, soleListCondition, type ListOperator, type Relation, type RelationScope } from './relation-filters.ts';

export const PAGING = Object.freeze({ defaultPageSize: 20, maxPageSize: 500, maxFilterDepth: 10, maxInList: 1000 });

export class QueryInputError extends Error {}

type Filter = Record<string, unknown>;

const OPERATORS: Record<string, (col: string, p: string) => string> = {
  eq: (c, p) => `${c} = ${p}`,
  neq: (c, p) => `(${c} <> ${p} OR ${c} IS NULL)`,
  gt: (c, p) => `${c} > ${p}`,
  gte: (c, p) => `${c} >= ${p}`,
  lt: (c, p) => `${c} < ${p}`,
  lte: (c, p) => `${c} <= ${p}`,
  ngt: (c, p) => `NOT (${c} > ${p})`,
  ngte: (c, p) => `NOT (${c} >= ${p})`,
  nlt: (c, p) => `NOT (${c} < ${p})`,
  nlte: (c, p) => `NOT (${c} <= ${p})`,
  in: (c, p) => `${c} = ANY(${p})`,
  nin: (c, p) => `NOT (${c} = ANY(${p}))`,
  contains: (c, p) => `strpos(${c}, ${p}) > 0`,
  ncontains: (c, p) => `strpos(${c}, ${p}) = 0`,
  startsWith: (c, p) => `starts_with(${c}, ${p})`,
  nstartsWith: (c, p) => `NOT starts_with(${c}, ${p})`,
  endsWith: (c, p) => `right(${c}, length(${p})) = ${p}`,
  nendsWith: (c, p) => `right(${c}, length(${p})) <> ${p}`,
};

const CAST: Record<StoredField['scalar'], string> = {
  UUID: 'uuid', String: 'text', Int: 'integer', Boolean: 'boolean', Decimal: 'numeric', DateTime: 'timestamptz', Date: 'date',
};

/**
 * The condition `filter` states on the rows of `resource` (alias `scope.alias`, `t` at the top). Filters through
 * related objects and lists go `scope.depth` relations down, at most MAX_RELATION_DEPTH; `scope.organisationParam`
 * confines them to the caller's organisation (relation-filters.ts).
 */
export function whereSql(resource: Resource, filter: Filter | undefined, params: unknown[], depth = 0, scope: RelationScope = { alias: 't', depth: 0 }): string {
  if (!filter) return 'TRUE';
  if (depth > PAGING.maxFilterDepth) throw new QueryInputError('filter nested too deeply');
  const byName = new Map(storedFields(resource).map((x) => [x.name, x]));
  const parts: string[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    const relation = relationOf(resource, key);
    // GraphQL lets a client send null for any optional input field; here it would name no condition at all.
    if (value === null) throw new QueryInputError(`${key}: ${key === 'and' || key === 'or' ? 'a list of filters' : relation ? 'a filter of the related object' : 'an object of operators'}, not null`);
    // The rows the filter does not take (ours: the filter inputs declare no `not`; the lists' catalog states complements).
    if (key === 'not' && !relation && !resource.fields.some((x) => x.name === 'not')) {
      parts.push(`NOT coalesce((${whereSql(resource, value as Filter, params, depth + 1, scope)}), false)`);
      continue;
    }
    if (key === 'and' || key === 'or') {
      const list = (value as Filter[]).map((sub) => `(${whereSql(resource, sub, params, depth + 1, scope)})`);
      if (list.length > 0) parts.push(`(${list.join(key === 'and' ? ' AND ' : ' OR ')})`);
      continue;
    }
    if (relation) {
      parts.push(relationWhereSql(resource, relation, value as Filter, params, depth, scope));
      continue;
    }
    const embedded = embeddedOf(resource, key);
    if (embedded) {
      // Its fields are stored fields of this row (hidden ones too: the object is their public face).
      for (const [name, ops] of Object.entries(value as Filter)) {
        const stored = embedded.filterBy[name];
        if (!stored) throw new QueryInputError(`cannot filter on ${key}.${name}`);
        if (ops === null || typeof ops !== 'object') throw new QueryInputError(`${key}.${name}: an object of operators, not ${ops}`);
        parts.push(...operatorsSql(storedField(resource, stored), `${key}.${name}`, ops as Filter, params, scope));
      }
      continue;
    }
    const field = byName.get(key);
    if (!field || field.hidden) throw new QueryInputError(`cannot filter on ${key}`);
    parts.push(...operatorsSql(field, key, value as Filter, params, scope));
  }
  return parts.length ? parts.join(' AND ') : 'TRUE';
}

/** The conditions one stored field's operators (`{ eq: ..., in: [...] }`) state; `key` names it in errors. */
function operatorsSql(field: StoredField, key: string, ops: Filter, params: unknown[], scope: RelationScope): string[] {
  const parts: string[] = [];
  for (const [op, operand] of Object.entries(ops)) {
    const build = OPERATORS[op];
    if (!build || operand === undefined) throw new QueryInputError(`unknown operator ${op}`);
    const isList = op === 'in' || op === 'nin';
    if (isList && (!Array.isArray(operand) || operand.length > PAGING.maxInList)) throw new QueryInputError(`${op} takes a list of at most ${PAGING.maxInList}`);
    for (const v of isList ? (operand as unknown[]) : [operand]) {
      const problem = filterValueProblem(field.scalar, v);
      if (problem) throw new QueryInputError(`${key}.${op}: ${problem}`);
    }
    const column = `${scope.alias}.${field.column}`;
    // eq/neq null mean IS [NOT] NULL; with a value they are plain comparisons, which an index can serve
    // (IS [NOT] DISTINCT FROM never uses one).
    if ((op === 'eq' || op === 'neq') && operand === null) {
      parts.push(`${column} IS ${op === 'eq' ? '' : 'NOT '}NULL`);
      continue;
    }
    params.push(operand);
    parts.push(build(column, `$${params.length}::${CAST[field.scalar]}${isList ? '[]' : ''}`));
  }
  return parts;
}

/** The embedded object (kept in the row's own columns) a filter key names, if any. */
function embeddedOf(resource: Resource, key: string): EmbeddedField | undefined {
  const field = resource.fields.find((x) => x.name === key);
  return field?.kind === 'embedded' ? field : undefined;
}

/** A filter through a reference (a subquery on the referenced row) or a list (`some`, `all`, `none`, `any`). */
function relationWhereSql(owner: Resource, relation: Relation, value: Filter, params: unknown[], depth: number, scope: RelationScope): string {
  if (scope.depth + 1 > MAX_RELATION_DEPTH) throw new QueryInputError(`${relation.name}: a filter may go through at most ${MAX_RELATION_DEPTH} related objects or lists`);
  const target = relation.resource();
  const inner = relatedScope(scope);
  const head = relatedRows(owner, relation, scope);
  if (relation.kind === 'reference') return `EXISTS (SELECT 1 ${head} AND (${whereSql(target, value, params, depth + 1, inner)}))`;
  const parts: string[] = [];
  for (const [op, operand] of Object.entries(value)) {
    if (operand === undefined) continue;
    if (!(LIST_OPERATORS as readonly string[]).includes(op)) throw new QueryInputError(`${relation.name}: unknown list operator ${op} (some, all, none or any)`);
    if (op === 'any') {
      if (typeof operand !== 'boolean') throw new QueryInputError(`${relation.name}.any: true or false`);
      parts.push(quantifiedSql(head, 'any', operand));
      continue;
    }
    if (operand === null || typeof operand !== 'object') throw new QueryInputError(`${relation.name}.${op}: a filter of ${target.typeName}, not ${operand}`);
    parts.push(quantifiedSql(head, op as ListOperator, whereSql(target, operand as Filter, params, depth + 1, inner)));
  }
  return parts.length ? parts.join(' AND ') : 'TRUE';
}

/**
 * What a filter implies without stating it: rows dated within a parent (projections/dated-within.ts) that the filter
 * names with `eq` or `in` lie between the parents' first and last days. Stated, the planner walks the date index
 * from the first day instead of taking a month's rows to be spread over the year. Only conjuncts imply anything
 * (the top level and `and`, never `or`), and only the first naming each parent (more would narrow no further than
 * the filter does, but cost a parameter and two subqueries each). The filter itself stays, so the rows are the same.
 */
export function impliedDateRanges(resource: Resource, filter: Filter | undefined, params: unknown[], organisationParam: string): string[] {
  const ranges: string[] = [];
  const bounded = new Set<string>();
  const visit = (conjuncts: Filter | undefined) => {
    for (const [key, value] of Object.entries(conjuncts ?? {})) {
      if (key === 'and' && Array.isArray(value)) {
        for (const sub of value as Filter[]) visit(sub);
        continue;
      }
      const { eq, in: among } = (value ?? {}) as Filter;
      const ids = eq != null ? [eq] : Array.isArray(among) ? among : undefined;
      if (!isDatedWithin(resource, key) || !ids || bounded.has(key)) continue;
      bounded.add(key);
      params.push(ids);
      ranges.push(...datedWithinBounds(resource, key, `$${params.length}`, organisationParam, { alias: 't', spread: MIDNIGHT_SPREAD.read }));
    }
  };
  visit(filter);
  return ranges;
}

type Sort = Record<string, unknown>;

export function orderSql(resource: Resource, order: Sort[] | undefined, scope: RelationScope = { alias: 't', depth: 0 }): string {
  const terms = (order?.length ? order : (resource.defaultOrder ?? []).map((name) => ({ [name]: 'ASC' as const }))).flatMap((o) =>
    sortTerms(resource, o, scope).map(({ value, dir }) => `${value} ${dir}`),
  );
  return [...terms, 't.id ASC'].join(', ');
}

/**
 * The values one sort object orders by, with their directions: a stored column, or through a reference
 * (`journalType: { code: ASC }`) the referenced row's value, as a subquery (null when nothing is referenced).
 */
function sortTerms(resource: Resource, sort: Sort, scope: RelationScope): { value: string; dir: 'ASC' | 'DESC' }[] {
  return Object.entries(sort).flatMap(([name, dir]) => {
    if (dir === undefined) return [];
    const relation = relationOf(resource, name);
    if (relation?.kind === 'reference' && dir !== null && typeof dir === 'object') {
      if (scope.depth + 1 > MAX_RELATION_DEPTH) throw new QueryInputError(`${name}: a sort may go through at most ${MAX_RELATION_DEPTH} related objects`);
      const head = relatedRows(resource, relation, scope);
      return sortTerms(relation.resource(), dir as Sort, relatedScope(scope)).map((term) => ({ value: `(SELECT ${term.value} ${head})`, dir: term.dir }));
    }
    const field = storedFields(resource).find((x) => x.name === name);
    if (!field || field.hidden || (dir !== 'ASC' && dir !== 'DESC')) throw new QueryInputError(`cannot sort on ${name}`);
    return [{ value: `${scope.alias}.${field.column}`, dir }];
  });
}

export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** A cursor is the base64 text of a row's offset in the list: only the cursors this code makes are read. */
const CURSOR_OFFSET = /^(0|[1-9]\d{0,14})$/;
const encodeCursor = (offset: number) => Buffer.from(String(offset)).toString('base64');
function decodeCursor(cursor: string): number {
  const offset = Buffer.from(cursor, 'base64').toString();
  if (!CURSOR_OFFSET.test(offset) || encodeCursor(Number(offset)) !== cursor) throw new QueryInputError(`invalid cursor ${JSON.stringify(cursor.slice(0, 40))}: pass a cursor this list returned`);
  return Number(offset);
}

/**
 * Offset window for first/after/last/before. Only `last` without a `before` cursor needs to know where the list
 * ends, and takes it from `total`; forward pages are bounded by their cursors and sizes, not by the count.
 */
export function pageWindow(args: PageArgs, total: number): { offset: number; limit: number } {
  for (const n of [args.first, args.last]) {
    if (n != null && (n < 0 || n > PAGING.maxPageSize)) throw new QueryInputError(`page size must be 0..${PAGING.maxPageSize}`);
  }
  let start = args.after ? decodeCursor(args.after) + 1 : 0;
  let end = args.before ? decodeCursor(args.before) : Infinity;
  if (args.first != null) end = Math.min(end, start + args.first);
  if (args.last != null) start = Math.max(start, (end === Infinity ? total : end) - args.last);
  if (args.first == null && args.last == null) end = Math.min(end, start + PAGING.defaultPageSize);
  if (end === Infinity) end = total;
  return { offset: start, limit: Math.max(0, end - start) };
}

export type Row = Record<string, unknown>;

/** Column row -> field-name object, with DateTime as ISO strings. */
export function toNode(resource: Resource, row: Row): Row {
  const node: Row = {};
  for (const x of storedFields(resource)) {
    const v = row[x.column];
    node[x.name] = v instanceof Date ? v.toISOString() : v;
  }
  return node;
}

export interface ListQuery extends PageArgs {
  where?: Filter;
  order?: Sort[];
}

/**
 * A top-level filter through a reference that names exactly one row is that row's id: `journalType: { code: { eq:
 * "VEN" } }` reads as `journalTypeId: { eq: <VEN's id> }`, so the flat filter's paths serve it (a kept count for
 * totalCount, the dated-within bounds). One small lookup on the referenced table, by the same compiled filter; a
 * filter naming none or several rows keeps its subquery, and so does one beside a condition on the id itself.
 */
async function referencesAsIds(db: pg.Pool | pg.PoolClient, resource: Resource, organisationId: string | null, filter: Filter | undefined, depth = 0): Promise<Filter | undefined> {
  if (!filter) return filter;
  const resolved: Filter = { ...filter };
  for (const [key, value] of Object.entries(filter)) {
    const relation = relationOf(resource, key);
    if (relation?.kind === 'children' && value !== null && typeof value === 'object') {
      // Inside a list filter too: `some: { subAccount: { code: ... } }` probes the children by the account's id.
      const child = relation.resource();
      const ops: Filter = { ...(value as Filter) };
      for (const op of ['some', 'all', 'none'] as const) {
        if (ops[op] !== null && typeof ops[op] === 'object') ops[op] = await referencesAsIds(db, child, organisationId, ops[op] as Filter, depth + 1);
      }
      resolved[key] = ops;
      continue;
    }
    if (relation?.kind !== 'reference' || value === null || typeof value !== 'object' || filter[relation.via] !== undefined || storedField(resource, relation.via).hidden) continue;
    const target = relation.resource();
    const scoped = target.scope === 'organisation';
    const params: unknown[] = scoped ? [organisationId] : [];
    // Compiled at the depth the reference stands in the filter: the depth limit refuses the same filters whatever the lookup finds.
    const where = whereSql(target, value as Filter, params, depth + 1, { alias: 't', depth: depth + 1, organisationParam: scoped ? '$1' : undefined });
    const { rows } = await db.query(`SELECT t.id FROM ${target.table} t WHERE ${scoped ? 't.organisation_id = $1 AND ' : ''}(${where}) LIMIT 2`, params);
    if (rows.length !== 1) continue;
    delete resolved[key];
    resolved[relation.via] = { eq: rows[0].id };
  }
  return resolved;
}

/**
 * The statement counting the rows `where` (the compiled filter) selects. A filter that is one `some` over a list
 * counts the parents whose ids the matching children name (soleListCondition). Children owned by this table alone
 * (childrenOwnedBy) are counted by their distinct parent keys, from the children's index only: 50,000 entries with
 * a line on an account without reading an entry. A child table other parents share (customers' and suppliers'
 * addresses and contacts) counts the parents in their own table.
 */
function countSql(resource: Resource, organisationId: string | null, filter: Filter | undefined, where: string, params: unknown[]): pg.QueryConfig {
  const list = soleListCondition(resource, filter);
  if (!list) return { text: `SELECT count(*)::int AS n FROM ${resource.table} t WHERE ${where}`, values: params };
  const child = list.relation.resource();
  const values: unknown[] = [organisationId];
  const condition = whereSql(child, list.condition, values, 1, { alias: 'c', depth: 1, organisationParam: '$1' });
  const parentKey = `c.${storedField(child, list.relation.foreignKey).column}`;
  const children = `FROM ${child.table} c WHERE c.organisation_id = $1 AND (${condition})`;
  // Children owned by this table alone: their distinct parents, read from the children's index only.
  if (childrenOwnedBy(resource, list.relation)) return { text: `SELECT count(DISTINCT ${parentKey})::int AS n ${children}`, values };
  return { text: `SELECT count(*)::int AS n FROM ${resource.table} t WHERE t.organisation_id = $1 AND t.id IN (SELECT ${parentKey} ${children})`, values };
}

/** A list's `where` as SQL over `t`, confined to the organisation (its first parameter), with the filter it compiled. */
export interface CompiledWhere {
  filter: Filter | undefined;
  where: string;
  params: unknown[];
  scope: RelationScope;
}

export async function compileWhere(db: pg.Pool | pg.PoolClient, resource: Resource, organisationId: string | null, filter: Filter | undefined): Promise<CompiledWhere> {
  const resolved = await referencesAsIds(db, resource, organisationId, filter);
  // The organisation is the first parameter: filters and sorts through relations confine their subqueries to it too.
  const scoped = resource.scope === 'organisation';
  const params: unknown[] = scoped ? [organisationId] : [];
  const organisationParam = '$1';
  const scope: RelationScope = { alias: 't', depth: 0, organisationParam: scoped ? organisationParam : undefined };
  let where = whereSql(resource, resolved, params, 0, scope);
  if (scoped) {
    where = [`t.organisation_id = ${organisationParam}`, ...impliedDateRanges(resource, resolved, params, organisationParam), `(${where})`].join(' AND ');
  }
  return { filter: resolved, where, params, scope };
}

export async function listQuery(db: pg.Pool | pg.PoolClient, resource: Resource, organisationId: string | null, query: ListQuery) {
  const { filter, where, params, scope } = await compileWhere(db, resource, organisationId, query.where);
  const q = { ...query, where: filter };
  // Big lists keep their counts (projections/counts.ts); other filters count the matching rows.
  const kept = resource.scope === 'organisation' ? await keptCount(db, resource, organisationId!, q.where) : undefined;
  const totalCount: number = kept ?? (await db.query(countSql(resource, organisationId, q.where, where, params))).rows[0].n;
  const { offset, limit } = pageWindow(q, totalCount);
  // One row past the page says whether a next page exists: the rows decide, not the stored count, which may
  // disagree with them (a page claiming a next one that has no rows would loop a client following pageInfo).
  const { rows } = await db.query(
    `SELECT t.* FROM ${resource.table} t WHERE ${where} ORDER BY ${orderSql(resource, q.order, scope)} LIMIT ${limit + 1} OFFSET ${offset}`,
    params,
  );
  const page = rows.slice(0, limit);
  const edges = page.map((row, i) => ({ cursor: encodeCursor(offset + i), node: toNode(resource, row) }));
  return {
    edges,
    nodes: edges.map((e) => e.node),
    totalCount,
    pageInfo: {
      // A page without rows has no cursor to go on from: it claims neither a next nor a previous page.
      hasNextPage: page.length > 0 && rows.length > limit,
      hasPreviousPage: page.length > 0 && offset > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

/** Rows of `resource` whose `field` is one of `values`, for batched reference/children loading, in a list's `order` if given. */
export async function rowsWhereIn(db: pg.Pool | pg.PoolClient, resource: Resource, organisationId: string | null, fieldName: string, values: unknown[], orderBy?: string, sort?: Sort[]) {
  const field = storedFields(resource).find((x) => x.name === fieldName)!;
  const params: unknown[] = [values];
  let where = `t.${field.column} = ANY($1::${CAST[field.scalar]}[])`;
  if (resource.scope === 'organisation') {
    params.push(organisationId);
    where += ` AND t.organisation_id = $2`;
  }
  const scoped = resource.scope === 'organisation';
  const order = sort?.length
    ? `ORDER BY ${orderSql(resource, sort, { alias: 't', depth: 0, organisationParam: scoped ? '$2' : undefined })}`
    : orderBy ? `ORDER BY t.${storedFields(resource).find((x) => x.name === orderBy)!.column}` : '';
  const { rows } = await db.query(`SELECT t.* FROM ${resource.table} t WHERE ${where} ${order}`, params);
  return rows.map((r) => toNode(resource, r));
}
