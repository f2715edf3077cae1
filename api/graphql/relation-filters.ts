/**
 * Filters and sorts through related objects, HotChocolate's way: `journalType: { code: { eq: "VEN" } }` through a
 * reference, `accountingEntryLines: { some: { ... } }` (or all, none, any) through a resource's children. Each is a
 * subquery over the related read model, joined by the referenced id (its primary key) or by the child's foreign key
 * to the parent's id or parentKey (each child table has an index on it), and always confined to the caller's organisation: a relation never reaches
 * another organisation's rows, even where row-level security is not in force.
 */
import { RESOURCES } from '../../modules/index.ts';
import { storedField, type ChildrenField, type ReferenceField, type Resource } from '../../projections/engine/resource.ts';

/** Relation levels one filter or sort may go through: Sage's own go through two (customers ⇉contacts ⇉emails). */
export const MAX_RELATION_DEPTH = 3;

/** What going through one relation adds to the cost analysis: a field's weight (the spec's 10). */
export const RELATION_FILTER_WEIGHT = 10;

export type Relation = ReferenceField | ChildrenField;

/** The list operators of a children filter. */
export const LIST_OPERATORS = ['some', 'all', 'none', 'any'] as const;
export type ListOperator = (typeof LIST_OPERATORS)[number];

/** Where the rows being filtered stand: their alias, how many relations lie above them, the organisation's parameter. */
export interface RelationScope {
  alias: string;
  depth: number;
  organisationParam?: string;
}

export function relationOf(r: Resource, name: string): Relation | undefined {
  const field = r.fields.find((x) => x.name === name);
  return field && (field.kind === 'reference' || field.kind === 'children') ? field : undefined;
}

/** The scope of the rows one relation further down. */
export const relatedScope = (scope: RelationScope): RelationScope => ({ ...scope, alias: `r${scope.depth + 1}`, depth: scope.depth + 1 });

/** `FROM <related table> rN WHERE <joined to the row> AND <same organisation>`: the head of every relation subquery. */
export function relatedRows(owner: Resource, relation: Relation, scope: RelationScope): string {
  const target = relation.resource();
  const { alias } = relatedScope(scope);
  const joined =
    relation.kind === 'reference'
      ? `${alias}.id = ${scope.alias}.${storedField(owner, relation.via).column}`
      : `${alias}.${storedField(target, relation.foreignKey).column} = ${scope.alias}.${relation.parentKey ? storedField(owner, relation.parentKey).column : 'id'}`;
  if (target.scope !== 'organisation') return `FROM ${target.table} ${alias} WHERE ${joined}`;
  if (!scope.organisationParam) throw new Error(`a filter through ${relation.name} needs the caller's organisation`);
  return `FROM ${target.table} ${alias} WHERE ${joined} AND ${alias}.organisation_id = ${scope.organisationParam}`;
}

/**
 * A list quantifier over the child rows whose condition is `nested` (SQL over the child's alias). `all` holds when no
 * child fails the condition, a child whose condition is unknown (a comparison with NULL) failing it, and so holds for
 * a row without children, as HotChocolate's `All` does.
 */
export function quantifiedSql(head: string, op: ListOperator, nested: string | boolean): string {
  switch (op) {
    case 'some':
      return `EXISTS (SELECT 1 ${head} AND (${nested}))`;
    case 'none':
      return `NOT EXISTS (SELECT 1 ${head} AND (${nested}))`;
    case 'all':
      return `NOT EXISTS (SELECT 1 ${head} AND (${nested}) IS NOT TRUE)`;
    case 'any':
      return `${nested ? '' : 'NOT '}EXISTS (SELECT 1 ${head})`;
  }
}

/**
 * The one list a filter asks about when it asks nothing else: `{ accountingEntryLines: { some: {...} } }` (or `any:
 * true`) over organisation-scoped children. Its parents are then the rows whose ids the matching children name, which
 * an index on (organisation_id, <condition's column>, <foreign key>) lists; only those parents are visited. Not
 * every child row's parent is one of the listed rows: customers and suppliers share their addresses and contacts.
 */
export function soleListCondition(owner: Resource, filter: Record<string, unknown> | undefined): { relation: ChildrenField; condition: Record<string, unknown> | undefined } | undefined {
  const entries = Object.entries(filter ?? {}).filter(([, v]) => v !== undefined);
  if (entries.length !== 1 || owner.scope !== 'organisation') return undefined;
  const [name, value] = entries[0];
  const relation = relationOf(owner, name);
  // (Children keyed by another parent field than the id name no parent ids to list.)
  if (relation?.kind !== 'children' || relation.parentKey || relation.resource().scope !== 'organisation' || value === null || typeof value !== 'object') return undefined;
  const ops = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (ops.length !== 1) return undefined;
  const [op, operand] = ops[0];
  if (op === 'any' && operand === true) return { relation, condition: undefined };
  if (op === 'some' && operand !== null && typeof operand === 'object') return { relation, condition: operand as Record<string, unknown> };
  return undefined;
}

let parentTables: Map<string, Set<string>> | undefined;

/**
 * Whether every row of `relation`'s child table belongs to a row of `owner`'s table: no other resource lists
 * children in that table (customers and suppliers share their addresses and contacts; an entry's lines are its
 * own, written and deleted with it). Then a sole list condition's parents are counted from the children alone.
 */
export function childrenOwnedBy(owner: Resource, relation: ChildrenField): boolean {
  if (!parentTables) {
    const tables = new Map<string, Set<string>>();
    const seen = new Set<Resource>();
    const walk = (r: Resource): void => {
      if (seen.has(r)) return;
      seen.add(r);
      for (const field of r.fields) {
        if (field.kind !== 'children') continue;
        const child = field.resource();
        tables.set(child.table, (tables.get(child.table) ?? new Set()).add(r.table));
        walk(child);
      }
    };
    RESOURCES.forEach(walk);
    parentTables = tables;
  }
  const parents = parentTables.get(relation.resource().table);
  return parents?.size === 1 && parents.has(owner.table);
}
