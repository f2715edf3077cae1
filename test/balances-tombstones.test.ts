/**
 * The deleted lines the entries projection keeps (deleted_entry_lines) do not depend on how events are batched: the
 * same events applied one per batch (the live daemon) and all in one batch (a rebuild, a replay) leave the same
 * tombstones, party included for a line posted before postings recorded their party; and a line id deleted twice
 * (posted again with the same ids after its deletion, which the ledger does not forbid) keeps both tombstones.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '../eventstore/port.ts';
import { entriesProjection } from '../projections/accounting/projections.ts';
import { DeletedEntryLine } from '../projections/accounting/balances.ts';
import { applyEvents } from '../projections/engine/projection.ts';
import { countsDdl } from '../projections/engine/counts.ts';
import { tableDdl } from '../projections/engine/resource.ts';
import { Writes } from '../projections/engine/writes.ts';
import { inTransaction } from '../platform/database.ts';
import { freshDatabase } from './helpers/database.ts';

const db = await freshDatabase(t);
const organisationId = randomUUID();
const exerciseId = randomUUID();
const customer = { partyId: randomUUID(), code: 'TOMB1' };
let serial = 0;

function recorded(type: string, data: Record<string, unknown>, streamId: string): RecordedEvent {
  const n = ++serial;
  return {
    id: randomUUID(), type, streamId, revision: BigInt(n), position: { commit: BigInt(n + 1), prepare: BigInt(n) }, recordedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
    data, metadata: { organisationId, correlationId: randomUUID(), causationId: randomUUID(), schemaVersion: 1 },
  };
}

/** A posting as an older version stored it: its first line names the customer by code only (no thirdPartyId). */
function postedOld(entryId: string, lineIds: [string, string], number: number): RecordedEvent {
  const line = (order: number, debit: string, credit: string, thirdCode: string | null) => ({
    lineId: lineIds[order - 1], order, subAccountId: '10000000-0000-4000-8000-000000000001', debitAmount: debit, creditAmount: credit, description: null, thirdCode,
  });
  return recorded('AccountingEntryPosted', {
    exerciseId, entryId, number, date: '2026-01-15', documentDate: null, documentNumber: null, description: null, journalTypeId: randomUUID(),
    periodId: '20000000-0000-4000-8000-000000000001', sessionId: randomUUID(), currencyCode: 'EUR', entryType: 'GENERAL', sourceType: 'PUBLIC_API',
    lines: [line(1, '12.34', '0.00', customer.code), line(2, '0.00', '12.34', null)], at: '2026-01-15T00:00:00.000Z',
  }, `Ledger-${exerciseId}`);
}

const deleted = (entryId: string, number: number) => recorded('AccountingEntryDeleted', { exerciseId, entryId, number, at: '2026-01-16T00:00:00.000Z' }, `Ledger-${exerciseId}`);

async function schemaWithTables(schema: string): Promise<void> {
  await db.pool.query(`CREATE SCHEMA ${schema}`);
  await db.pool.query(countsDdl(`${schema}.read_model_counts`));
  for (const r of entriesProjection.resources) await db.pool.query(tableDdl(r, `${schema}.${r.table}`));
}

/** Applies the events to the schema's tables in batches of `size`, as the daemon (1) or a rebuild (all) does. */
async function apply(schema: string, events: RecordedEvent[], size: number): Promise<void> {
  for (let i = 0; i < events.length; i += size) {
    const writes = new Writes();
    applyEvents(entriesProjection, events.slice(i, i + size), writes, (r) => `${schema}.${r.table}`);
    await inTransaction(db.pool, (client) => writes.flush(client));
  }
}

const tombstones = async (schema: string) => (await db.pool.query(
  `SELECT id, accounting_entry_id, third_party_id, third_party_origin, debit_amount::text, recorded_at, deleted_at FROM ${schema}.${DeletedEntryLine.table} ORDER BY deleted_at, id`,
)).rows;

/** The events applied to fresh tables one per batch (live) and all in one batch (rebuilt): the tombstones of each. */
async function tombstonesBothWays(name: string, events: RecordedEvent[]) {
  const [live, rebuilt] = [`${name}_live`, `${name}_rebuilt`];
  await schemaWithTables(live);
  await schemaWithTables(rebuilt);
  await apply(live, events, 1);
  await apply(rebuilt, events, events.length);
  return { live: await tombstones(live), rebuilt: await tombstones(rebuilt) };
}

t.test('one batch per event and one batch for all: the same tombstones, the old line with its party', async (t) => {
  const entryId = randomUUID();
  const lineIds: [string, string] = [randomUUID(), randomUUID()];
  const events = [
    recorded('CustomerCreated', { ...customer, kind: 'customer', at: '2026-01-01T00:00:00.000Z' }, `Parties-${organisationId}`),
    postedOld(entryId, lineIds, 1),
    deleted(entryId, 1),
  ];
  const { live, rebuilt } = await tombstonesBothWays('once', events);
  t.equal(live.length, 2, 'both lines kept');
  t.equal(live.find((l) => l.id === lineIds[0])?.third_party_id, customer.partyId, 'the old line named by code is kept with its party');
  t.same(rebuilt, live, 'deleted in the batch of its posting: the same tombstones');
});

t.test('a line id posted, deleted, posted again and deleted again: both tombstones, live and in one batch', async (t) => {
  const entryId = randomUUID();
  const lineIds: [string, string] = [randomUUID(), randomUUID()];
  const events = [
    recorded('CustomerCreated', { partyId: randomUUID(), code: 'TOMB2', kind: 'customer', at: '2026-01-01T00:00:00.000Z' }, `Parties-${organisationId}`),
    postedOld(entryId, lineIds, 1),
    deleted(entryId, 1),
    postedOld(entryId, lineIds, 1),
    deleted(entryId, 1),
  ];
  const { live, rebuilt } = await tombstonesBothWays('twice', events);
  t.equal(live.filter((l) => l.id === lineIds[0]).length, 2, 'the line id deleted twice is kept twice');
  t.same(rebuilt, live, 'the same in one batch');
});
