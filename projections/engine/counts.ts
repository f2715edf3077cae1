/**
 * Row counts kept alongside the read models, so that `totalCount` of a big list is one lookup instead
 * of a count over a million rows. For each organisation-scoped resource that declares `countedBy`,
 * the count of its rows per organisation (field '') and per value of each counted field is kept in
 * `read_model_counts`, next to the table (same schema), by the same Writes that change the rows, in
 * the same transaction. Counted fields are low-cardinality equality filters (exercise, period,
 * account): a count per value of a unique field would be as big as the table.
 */
import type pg from 'pg';
import { READER_ROLE, bareName, schemaPrefix, storedField, type Resource } from './resource.ts';

export const COUNTS_TABLE = 'read_model_counts';

/** `schema.read_model_counts` for a table named `schema.table`, the search-path one otherwise. */
export function countsTableOf(table: string): string {
  return `${schemaPrefix(table)}${COUNTS_TABLE}`;
}

export function countsDdl(countsTable = COUNTS_TABLE): string {
  return `CREATE TABLE IF NOT EXISTS ${countsTable} (
  table_name      text NOT NULL,
  organisation_id uuid NOT NULL,
  field           text NOT NULL,
  value           text NOT NULL,
  n               bigint NOT NULL CHECK (n >= 0),
  PRIMARY KEY (table_name, organisation_id, field, value)
);
GRANT SELECT ON ${countsTable} TO ${READER_ROLE};
ALTER TABLE ${countsTable} ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS tenant_isolation ON ${countsTable};
CREATE POLICY tenant_isolation ON ${countsTable} FOR SELECT TO ${READER_ROLE}
  USING (organisation_id = nullif(current_setting('ledger.organisation_id', true), '')::uuid);`;
}

export const isCounted = (r: Resource): boolean => r.scope === 'organisation' && r.countedBy !== undefined;

const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Counted fields must compare like their text: ids, whole numbers, flags (not free text, amounts or dates). */
const COUNTABLE = new Set(['UUID', 'Int', 'Boolean']);

export function assertCountable(r: Resource): void {
  for (const name of r.countedBy ?? []) {
    const scalar = storedField(r, name).scalar;
    if (!COUNTABLE.has(scalar)) throw new Error(`${r.typeName}.${name} (${scalar}) cannot be counted`);
  }
}

/** Columns a Writes statement returns so the rows it removes or changes can be counted: organisation first. */
export function countedColumns(r: Resource): string[] {
  return ['organisation_id', ...(r.countedBy ?? []).map((name) => storedField(r, name).column)];
}

/** The key a value is counted under; filters are looked up with the same spelling. */
export function countedValue(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  return typeof value === 'string' ? value.toLowerCase() : String(value);
}

interface Delta {
  table: string;
  organisationId: string;
  field: string;
  value: string;
  n: number;
}

/** Count changes by table, organisation, field and value. */
export type TallyData = Map<string, Map<string, Map<string, Map<string, Delta>>>>;

/** Count changes of one batch, written at its end: one upsert for what grew, one update for what shrank. */
export class Tally {
  /**
   * By table, organisation, field and value. Nested maps rather than one joined key: a batch of a rebuild
   * tallies millions of times, and keys of strings that already exist cost no allocation.
   */
  private readonly deltas: TallyData;

  /** `data`: another Tally's (handed over from a worker thread), or none. */
  constructor(data: TallyData = new Map()) {
    this.deltas = data;
  }

  /** The count changes as plain maps, which pass between threads as they are. */
  get data(): TallyData {
    return this.deltas;
  }

  /**
   * Where the last row of each table was counted: its organisation's total and value maps, and each
   * counted field's last value with its count. Rows of one table and organisation come in long runs, and
   * their counted values repeat (an exercise, a period, an account): a repeat costs one comparison, not
   * the key's spelling and a look-up by it.
   */
  private readonly recent = new Map<string, { organisationId: string; total: Delta; byValue: Map<string, Delta>[]; lastValue: unknown[]; lastDelta: (Delta | undefined)[] }>();

  /** A row (field names) of `r` in `table` added (+1) or removed (-1). */
  row(r: Resource, table: string, row: Record<string, unknown>, n: 1 | -1): void {
    const organisationId = row.organisationId as string;
    const fields = r.countedBy ?? [];
    let at = this.recent.get(table);
    if (at?.organisationId !== organisationId) {
      const byField = child(child(this.deltas, table), organisationId);
      const total = deltaOf(child(byField, ''), table, organisationId, '', '');
      at = { organisationId, total, byValue: fields.map((field) => child(byField, field)), lastValue: fields.map(() => undefined), lastDelta: fields.map(() => undefined) };
      this.recent.set(table, at);
    }
    at.total.n += n;
    for (let i = 0; i < fields.length; i++) {
      const raw = row[fields[i]];
      let delta = at.lastDelta[i];
      if (delta === undefined || raw !== at.lastValue[i]) {
        const value = countedValue(raw);
        if (value === undefined) continue;
        delta = deltaOf(at.byValue[i], table, organisationId, fields[i], value);
        at.lastValue[i] = raw;
        at.lastDelta[i] = delta;
      }
      delta.n += n;
    }
  }

  /** Rows as a statement returned them (countedColumns order) added or removed. */
  returned(r: Resource, table: string, rows: unknown[][], n: 1 | -1): void {
    const fields = ['organisationId', ...(r.countedBy ?? [])];
    for (const values of rows) this.row(r, table, Object.fromEntries(fields.map((f, i) => [f, values[i]])), n);
  }

  async flush(client: pg.PoolClient): Promise<void> {
    const byCountsTable = new Map<string, Delta[]>();
    const all = [...this.deltas.values()].flatMap((o) => [...o.values()].flatMap((f) => [...f.values()].flatMap((v) => [...v.values()])));
    for (const d of all) {
      if (d.n === 0) continue;
      const countsTable = countsTableOf(d.table);
      const deltas = byCountsTable.get(countsTable);
      if (deltas) deltas.push(d);
      else byCountsTable.set(countsTable, [d]);
    }
    this.deltas.clear();
    this.recent.clear();
    for (const [countsTable, deltas] of byCountsTable) {
      const columns = (ds: Delta[]) => [ds.map((d) => bareName(d.table)), ds.map((d) => d.organisationId), ds.map((d) => d.field), ds.map((d) => d.value), ds.map((d) => d.n)];
      const rows = `unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::bigint[]) AS d(table_name, organisation_id, field, value, n)`;
      const added = deltas.filter((d) => d.n > 0);
      const removed = deltas.filter((d) => d.n < 0);
      if (added.length > 0) {
        await client.query(
          `INSERT INTO ${countsTable} AS c (table_name, organisation_id, field, value, n) SELECT d.* FROM ${rows}
           ON CONFLICT (table_name, organisation_id, field, value) DO UPDATE SET n = c.n + excluded.n`,
          columns(added),
        );
      }
      if (removed.length > 0) {
        // Rows can only go from a count that has them (and the table's CHECK keeps counts from going below zero).
        const { rowCount } = await client.query(
          `UPDATE ${countsTable} AS c SET n = c.n + d.n FROM ${rows}
           WHERE (c.table_name, c.organisation_id, c.field, c.value) = (d.table_name, d.organisation_id, d.field, d.value)`,
          columns(removed),
        );
        if (rowCount !== removed.length) throw new Error(`read-model counts: ${removed.length - (rowCount ?? 0)} removal(s) from a count that does not exist`);
      }
    }
  }
}

/** The change of one count (starting at 0), from its value map. */
function deltaOf(byValue: Map<string, Delta>, table: string, organisationId: string, field: string, value: string): Delta {
  let delta = byValue.get(value);
  if (!delta) byValue.set(value, (delta = { table, organisationId, field, value, n: 0 }));
  return delta;
}

function child<V>(map: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let inner = map.get(key);
  if (!inner) map.set(key, (inner = new Map()));
  return inner;
}


/**
 * The kept count answering a filter, when there is one: no filter (every row of the organisation), or
 * a single `eq` on a counted field. Undefined when the filter needs a real count.
 */
export async function keptCount(db: pg.Pool | pg.PoolClient, r: Resource, organisationId: string, filter: Record<string, unknown> | undefined): Promise<number | undefined> {
  if (!isCounted(r)) return undefined;
  const entries = Object.entries(filter ?? {}).filter(([, v]) => v !== undefined);
  let field = '';
  let value = '';
  if (entries.length > 1) return undefined;
  if (entries.length === 1) {
    const [name, condition] = entries[0];
    const ops = Object.entries((condition ?? {}) as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (!r.countedBy!.includes(name) || ops.length !== 1 || ops[0][0] !== 'eq') return undefined;
    const v = countedValue(ops[0][1]);
    // Counted under the canonical spelling only; any other spelling PostgreSQL accepts is counted for real.
    if (v === undefined || (storedField(r, name).scalar === 'UUID' && !CANONICAL_UUID.test(v))) return undefined;
    [field, value] = [name, v];
  }
  const { rows } = await db.query({
    name: 'read_model_count',
    text: `SELECT n FROM ${COUNTS_TABLE} WHERE table_name = $1 AND organisation_id = $2 AND field = $3 AND value = $4`,
    values: [r.table, organisationId, field, value],
  });
  return rows.length === 0 ? 0 : Number(rows[0].n);
}

/** Counts a table from scratch (a table older than its counts), in the caller's transaction: a share lock keeps writers out meanwhile. */
export async function recount(client: pg.PoolClient, r: Resource, table = r.table): Promise<void> {
  const countsTable = countsTableOf(table);
  await client.query(`LOCK TABLE ${table} IN SHARE MODE`);
  await client.query(`DELETE FROM ${countsTable} WHERE table_name = $1`, [bareName(table)]);
  const groups = [`SELECT organisation_id, '' AS field, '' AS value, count(*) AS n FROM ${table} GROUP BY organisation_id`];
  for (const name of r.countedBy ?? []) {
    const column = storedField(r, name).column;
    groups.push(`SELECT organisation_id, '${name}', lower(${column}::text), count(*) FROM ${table} WHERE ${column} IS NOT NULL GROUP BY organisation_id, ${column}`);
  }
  await client.query(`INSERT INTO ${countsTable} (table_name, organisation_id, field, value, n) SELECT $1, g.* FROM (${groups.join(' UNION ALL ')}) g`, [bareName(table)]);
}

/**
 * Creates the counts table and counts every counted table whose counted fields changed since it was
 * last counted (or that was never counted: a store older than its counts).
 */
export async function ensureCounts(client: pg.PoolClient, resources: readonly Resource[]): Promise<void> {
  await client.query(countsDdl());
  await client.query(`CREATE TABLE IF NOT EXISTS read_model_counted (table_name text PRIMARY KEY, fields text NOT NULL)`);
  for (const r of resources.filter(isCounted)) {
    assertCountable(r);
    const fields = r.countedBy!.join(',');
    const { rows } = await client.query(`SELECT fields FROM read_model_counted WHERE table_name = $1`, [r.table]);
    if (rows[0]?.fields === fields) continue;
    await client.query('BEGIN');
    try {
      await recount(client, r);
      await client.query(`INSERT INTO read_model_counted VALUES ($1, $2) ON CONFLICT (table_name) DO UPDATE SET fields = excluded.fields`, [r.table, fields]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  }
}

/** A rebuild's swap: the shadow table's counts become the live table's. */
export async function swapCounts(client: pg.PoolClient, shadowTable: string, liveTable: string): Promise<void> {
  await client.query(`DELETE FROM ${COUNTS_TABLE} WHERE table_name = $1`, [liveTable]);
  await client.query(`UPDATE ${COUNTS_TABLE} SET table_name = $2 WHERE table_name = $1`, [shadowTable, liveTable]);
}

export async function dropCounts(db: pg.Pool | pg.PoolClient, table: string): Promise<void> {
  await db.query(`DELETE FROM ${countsTableOf(table)} WHERE table_name = $1`, [bareName(table)]);
}
