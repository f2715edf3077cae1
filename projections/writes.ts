/**
 * A projection batch's writes, in order. Consecutive inserts into one table become one multi-row
 * INSERT, which is what makes rebuilds fast; other statements run as given, in sequence.
 */
import type pg from 'pg';
import { columnTypes, rowValues, storedField, type Resource } from './resource.ts';

type Op =
  | { kind: 'insert'; table: string; columns: string[]; types: string[]; rows: unknown[][] }
  | { kind: 'sql'; text: string; params: unknown[] };

const MAX_ROWS_PER_INSERT = 20_000;

export class Writes {
  private readonly ops: Op[] = [];

  /** Inserts a row of `resource` (field names) into the physical table `table`. */
  insert(resource: Resource, table: string, row: Record<string, unknown>): void {
    const { columns, values } = rowValues(resource, row);
    const last = this.ops[this.ops.length - 1];
    if (last?.kind === 'insert' && last.table === table && last.rows.length < MAX_ROWS_PER_INSERT) {
      last.rows.push(values);
    } else {
      this.ops.push({ kind: 'insert', table, columns, types: columnTypes(resource), rows: [values] });
    }
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
  }
}
