/**
 * A party's list rows (addresses, contacts, their e-mails, phones, social media) as an update leaves
 * them, in place by id: rows whose id the list no longer has go, new ids are inserted, the others are
 * updated keeping their creationDate, and their modificationDate moves only when their content changed
 * (a move in the list is no change). Events carry whole lists with stable item ids, so a client syncing
 * by id and date sees only what changed, and a rebuild writes the same dates (it runs the same statement).
 * One statement per table, comparing in SQL: apply() reads no rows.
 */
import { columnOf, columnTypes, rowValues, type Resource } from '../engine/resource.ts';
import type { Writes } from '../engine/writes.ts';

/** Columns that are not an item's content: who it is, where it sits, when it was written. */
const NOT_CONTENT = ['organisationId', 'id', 'creationDate', 'modificationDate', 'position'] as const;

export function writeItemRows(w: Writes, r: Resource, table: string, partyId: string, rows: readonly Record<string, unknown>[]): void {
  if (rows.length === 0) return w.delete(r, table, { partyId });
  const types = columnTypes(r);
  const params: unknown[] = [];
  const bind = (value: unknown, i: number) => `$${params.push(value)}::${types[i]}`;
  const values = rows.map((row) => `(${rowValues(r, row).values.map(bind).join(', ')})`);
  const { columns } = rowValues(r, rows[0]);
  const party = `$${params.push(partyId)}::uuid`;
  const [id, partyColumn, modified] = [columnOf(r, 'id'), columnOf(r, 'partyId'), columnOf(r, 'modificationDate')];
  const skipped = new Set<string>(NOT_CONTENT.filter((n) => n !== 'organisationId' || r.scope === 'organisation').map((n) => columnOf(r, n)));
  const content = columns.filter((c) => !skipped.has(c));
  const set = [...content, columnOf(r, 'position')].map((c) => `${c} = v.${c}`);
  const changed = `(${content.map((c) => `t.${c}`).join(', ')}) IS DISTINCT FROM (${content.map((c) => `v.${c}`).join(', ')})`;
  w.sql(
    `WITH v (${columns.join(', ')}) AS (VALUES ${values.join(', ')}),
      gone AS (DELETE FROM ${table} WHERE ${partyColumn} = ${party} AND ${id} NOT IN (SELECT ${id} FROM v)),
      kept AS (UPDATE ${table} AS t SET ${set.join(', ')}, ${modified} = CASE WHEN ${changed} THEN v.${modified} ELSE t.${modified} END
        FROM v WHERE t.${partyColumn} = ${party} AND t.${id} = v.${id} RETURNING t.${id})
    INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM v WHERE ${id} NOT IN (SELECT ${id} FROM kept)`,
    params,
    { resource: r, table, fields: ['partyId'] },
  );
}
