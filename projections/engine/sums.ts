/**
 * Sums kept alongside the read models (Resource.sums): a table with one row per key of a source table's rows, holding
 * the sums of their amounts and their number, equal at every commit to `SELECT keys, sum(...), count(*) FROM source
 * GROUP BY keys`: a row exists exactly while some source row has its key. Kept like the counts (counts.ts), by the
 * Writes that change the rows, in the same transaction: an insert adds its row, a delete subtracts what its
 * RETURNING names; at the end of the batch one upsert per sum table, then (only when some count fell to zero) one
 * delete of the emptied rows.
 *
 * Amounts are exact: decimal text scaled to whole numbers (bigint), never floats, and plain data that passes
 * between threads as it is. A rebuild tallies nothing while it loads: it fills each sum table with one GROUP BY over
 * the loaded source (fillSums) before building indexes, then keeps them as the live daemon does for its tail.
 */
import type pg from 'pg';
import { inTransaction } from '../../platform/database.ts';
import { bareName, primaryKeyColumns, storedField, type Resource, type SumSpec } from './resource.ts';

const SUMMABLE_KEYS = new Set(['UUID', 'String', 'Int', 'Boolean', 'Date']);

export const isSummed = (r: Resource): boolean => r.scope === 'organisation' && (r.sums?.length ?? 0) > 0;

/** The source's fields a sum reads: keys, amounts and the field rows must have, in the order sumColumns returns them. */
function sumFields(r: Resource): string[] {
  return [...new Set((r.sums ?? []).flatMap((s) => [...s.keys, ...s.amounts, ...(s.onlyWith ? [s.onlyWith] : [])]))];
}

/**
 * The columns a statement returns so that the rows it removes or changes can be summed: the organisation, then
 * sumFields, keys as text (a date stays 'YYYY-MM-DD', not a Date in the server's zone). `alias`: the table's in the statement.
 */
export function sumColumns(r: Resource, alias?: string): string[] {
  const q = alias ? `${alias}.` : '';
  return [`${q}organisation_id`, ...sumFields(r).map((name) => {
    const field = storedField(r, name);
    return field.scalar === 'Decimal' ? `${q}${field.column}` : `${q}${field.column}::text`;
  })];
}

/**
 * The physical table of `other` beside `table`, the physical table of `r`: the live one, a rebuild's shadow
 * (`x__rebuild` -> `y__rebuild`) or a replay's (`schema.x` -> `schema.y`).
 */
export function siblingTable(r: Resource, table: string, other: Resource): string {
  const at = table.lastIndexOf(r.table);
  if (at < 0) throw new Error(`${table} is not a table of ${r.typeName}`);
  return table.slice(0, at) + other.table + table.slice(at + r.table.length);
}

/** A sum's definition checked: its fields exist on both sides with summable types, and its table's key is the organisation and the keys. */
export function assertSummable(r: Resource, spec: SumSpec): void {
  const into = spec.into();
  if (r.scope !== 'organisation' || into.scope !== 'organisation') throw new Error(`sums of ${r.typeName}: both tables are an organisation's`);
  for (const name of spec.keys) {
    const scalar = storedField(r, name).scalar;
    if (!SUMMABLE_KEYS.has(scalar) || storedField(into, name).scalar !== scalar) throw new Error(`${r.typeName}.${name} (${scalar}) cannot key ${into.typeName}`);
  }
  for (const name of spec.amounts) {
    if (storedField(r, name).scalar !== 'Decimal' || storedField(into, name).scalar !== 'Decimal') throw new Error(`${r.typeName}.${name}: only Decimal fields are summed`);
  }
  if (storedField(into, spec.count).scalar !== 'Int') throw new Error(`${into.typeName}.${spec.count}: a count is an Int`);
  if (spec.onlyWith && !spec.keys.includes(spec.onlyWith)) throw new Error(`${r.typeName}: onlyWith ${spec.onlyWith} must be one of the keys`);
  const key = new Set(primaryKeyColumns(into));
  const expected = ['organisation_id', ...spec.keys.map((name) => storedField(into, name).column)];
  if (key.size !== expected.length || !expected.every((c) => key.has(c))) throw new Error(`${into.typeName}: its primary key must be (organisation, ${spec.keys.join(', ')})`);
}

/** Refuses an update of a summed resource that would change what a sum reads: rows move between sums by a delete and an insert. */
export function assertNotSummed(r: Resource, fields: readonly string[]): void {
  const summed = new Set(sumFields(r));
  const changed = fields.find((name) => summed.has(name));
  if (changed) throw new Error(`${r.typeName}.${changed} is summed: a projection cannot update it in place`);
}

/** Refuses an update giving rows a value of `field` (entering the sums onlyWith it) that sets what another sum reads. */
export function assertEntering(r: Resource, field: string, sets: readonly string[]): void {
  for (const spec of r.sums ?? []) {
    if (spec.onlyWith === field) continue;
    const read = sets.find((name) => spec.keys.includes(name) || spec.amounts.includes(name));
    if (read) throw new Error(`${r.typeName}.${read} is summed into ${spec.into().typeName}: a projection cannot update it in place`);
  }
}

/** An exact decimal: `units` / 10^scale. */
interface Scaled {
  units: bigint;
  scale: number;
}

const DECIMAL_TEXT = /^(-?)(\d*)(?:\.(\d*))?$/;

function scaled(value: unknown): Scaled {
  if (value === null || value === undefined) return { units: 0n, scale: 0 };
  const text = typeof value === 'string' ? value : String(value);
  const m = DECIMAL_TEXT.exec(text);
  if (!m || (m[2] === '' && !m[3])) throw new Error(`sums: ${text} is not a decimal amount`);
  const fraction = m[3] ?? '';
  const units = BigInt(`${m[2] || '0'}${fraction}`);
  return { units: m[1] ? -units : units, scale: fraction.length };
}

const TEN = 10n;
function rescaled(units: bigint, from: number, to: number): bigint {
  return to === from ? units : units * TEN ** BigInt(to - from);
}

/** Decimal text of units / 10^scale. */
export function decimalText(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** One key's change: its amounts (all at `scale`) and its number of rows. */
interface SumDelta {
  organisationId: string;
  keys: (string | null)[];
  amounts: bigint[];
  scale: number;
  n: number;
}

/** The changes of one sum table, with what writing them needs (plain data: it passes between threads). */
interface TableDeltas {
  table: string;
  keyColumns: string[];
  keyTypes: string[];
  amountColumns: string[];
  countColumn: string;
  conflict: string[];
  deltas: Map<string, SumDelta>;
}

/** Sum changes by sum table (physical name). */
export type SumTallyData = Map<string, TableDeltas>;

/** How a source table's rows feed one sum table: read by field names, into that table's deltas. */
interface SumPlan {
  keys: readonly string[];
  amounts: readonly string[];
  onlyWith: string | undefined;
  target: TableDeltas;
}

const SQL_TYPES: Record<string, string> = { UUID: 'uuid', String: 'text', Int: 'integer', Boolean: 'boolean', Date: 'date' };

/** A key value as text: what the sum table's column reads (`$n::date[]` of a toISOString() is its UTC day). */
function keyText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : String(value);
}

/** Sum changes of one batch, written at its end (flush). */
export class SumTally {
  private readonly plans = new Map<string, SumPlan[]>();

  /** `data`: another SumTally's (handed over from a worker thread), or none. */
  constructor(private readonly deltas: SumTallyData = new Map()) {}

  get data(): SumTallyData {
    return this.deltas;
  }

  get isEmpty(): boolean {
    return [...this.deltas.values()].every((t) => t.deltas.size === 0);
  }

  private plansOf(r: Resource, table: string): SumPlan[] {
    let plans = this.plans.get(table);
    if (plans) return plans;
    plans = (r.sums ?? []).map((spec) => {
      assertSummable(r, spec);
      const into = spec.into();
      const intoTable = siblingTable(r, table, into);
      let target = this.deltas.get(intoTable);
      if (!target) {
        target = {
          table: intoTable,
          keyColumns: spec.keys.map((name) => storedField(into, name).column),
          keyTypes: spec.keys.map((name) => SQL_TYPES[storedField(into, name).scalar]),
          amountColumns: spec.amounts.map((name) => storedField(into, name).column),
          countColumn: storedField(into, spec.count).column,
          conflict: primaryKeyColumns(into),
          deltas: new Map(),
        };
        this.deltas.set(intoTable, target);
      }
      return { keys: spec.keys, amounts: spec.amounts, onlyWith: spec.onlyWith, target };
    });
    this.plans.set(table, plans);
    return plans;
  }

  /**
   * A row (field names) of `r` in `table` added (+1) or removed (-1). `entering`: the row only enters the sums of
   * rows with this field (it had none before), the others have it already.
   */
  row(r: Resource, table: string, row: Record<string, unknown>, n: 1 | -1, entering?: string): void {
    const organisationId = row.organisationId as string;
    // Each amount parsed once, whatever the sums it goes to.
    const parsed: Record<string, Scaled> = {};
    for (const plan of this.plansOf(r, table)) {
      if (entering !== undefined && plan.onlyWith !== entering) continue;
      if (plan.onlyWith !== undefined && (row[plan.onlyWith] === null || row[plan.onlyWith] === undefined)) continue;
      const keys = plan.keys.map((name) => keyText(row[name]));
      // (Spellings of one value that differ here, e.g. a UUID's case, are merged by the upsert's GROUP BY.)
      const id = `${organisationId}\u0001${keys.join('\u0001')}`;
      let delta = plan.target.deltas.get(id);
      if (!delta) plan.target.deltas.set(id, (delta = { organisationId, keys, amounts: plan.amounts.map(() => 0n), scale: 0, n: 0 }));
      delta.n += n;
      for (let i = 0; i < plan.amounts.length; i++) {
        const amount = (parsed[plan.amounts[i]] ??= scaled(row[plan.amounts[i]]));
        if (amount.scale > delta.scale) {
          const to = amount.scale;
          delta.amounts = delta.amounts.map((a) => rescaled(a, delta!.scale, to));
          delta.scale = to;
        }
        const units = rescaled(amount.units, amount.scale, delta.scale);
        delta.amounts[i] += n > 0 ? units : -units;
      }
    }
  }

  /** Rows as a statement returned them (sumColumns order, from column `offset`) added or removed. */
  returned(r: Resource, table: string, rows: unknown[][], offset: number, n: 1 | -1, entering?: string): void {
    const fields = ['organisationId', ...sumFields(r)];
    for (const values of rows) {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) row[fields[i]] = values[offset + i];
      this.row(r, table, row, n, entering);
    }
  }

  async flush(client: pg.PoolClient): Promise<void> {
    const tables = [...this.deltas.values()];
    this.deltas.clear();
    this.plans.clear();
    for (const t of tables) await flushTable(client, t);
  }
}

/**
 * One upsert adding the changes (grouped by key: two spellings of one key must not hit a row twice); the rows whose
 * count fell to zero go next, so that a row exists exactly while some source row has its key.
 */
async function flushTable(client: pg.PoolClient, t: TableDeltas): Promise<void> {
  const changes = [...t.deltas.values()].filter((d) => d.n !== 0 || d.amounts.some((a) => a !== 0n));
  if (changes.length === 0) return;
  const columns = ['organisation_id', ...t.keyColumns, ...t.amountColumns, t.countColumn];
  const types = ['uuid', ...t.keyTypes, ...t.amountColumns.map(() => 'numeric'), 'integer'];
  const keyCount = 1 + t.keyColumns.length;
  const arrays = (ds: SumDelta[]) => [
    ds.map((d) => d.organisationId),
    ...t.keyColumns.map((_, k) => ds.map((d) => d.keys[k])),
    ...t.amountColumns.map((_, a) => ds.map((d) => decimalText(d.amounts[a], d.scale))),
    ds.map((d) => d.n),
  ];
  const rows = (count: number) => `unnest(${types.slice(0, count).map((type, i) => `$${i + 1}::${type}[]`).join(', ')}) AS d(${columns.slice(0, count).join(', ')})`;
  const keys = columns.slice(0, keyCount);
  const { rows: counts } = await client.query({
    text: `INSERT INTO ${t.table} AS t (${columns.join(', ')})
      SELECT ${keys.map((c) => `d.${c}`).join(', ')}, ${[...t.amountColumns, t.countColumn].map((c) => `sum(d.${c})`).join(', ')}
      FROM ${rows(columns.length)} GROUP BY ${keys.map((c) => `d.${c}`).join(', ')}
      ON CONFLICT (${t.conflict.join(', ')}) DO UPDATE SET ${[...t.amountColumns, t.countColumn].map((c) => `${c} = t.${c} + excluded.${c}`).join(', ')}
      RETURNING t.${t.countColumn}`,
    values: arrays(changes),
    rowMode: 'array',
  });
  let emptied = false;
  for (const [n] of counts as [number][]) {
    if (n < 0) throw new Error(`${bareName(t.table)}: rows removed from a sum that did not hold them`);
    if (n === 0) emptied = true;
  }
  if (!emptied) return;
  // Only a key whose count did not go up can have reached zero.
  const removed = changes.filter((d) => d.n <= 0);
  await client.query({
    text: `DELETE FROM ${t.table} AS t USING ${rows(keyCount)} WHERE ${keys.map((c) => `t.${c} = d.${c}`).join(' AND ')} AND t.${t.countColumn} = 0`,
    values: arrays(removed).slice(0, keyCount),
  });
}

/**
 * A rebuild's sum tables from its loaded source tables (`tableOf`: their physical names), each emptied first so that a
 * resumed rebuild fills it again: one GROUP BY each, side by side.
 */
export async function fillSums(pool: pg.Pool, resources: readonly Resource[], tableOf: (r: Resource) => string): Promise<void> {
  const fills = resources.filter(isSummed).flatMap((r) => r.sums!.map((spec) => {
    assertSummable(r, spec);
    const into = spec.into();
    const column = (name: string) => storedField(r, name).column;
    const keys = ['organisation_id', ...spec.keys.map(column)];
    const target = ['organisation_id', ...spec.keys.map((name) => storedField(into, name).column), ...spec.amounts.map((name) => storedField(into, name).column), storedField(into, spec.count).column];
    const where = spec.onlyWith ? ` WHERE ${column(spec.onlyWith)} IS NOT NULL` : '';
    return `TRUNCATE ${tableOf(into)}; INSERT INTO ${tableOf(into)} (${target.join(', ')})
      SELECT ${keys.join(', ')}, ${spec.amounts.map((name) => `coalesce(sum(${column(name)}), 0)`).join(', ')}, count(*)
      FROM ${tableOf(r)}${where} GROUP BY ${keys.join(', ')}`;
  }));
  await Promise.all(fills.map((sql) => inTransaction(pool, (client) => client.query(sql))));
}
