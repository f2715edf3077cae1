/**
 * Loading embedded objects (projections/engine/resource.ts EmbeddedField): the rows completing them, for all the
 * rows a request reads, in one batch per field and request, confined to the caller's organisation. Rows naming
 * the completing row by id and kind are read by id from that kind's read model; rows without (stored before the
 * id was recorded) by their code, or by the id their code field then held, from each kind's read model.
 */
import type pg from 'pg';
import type { EmbeddedField } from '../../projections/engine/resource.ts';
import { readScoped } from '../read-scope.ts';
import { rowsWhereIn, type Row } from './query-builder.ts';

type Completing = { kind: string; row: Row };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loadEmbedded(pool: pg.Pool, field: EmbeddedField, organisationId: string, rows: Row[]): Promise<unknown[]> {
  const { idField, kindField, resources } = field.completedBy;
  const idsByKind = new Map<string, Set<string>>();
  const codes = new Set<string>();
  for (const row of rows) {
    const id = row[idField], kind = row[kindField], code = row[field.codeField];
    if (typeof id === 'string' && typeof kind === 'string' && resources[kind]) {
      if (!idsByKind.has(kind)) idsByKind.set(kind, new Set());
      idsByKind.get(kind)!.add(id);
    } else if (typeof code === 'string' && code !== '') codes.add(code);
  }
  const byId = new Map<unknown, Completing>();
  const byCode = new Map<unknown, Completing>();
  if (idsByKind.size > 0 || codes.size > 0) {
    await readScoped(pool, organisationId, async (db) => {
      const keep = (kind: string, found: Row[]) => {
        for (const row of found) {
          byId.set(row.id, { kind, row });
          byCode.set(row.code, { kind, row });
        }
      };
      for (const [kind, ids] of idsByKind) keep(kind, await rowsWhereIn(db, resources[kind](), organisationId, 'id', [...ids]));
      if (codes.size === 0) return;
      const legacyIds = [...codes].filter((code) => UUID.test(code));
      for (const [kind, resource] of Object.entries(resources)) {
        keep(kind, await rowsWhereIn(db, resource(), organisationId, 'code', [...codes]));
        if (legacyIds.length > 0) keep(kind, await rowsWhereIn(db, resource(), organisationId, 'id', legacyIds));
      }
    });
  }
  return rows.map((row) => {
    const id = row[idField];
    const code = row[field.codeField];
    const completing = id ? byId.get(id) : (byCode.get(code) ?? byId.get(code));
    return field.resolve(row, completing ?? null);
  });
}
