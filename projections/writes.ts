/**
 * A projection batch's writes, in order. The inserts between two other statements become one
 * multi-row INSERT per table, which is what makes rebuilds fast; other statements run as given.
 */
import type pg from 'pg';
import { columnTypes, rowValues, storedField, type Resource } from './resource.ts';

type Op =
  | { kind: 'insert'; table: string; columns: string[]; types: string[]; rows: unknown[][] }
  | { kind: 'sql'; text: string; params: unknown[] };

const MAX_ROWS_PER_INSERT = 20_000;

export class Writes {
  private readonly ops: Op[] = [];

  /** Insert ops of the current run of inserts (no other statement since), by table. */
  private insertRun = new Map<string, Extract<Op, { kind: 'insert' }>>();

  /**
   * Inserts a row of `resource` (field names) into the physical table `table`. Inserts into any table
   * join that table's pending statement until some other statement comes: read-model tables have no
   * constraints between them, so only the order against updates and deletes matters.
   */
  insert(resource: Resource, table: string, row: Record<string, unknown>): void {
    const { columns, values } = rowValues(resource, row);
    const pending = this.insertRun.get(table);
    if (pending && pending.rows.length < MAX_ROWS_PER_INSERT) {
      pending.rows.push(values);
      return;
    }
    const op: Extract<Op, { kind: 'insert' }> = { kind: 'insert', table, columns, types: columnTypes(resource), rows: [values] };
    this.ops.push(op);
    this.insertRun.set(table, op);
  }

  /** UPDATE by field names: `set` the given fields where every `where` field equals its value. */
  update(resource: Resource, table: string, where: Record<string, unknown>, set: Record<string, unknown>): void {
    const params: unknown[] = [];
    const bind = (name: string, value: unknown) => {
      params.push(value);
      return `${storedField(resource, name).column} = $${params.length}`;
    };
    const assignments = Object.entries(set).filter(([, v]) => v !== undefined).map(([k, v]) => bind(k, v));
    if (assignments.length === 0) return;
    const conditions = Object.entries(where).map(([k, v]) => bind(k, v));
    this.sql(`UPDATE ${table} SET ${assignments.join(', ')} WHERE ${conditions.join(' AND ')}`, params);
  }

  delete(resource: Resource, table: string, where: Record<string, unknown>): void {
    const entries = Object.entries(where);
    this.sql(`DELETE FROM ${table} WHERE ${entries.map(([k], i) => `${storedField(resource, k).column} = $${i + 1}`).join(' AND ')}`, entries.map(([, v]) => v));
  }

  sql(text: string, params: unknown[] = []): void {
    this.insertRun.clear();
    this.ops.push({ kind: 'sql', text, params });
  }

  get size(): number {
    return this.ops.length;
  }

  async flush(client: pg.PoolClient): Promise<void> {
    for (const op of this.ops) {
      if (op.kind === 'sql') {
        await client.query(op.text, op.params);
        continue;
      }
      // One array per column, zipped by unnest: one bind parameter per column however many rows.
      const arrays = op.columns.map((_, c) => op.rows.map((row) => row[c]));
      const unnest = op.types.map((type, c) => `$${c + 1}::${type}[]`).join(', ');
      await client.query(`INSERT INTO ${op.table} (${op.columns.join(', ')}) SELECT * FROM unnest(${unnest})`, arrays);
    }
    this.ops.length = 0;
    this.insertRun.clear();
  }
}
