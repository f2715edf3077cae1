/** Read-model tables, projection checkpoints and the static reference tables. */
import type pg from 'pg';
import { COUNTRIES, referenceId } from '../domain/reference/countries.ts';
import { INVOICE_TYPES } from '../domain/reference/invoice-types.ts';
import type { Projection } from './projection.ts';
import { Country, DimensionOutputGLDto, InvoiceType } from './read-models/accounting.ts';
import { rowValues, tableDdl, type Resource } from './resource.ts';

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
);`;

const REFERENCE_AT = '2026-01-01T00:00:00Z';

/** Reference rows are not event-derived: they ship with the code and are seeded idempotently. */
function referenceRows(): [Resource, Record<string, unknown>[]][] {
  return [
    [Country, COUNTRIES.map((c) => ({ ...c, id: referenceId('country', c.isoCodeAlpha2), creationDate: REFERENCE_AT }))],
    [InvoiceType, INVOICE_TYPES.map((i) => ({ ...i, id: referenceId('invoice-type', i.invoiceTypesCode), creationDate: REFERENCE_AT }))],
  ];
}

export async function migrateReadModels(pool: pg.Pool, projections: Projection[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(hashtext('read_models_migrate'))`);
    await client.query(CHECKPOINT_DDL);
    for (const p of projections) {
      for (const r of p.resources) await client.query(tableDdl(r));
      await client.query(`INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING`, [p.name]);
    }
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
  } finally {
    await client.query(`SELECT pg_advisory_unlock(hashtext('read_models_migrate'))`).catch(() => {});
    client.release();
  }
}
