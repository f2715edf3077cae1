/**
 * One definition per resource. From it derive: the read-model table (DDL), the row writer used by
 * projections, the GraphQL object type, its <Node>FilterInput / <Node>SortInput and connection, and the
 * REST item. Add a field here and every interface gets it.
 */

import { createHash } from 'node:crypto';
import type { OrganisationCountry } from '../../domain/enums.ts';

/** How a field is stored and filtered. */
export type Scalar = 'UUID' | 'String' | 'Int' | 'Boolean' | 'Decimal' | 'DateTime' | 'Date';

export interface StoredField {
  kind: 'stored';
  name: string; // GraphQL field name (camelCase)
  column: string; // read-model column (snake_case)
  gql: string; // GraphQL type name (a scalar or an enum)
  scalar: Scalar; // storage and filter semantics
  enumValues?: readonly string[];
  nonNull?: boolean;
  rest?: boolean; // shown in REST items (default true)
  hidden?: boolean; // stored and filterable internally, not a GraphQL field (not in the spec's type)
}

/** An object reached through a stored id (`subAccount` via `subAccountId`). */
export interface ReferenceField {
  kind: 'reference';
  name: string;
  gql: string;
  resource: () => Resource;
  via: string; // name of the stored field holding the id
}

/** The rows of another resource pointing back here (`accountingEntryLines` of an entry). */
export interface ChildrenField {
  kind: 'children';
  name: string;
  gql: string;
  resource: () => Resource;
  foreignKey: string; // stored field name in the child
  orderBy: string; // stored field name in the child
  /**
   * The parent's stored field the children's foreignKey names, when not its id (a product's taxes are the
   * taxes of its taxGroupId; an entry's invoice's open items those of its accountingEntryId).
   */
  parentKey?: string;
  /** The spec's name of the sort input of the list's `order` argument (the child's SortInput fields); none: no argument. */
  orderInput?: string;
}

/** Declared by the spec, not (yet) backed by data in this service: resolves to null. */
export interface AbsentField {
  kind: 'absent';
  name: string;
  gql: string;
  /** The spec's arguments of the field, as SDL (`(order: [X!])`), accepted and unused. */
  args?: string;
}

/** The reading organisation's facts a computed field may depend on (its country never changes). */
export interface ReadingOrganisation {
  id: string;
  country: OrganisationCountry;
}

/** Derived from the row's stored columns at read time (and the reading organisation's facts, when `byOrganisation`). */
export interface ComputedField {
  kind: 'computed';
  name: string;
  gql: string;
  /** Given the reading organisation (loaded once per request): a rate that depends on its country. */
  byOrganisation?: boolean;
  resolve: (row: Record<string, unknown>, organisation?: ReadingOrganisation) => unknown;
}

/**
 * An object kept in the row's own (hidden) columns, filtered through them (`accountingEntryThirdParty: { code }` is
 * the line's thirdCode), and completed at read time by the row of another read model it names by id and kind: the
 * party's current name and identifiers (api/graphql/embedded.ts loads those rows in one batch per request).
 */
export interface EmbeddedField {
  kind: 'embedded';
  name: string;
  gql: string;
  /** Its filterable fields: each one of this resource's stored fields. */
  filterBy: Record<string, string>;
  /** The stored fields naming the completing row, and the resource each kind is read from. */
  completedBy: { idField: string; kindField: string; resources: Record<string, () => Resource> };
  /** The object, from the row and the completing row found with its kind (null when none is). */
  resolve: (row: Record<string, unknown>, completing: { kind: string; row: Record<string, unknown> } | null) => unknown;
}

export type Field = StoredField | ReferenceField | ChildrenField | AbsentField | ComputedField | EmbeddedField;

/** A REST collection of a resource's rows: all of them, or those a fixed filter (a GraphQL `where`) selects. */
export interface RestCollection {
  path: string;
  displayedAs: (row: Record<string, unknown>) => string;
  where?: Record<string, unknown>;
}

export interface Resource {
  typeName: string; // GraphQL object type
  table: string; // read-model table
  scope: 'organisation' | 'global';
  fields: Field[];
  /**
   * Query roots: the connection (plural) and, where Sage's operations read one by id with `$id: ID!`, that
   * root's name (`<byId>(id: ID!): <typeName>`, null when the caller's organisation has no such row).
   */
  query?: { field: string; connection: string; byId?: string };
  /** REST collections: usually one; several when some rows are listed apart under a fixed filter (`/sales_credit_notes`). */
  rest?: RestCollection | readonly RestCollection[];
  /** Stable default order of lists (field names), before the id tie-breaker. */
  defaultOrder?: string[];
  /** Extra indexes beyond (organisation_id) and the primary key (id). */
  indexes?: string[][];
  /**
   * Big lists: keep their row count per organisation, and per value of these low-cardinality fields,
   * so totalCount without a filter or with one `eq` on such a field is a lookup (see counts.ts).
   */
  countedBy?: string[];
  /**
   * Rows dated within the dates (startDate..endDate) of the parent a field names: an entry lies in its period
   * and in its exercise. A list filtered on such a parent, or an update by it, is then also a range of the `on`
   * field, which the index on (organisation_id, on, ...) walks from the parent's first day (dated-within.ts).
   */
  datedWithin?: { on: string; parents: Record<string, () => Resource> };
  /** The primary key's fields (organisationId for the organisation's column); default ['id']. */
  primaryKey?: readonly string[];
  /** Tables kept equal to sums over this one's rows, in the same transaction (sums.ts). */
  sums?: readonly SumSpec[];
  /**
   * Deleted rows are kept in this resource's table (tombstones): the fields both have, copied by the delete itself,
   * and the values the delete adds (Writes.delete `kept`), so that it needs no other statement or earlier row.
   */
  keepsDeleted?: () => Resource;
}

/**
 * A table of sums over a resource's rows: one row per value of `keys` (field names both resources have), with the
 * sum of each of `amounts` (Decimal fields of both) and the number of rows in `count` (an Int field of `into`),
 * there exactly while some row has that key. `onlyWith`: a key field rows without a value of are left out.
 * `into`'s primary key is the organisation and the keys.
 */
export interface SumSpec {
  into: () => Resource;
  keys: readonly string[];
  amounts: readonly string[];
  count: string;
  onlyWith?: string;
}

const SQL_TYPE: Record<Scalar, string> = {
  UUID: 'uuid',
  String: 'text',
  Int: 'integer',
  Boolean: 'boolean',
  Decimal: 'numeric', // unconstrained: keeps the scale the amount was posted with
  DateTime: 'timestamptz',
  Date: 'date',
};

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Field builders keep resource files one line per field. */
export const f = {
  uuid: (name: string, extra: Partial<StoredField> = {}): StoredField => ({ kind: 'stored', name, column: snake(name), gql: 'UUID', scalar: 'UUID', ...extra }),
  string: (name: string, extra: Partial<StoredField> = {}): StoredField => ({ kind: 'stored', name, column: snake(name), gql: 'String', scalar: 'String', ...extra }),
  int: (name: string, extra: Partial<StoredField> = {}): StoredField => ({ kind: 'stored', name, column: snake(name), gql: 'Int', scalar: 'Int', ...extra }),
  bool: (name: string, extra: Partial<StoredField> = {}): StoredField => ({ kind: 'stored', name, column: snake(name), gql: 'Boolean', scalar: 'Boolean', ...extra }),
  decimal: (name: string, extra: Partial<StoredField> = {}): StoredField => ({ kind: 'stored', name, column: snake(name), gql: 'Decimal', scalar: 'Decimal', ...extra }),
  dateTime: (name: string, extra: Partial<StoredField> = {}): StoredField => ({ kind: 'stored', name, column: snake(name), gql: 'DateTime', scalar: 'DateTime', ...extra }),
  date: (name: string, extra: Partial<StoredField> = {}): StoredField => ({ kind: 'stored', name, column: snake(name), gql: 'Date', scalar: 'Date', ...extra }),
  enum: (name: string, gql: string, values: readonly string[], extra: Partial<StoredField> = {}): StoredField => ({ kind: 'stored', name, column: snake(name), gql, scalar: 'String', enumValues: values, ...extra }),
  ref: (name: string, gql: string, resource: () => Resource, via: string): ReferenceField => ({ kind: 'reference', name, gql, resource, via }),
  children: (name: string, gql: string, resource: () => Resource, foreignKey: string, orderBy: string, parentKey?: string, orderInput?: string): ChildrenField => ({ kind: 'children', name, gql: `[${gql}]`, resource, foreignKey, orderBy, ...(parentKey ? { parentKey } : {}), ...(orderInput ? { orderInput } : {}) }),
  absent: (name: string, gql: string, args?: string): AbsentField => ({ kind: 'absent', name, gql, ...(args && { args }) }),
  computed: (name: string, gql: string, resolve: (row: Record<string, unknown>) => unknown): ComputedField => ({ kind: 'computed', name, gql, resolve }),
  computedFor: (name: string, gql: string, resolve: (row: Record<string, unknown>, organisation: ReadingOrganisation) => unknown): ComputedField => ({
    kind: 'computed', name, gql, byOrganisation: true, resolve: (row, organisation) => resolve(row, organisation!),
  }),
  embedded: (name: string, gql: string, definition: Omit<EmbeddedField, 'kind' | 'name' | 'gql'>): EmbeddedField => ({ kind: 'embedded', name, gql, ...definition }),
};

export const restCollections = (r: Resource): readonly RestCollection[] => (r.rest === undefined ? [] : Array.isArray(r.rest) ? r.rest : [r.rest as RestCollection]);

export const storedFields = (r: Resource): StoredField[] => r.fields.filter((x): x is StoredField => x.kind === 'stored');

export function storedField(r: Resource, name: string): StoredField {
  const field = storedFields(r).find((x) => x.name === name);
  if (!field) throw new Error(`${r.typeName} has no stored field ${name}`);
  return field;
}

/** The column of a field a statement finds rows by: a stored field's, or organisation_id for the organisation's. */
export function columnOf(r: Resource, name: string): string {
  return name === 'organisationId' && r.scope === 'organisation' ? 'organisation_id' : storedField(r, name).column;
}

/** The primary key's columns: (id) unless the resource names its own. */
export function primaryKeyColumns(r: Resource): string[] {
  return (r.primaryKey ?? ['id']).map((name) => columnOf(r, name));
}

/** (organisation_id) unless the primary key or a declared index starts with it: a btree on (a, b) serves lookups on a alone. */
function indexColumns(r: Resource): string[][] {
  const declared = r.indexes ?? [];
  const byOrganisation = r.scope === 'organisation' && ![primaryKeyColumns(r), ...declared].some((columns) => columns[0] === 'organisation_id');
  return [...(byOrganisation ? [['organisation_id']] : []), ...declared];
}

/** One of a table's indexes: the primary key first, then (organisation_id) and the resource's own. */
export interface IndexDefinition {
  name: string;
  columns: string[];
  /** Builds it on an existing table (a rebuild's shadow gets its indexes after the bulk load). */
  create: string;
}

/** A table or index name without its schema (`replay_x.accounting_entries` -> `accounting_entries`). */
export const bareName = (name: string): string => name.slice(name.lastIndexOf('.') + 1);

/** A name's schema with its dot (`replay_x.accounting_entries` -> `replay_x.`), or '' for an unqualified one. */
export const schemaPrefix = (name: string): string => name.slice(0, name.length - bareName(name).length);

/** PostgreSQL cuts names at 63 bytes (NAMEDATALEN - 1). */
const MAX_NAME_BYTES = 63;

/**
 * An index's name: table, columns, `_idx`. One longer than PostgreSQL keeps ends in a digest of the whole name
 * instead of being cut, so that a table's names stay apart and a rebuild finds its shadow's by name.
 */
function indexName(tableName: string, columns: string[]): string {
  const bare = `${bareName(tableName)}_${columns.join('_')}_idx`;
  const schema = schemaPrefix(tableName);
  if (Buffer.byteLength(bare) <= MAX_NAME_BYTES) return schema + bare;
  const digest = createHash('sha256').update(bare).digest('hex').slice(0, 10);
  return `${schema}${bare.slice(0, MAX_NAME_BYTES - digest.length - 1)}_${digest}`;
}

export function indexDefinitions(r: Resource, tableName = r.table): IndexDefinition[] {
  const primaryKey = `${tableName}_pkey`;
  const keyColumns = primaryKeyColumns(r);
  return [
    {
      name: primaryKey,
      columns: keyColumns,
      // The index first (a share lock: other indexes of the table can be built meanwhile), then the constraint on it.
      create: `CREATE UNIQUE INDEX ${bareName(primaryKey)} ON ${tableName} (${keyColumns.join(', ')}); ALTER TABLE ${tableName} ADD CONSTRAINT ${bareName(primaryKey)} PRIMARY KEY USING INDEX ${bareName(primaryKey)}`,
    },
    ...indexColumns(r).map((columns) => {
      const name = indexName(tableName, columns);
      return { name, columns, create: `CREATE INDEX IF NOT EXISTS ${bareName(name)} ON ${tableName} (${columns.join(', ')})` };
    }),
  ];
}

/** Names of the table's indexes (primary key first): a rebuild renames the shadow's to these. */
export function indexNames(r: Resource, tableName = r.table): string[] {
  return indexDefinitions(r, tableName).map((i) => i.name);
}

/**
 * CREATE TABLE for the resource under a given physical name (live or shadow), with its indexes
 * unless `withIndexes` is false (a bulk load builds them afterwards, see indexDefinitions).
 */
export function tableDdl(r: Resource, tableName = r.table, withIndexes = true): string {
  const columns = storedFields(r).map((x) => `${x.column} ${SQL_TYPE[x.scalar]}`);
  if (r.scope === 'organisation') columns.unshift('organisation_id uuid NOT NULL');
  const [primaryKey, ...indexes] = indexDefinitions(r, tableName);
  if (withIndexes) columns.push(`CONSTRAINT ${bareName(primaryKey.name)} PRIMARY KEY (${primaryKey.columns.join(', ')})`);
  const createIndexes = withIndexes ? indexes.map((i) => `${i.create};`) : [];
  return `CREATE TABLE IF NOT EXISTS ${tableName} (\n  ${columns.join(',\n  ')}\n);\n${createIndexes.join('\n')}\n${isolationDdl(r, tableName)}`;
}

/** The role API reads run as: it holds no privilege but SELECT, and row-level security binds it. */
export const READER_ROLE = 'ledger_reader';

/**
 * Tenant isolation below the application: the reader role sees only the rows of the organisation
 * its transaction names (`ledger.organisation_id`), so even a faulty query cannot leak another's rows.
 */
function isolationDdl(r: Resource, tableName: string): string {
  const grant = `GRANT SELECT ON ${tableName} TO ${READER_ROLE};`;
  if (r.scope !== 'organisation') return grant;
  return `${grant}
ALTER TABLE ${tableName} ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS tenant_isolation ON ${tableName};
CREATE POLICY tenant_isolation ON ${tableName} FOR SELECT TO ${READER_ROLE}
  USING (organisation_id = nullif(current_setting('ledger.organisation_id', true), '')::uuid);`;
}

/** A resource's row layout in the read-model table: columns in declared order, organisation first. */
interface RowLayout {
  columns: string[];
  types: string[];
  /** The row's values (by field name) in column order, null for a missing field. */
  valuesOf: (row: Record<string, unknown>) => unknown[];
}

/**
 * A function reading these fields by constant names: `row[name]` with a name that varies is a lookup
 * the engine cannot cache, and a rebuild reads tens of millions of fields. The names are the resource's
 * own field names, written as JSON string literals.
 */
function fieldReader(names: readonly string[]): (row: Record<string, unknown>) => unknown[] {
  try {
    return new Function('row', `return [${names.map((n) => `row[${JSON.stringify(n)}] ?? null`).join(', ')}];`) as (row: Record<string, unknown>) => unknown[];
  } catch {
    // (A process run with --disallow-code-generation-from-strings: the same values, by a loop.)
    return (row) => names.map((name) => row[name] ?? null);
  }
}

const layouts = new WeakMap<Resource, RowLayout>();

function rowLayout(r: Resource): RowLayout {
  let layout = layouts.get(r);
  if (!layout) {
    const fields = storedFields(r);
    const scoped = r.scope === 'organisation';
    const names = [...(scoped ? ['organisationId'] : []), ...fields.map((x) => x.name)];
    layout = {
      columns: [...(scoped ? ['organisation_id'] : []), ...fields.map((x) => x.column)],
      types: [...(scoped ? ['uuid'] : []), ...fields.map((x) => SQL_TYPE[x.scalar])],
      valuesOf: fieldReader(names),
    };
    layouts.set(r, layout);
  }
  return layout;
}

/** A resource's table columns and their SQL types, in declared order (organisation first): what its version digests. */
export function tableColumns(r: Resource): { columns: readonly string[]; types: readonly string[] } {
  return rowLayout(r);
}

/** SQL types of rowValues' columns, in the same order. */
export function columnTypes(r: Resource): string[] {
  return rowLayout(r).types;
}

/** A read-model row in field names -> column values in declared order (organisation first). */
export function rowValues(r: Resource, row: Record<string, unknown>): { columns: string[]; values: unknown[] } {
  const { columns, valuesOf } = rowLayout(r);
  if (r.scope === 'organisation' && !row.organisationId) throw new Error(`${r.typeName} row without organisationId`);
  return { columns, values: valuesOf(row) };
}
