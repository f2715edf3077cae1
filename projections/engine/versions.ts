/**
 * A projection's version, stored beside its checkpoint (projection_checkpoints.version). Start-up compares it
 * with the code's: a projection whose stored version differs is not migrated in place (CREATE TABLE IF NOT
 * EXISTS would leave a new column missing and every write failing) but rebuilt into shadow tables and swapped
 * in (upgrade.ts), while its live tables keep serving the old shape.
 *
 * A digest rather than a number someone must remember to bump: it covers each table's name and its columns
 * (name, SQL type, order), so adding, removing or retyping a field changes it by itself. `revision` is the one
 * thing a digest cannot see: bump it when apply() writes other values into the same columns. Indexes are not
 * in it: start-up adds and drops those in place (schema.ts), a rebuild would be a heavy way to get one.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Projection } from './projection.ts';
import { tableColumns, type Resource } from './resource.ts';

export function projectionVersion(projection: Projection): string {
  const tables = projection.resources.map((r) => {
    const { columns, types } = tableColumns(r);
    return [r.table, columns.map((c, i) => `${c} ${types[i]}`)];
  });
  const digest = createHash('sha256').update(JSON.stringify([projection.revision ?? 0, tables])).digest('hex');
  return `${projection.revision ?? 0}-${digest.slice(0, 16)}`;
}

/** How a projection's live tables compare with its definition: none there yet, all as defined, or otherwise. */
export type TablesShape = 'absent' | 'same' | 'different';

/**
 * Reads the live tables' columns from the catalog. Used once per projection that has no stored version (a
 * database written before versions were stored): tables that already have the code's columns are kept as
 * they are, anything else is rebuilt.
 */
export async function tablesShape(db: pg.PoolClient, resources: readonly Resource[]): Promise<TablesShape> {
  const shapes = new Set<TablesShape>();
  for (const r of resources) {
    const { columns, types } = tableColumns(r);
    const { rows } = await db.query(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
       WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      [r.table],
    );
    if (rows.length === 0) {
      shapes.add('absent');
      continue;
    }
    // The code's SQL types as the catalog spells them (timestamptz: timestamp with time zone).
    const { rows: spelled } = await db.query(`SELECT format_type(t::regtype, NULL) AS type FROM unnest($1::text[]) WITH ORDINALITY u(t, i) ORDER BY i`, [types]);
    const same = rows.length === columns.length && rows.every((row, i) => row.name === columns[i] && row.type === spelled[i].type);
    shapes.add(same ? 'same' : 'different');
  }
  return shapes.size === 0 ? 'same' : shapes.size === 1 ? [...shapes][0] : 'different';
}
