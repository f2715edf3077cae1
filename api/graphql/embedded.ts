/**
 * Loading embedded objects (projections/engine/resource.ts EmbeddedField): the rows completing them, for all the
 * rows a request reads, in one batch per field and request, confined to the caller's organisation. A row names
 * its completing row by id and kind, read by id from that kind's read model; a row naming none is completed by
 * nothing (never guessed from another of its fields: a code may have named another party then).
 */
import type pg from 'pg';
import type { EmbeddedField } from '../../projections/engine/resource.ts';
import { readScoped } from '../read-scope.ts';
import { rowsWhereIn, type Row } from './query-builder.ts';

type Completing = { kind: string; row: Row };

/** Ids compared in one case (PostgreSQL's uuid reads lower-case; a row built elsewhere may not). */
const idKey = (id: unknown) => String(id).toLowerCase();

export async function loadEmbedded(pool: pg.Pool, field: EmbeddedField, organisationId: string, rows: Row[]): Promise<unknown[]> {
  const { idField, kindField, resources } = field.completedBy;
  const idsByKind = new Map<string, Set<string>>();
  for (const row of rows) {
    const id = row[idField], kind = row[kindField];
    if (typeof id !== 'string' || typeof kind !== 'string' || !resources[kind]) continue;
    if (!idsByKind.has(kind)) idsByKind.set(kind, new Set());
    idsByKind.get(kind)!.add(idKey(id));
  }
  const byId = new Map<string, Completing>();
  if (idsByKind.size > 0) {
    await readScoped(pool, organisationId, async (db) => {
      for (const [kind, ids] of idsByKind) {
        for (const row of await rowsWhereIn(db, resources[kind](), organisationId, 'id', [...ids])) byId.set(idKey(row.id), { kind, row });
      }
    });
  }
  return rows.map((row) => {
    const id = row[idField];
    const completing = typeof id === 'string' ? byId.get(idKey(id)) : undefined;
    // Of the kind the row records (ids are unique, but a row is read as what it names).
    return field.resolve(row, completing && completing.kind === row[kindField] ? completing : null);
  });
}
