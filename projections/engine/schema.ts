/** Read-model tables, projection checkpoints and the static reference tables. */
import type pg from 'pg';
import { COUNTRIES, referenceId } from '../../domain/reference/countries.ts';
import { INVOICE_TYPES } from '../../domain/reference/invoice-types.ts';
import { withMigrationLock } from '../../platform/database.ts';
import { ensureCounts } from './counts.ts';
import { PARKED_DDL } from './parked.ts';
import type { Projection } from './projection.ts';
import { projectionVersion, tablesShape } from './versions.ts';
import { Country, DimensionOutputGLDto, InvoiceType } from '../accounting/read-models.ts';
import { READER_ROLE, indexNames, rowValues, tableDdl, type Resource } from './resource.ts';

export const CHECKPOINT_DDL = `
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  name        text PRIMARY KEY,
  commit_pos  xid8 NOT NULL DEFAULT '0',
  prepare_pos bigint NOT NULL DEFAULT 0,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS projection_rebuilds (
  name        text PRIMARY KEY,
  commit_pos  xid8 NOT NULL,
  prepare_pos bigint NOT NULL,
  events_done bigint NOT NULL,
  started_at  timestamptz NOT NULL DEFAULT now()
);
-- The projection's version (versions.ts): of the tables beside this checkpoint, and of a rebuild's shadow tables.
-- NULL: written before versions were stored (start-up keeps the tables if they have the code's columns).
ALTER TABLE projection_checkpoints ADD COLUMN IF NOT EXISTS version text;
ALTER TABLE projection_rebuilds ADD COLUMN IF NOT EXISTS version text;`;

const REFERENCE_AT = '2026-01-01T00:00:00Z';

/** Reference rows are not event-derived: they ship with the code and are seeded idempotently. */
function referenceRows(): [Resource, Record<string, unknown>[]][] {
  return [
    [Country, COUNTRIES.map((c) => ({ ...c, id: referenceId('country', c.isoCodeAlpha2), creationDate: REFERENCE_AT }))],
    [InvoiceType, INVOICE_TYPES.map((i) => ({ ...i, id: referenceId('invoice-type', i.invoiceTypesCode), creationDate: REFERENCE_AT }))],
  ];
}

/** The role API reads run as (see READER_ROLE); creating it needs CREATEROLE once per cluster. */
async function ensureReaderRole(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query(`SELECT 1 FROM pg_roles WHERE rolname = $1`, [READER_ROLE]);
  if (rows.length > 0) return;
  try {
    await client.query(`CREATE ROLE ${READER_ROLE} NOLOGIN NOINHERIT`);
  } catch (error) {
    // Roles are per cluster, the migration lock per database: another database's service may have just made it.
    const code = (error as { code?: string }).code;
    const madeMeanwhile = (code === '23505' || code === '42710') && (await client.query(`SELECT 1 FROM pg_roles WHERE rolname = $1`, [READER_ROLE])).rows.length > 0;
    if (!madeMeanwhile) throw new Error(`cannot create role ${READER_ROLE} (${String(error)}); create it once as an administrator: CREATE ROLE ${READER_ROLE} NOLOGIN; GRANT ${READER_ROLE} TO <service user>;`);
  }
  await client.query(`GRANT ${READER_ROLE} TO CURRENT_USER`).catch(() => {}); // superusers need no grant
}

/** Names of the indexes a table of the current schema has. */
export async function existingIndexes(db: pg.Pool | pg.PoolClient, table: string): Promise<Set<string>> {
  const { rows } = await db.query(`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1`, [table]);
  return new Set(rows.map((x) => x.indexname as string));
}

/** Indexes a resource no longer declares (its definition changed): kept, they would only slow writes. */
async function dropStaleIndexes(client: pg.PoolClient, r: Resource): Promise<void> {
  const declared = new Set(indexNames(r));
  for (const name of await existingIndexes(client, r.table)) if (!declared.has(name)) await client.query(`DROP INDEX IF EXISTS ${name}`);
}

/** A projection whose stored version is not the code's: its tables are left as they are until a rebuild swaps new ones in. */
export interface OutdatedProjection {
  projection: Projection;
  /** null: tables of a version before versions were stored, whose columns are not the code's. */
  stored: string | null;
  code: string;
}

/**
 * Whether a projection's live tables are the code's: its stored version is, or (none stored: a database written
 * before versions were) its tables have the code's columns and its apply() is still of revision 0 (a revision
 * since means other values in the same columns), or it has no tables yet and nothing applied.
 */
async function isCurrent(client: pg.PoolClient, p: Projection, code: string): Promise<{ current: boolean; stored: string | null }> {
  const { rows } = await client.query(`SELECT version, commit_pos = '0' AS fresh FROM projection_checkpoints WHERE name = $1`, [p.name]);
  const stored: string | null = rows[0]?.version ?? null;
  if (stored !== null) return { current: stored === code, stored };
  const shape = await tablesShape(client, p.resources);
  // Such tables were written by revision 0: a later revision writes other values into the same columns.
  return { current: (shape === 'same' && !p.revision) || (shape === 'absent' && (rows.length === 0 || rows[0].fresh)), stored };
}

/**
 * Tables, checkpoints and reference rows. Returns the projections whose tables are of another version: those
 * are not touched here (a rebuild replaces them, upgrade.ts), every other one gets its tables and indexes.
 */
export async function migrateReadModels(pool: pg.Pool, projections: Projection[]): Promise<{ outdated: OutdatedProjection[] }> {
  const outdated: OutdatedProjection[] = [];
  await withMigrationLock(pool, 'read_models_migrate', async (client) => {
    await client.query(CHECKPOINT_DDL);
    await client.query(PARKED_DDL);
    await ensureReaderRole(client);
    for (const p of projections) {
      const code = projectionVersion(p);
      const { current, stored } = await isCurrent(client, p, code);
      if (!current) {
        await client.query(`INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING`, [p.name]);
        outdated.push({ projection: p, stored, code });
        continue;
      }
      for (const r of p.resources) {
        await client.query(tableDdl(r));
        await dropStaleIndexes(client, r);
      }
      await client.query(`INSERT INTO projection_checkpoints (name, version) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET version = excluded.version`, [p.name, code]);
    }
    // (An outdated table may lack a counted column: its counts come with its rebuild.)
    await ensureCounts(client, projections.filter((p) => !outdated.some((o) => o.projection === p)).flatMap((p) => p.resources));
    // No command creates dimensions yet: the table exists so `dimensions` answers with an empty list.
    await client.query(tableDdl(DimensionOutputGLDto));
    for (const [resource, rows] of referenceRows()) {
      await client.query(tableDdl(resource));
      for (const row of rows) {
        const { columns, values } = rowValues(resource, row);
        await client.query(
          `INSERT INTO ${resource.table} (${columns.join(', ')}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')}) ON CONFLICT (id) DO NOTHING`,
          values,
        );
      }
    }
  });
  return { outdated };
}
