/**
 * The entries projection's rows, without a database: each entry names its own organisation's currency
 * row, whatever order postings of several organisations and currencies come in (the projection keeps
 * the last currency it found apart from its cache).
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { derivedId } from '../domain/ids.ts';
import type { RecordedEvent } from '../eventstore/port.ts';
import { entriesProjection } from '../projections/accounting/projections.ts';
import { applyEvents } from '../projections/engine/projection.ts';
import { AccountingEntry } from '../projections/accounting/read-models.ts';
import { indexServing, indexToBuild } from '../projections/engine/rebuild.ts';
import { columnOf, indexDefinitions, indexNames, type Resource } from '../projections/engine/resource.ts';
import { shadowTable } from '../projections/engine/shadow.ts';
import { Writes } from '../projections/engine/writes.ts';

const ORGANISATIONS = [randomUUID(), randomUUID(), randomUUID()];
const CURRENCIES = ['EUR', 'GBP', 'USD'];

function posted(n: number, organisationId: string, currencyCode: string): RecordedEvent {
  const line = (order: number, debit: string, credit: string) => ({ lineId: randomUUID(), order, subAccountId: randomUUID(), debitAmount: debit, creditAmount: credit, description: null, thirdCode: null });
  return {
    id: randomUUID(), type: 'AccountingEntryPosted', streamId: `Ledger-${organisationId}`, revision: BigInt(n), position: { commit: BigInt(n + 1), prepare: BigInt(n) }, recordedAt: new Date(0),
    data: {
      exerciseId: randomUUID(), entryId: randomUUID(), number: n + 1, date: '2026-01-01', documentDate: null, documentNumber: null, description: null, journalTypeId: randomUUID(),
      periodId: randomUUID(), sessionId: randomUUID(), currencyCode, entryType: 'GENERAL', sourceType: 'PUBLIC_API', lines: [line(1, '1.00', '0.00'), line(2, '0.00', '1.00')], at: '2026-01-01T00:00:00.000Z',
    },
    metadata: { organisationId, correlationId: randomUUID(), causationId: randomUUID(), schemaVersion: 1 },
  };
}

t.test('every entry names its own organisation currency row, in runs and interleaved', async (t) => {
  // Runs of one organisation and currency, then every posting switching organisation, currency or both.
  const plan: [number, number][] = [[0, 0], [0, 0], [0, 0], [1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [2, 2], [0, 0], [2, 2], [1, 0], [0, 0], [0, 1], [0, 0]];
  const events = plan.map(([o, c], n) => posted(n, ORGANISATIONS[o], CURRENCIES[c]));
  const writes = new Writes();
  applyEvents(entriesProjection, events, writes, (r) => r.table);
  const insert = writes.prepare(Infinity).ops.find((op) => op.kind === 'insert' && op.table === AccountingEntry.table);
  if (insert?.kind !== 'insert') throw new Error('no insert of entries');
  const [idAt, organisationAt, currencyAt] = ['id', 'organisation_id', 'currency_id'].map((column) => insert.columns.indexOf(column));
  t.equal(insert.rows.length, events.length, 'one entry row per posting');
  for (const [n, row] of insert.rows.entries()) {
    const [o, c] = plan[n];
    t.equal(row[idAt], events[n].data.entryId, `row ${n} is posting ${n}`);
    t.equal(row[organisationAt], ORGANISATIONS[o], `row ${n}: its organisation`);
    t.equal(row[currencyAt], derivedId(ORGANISATIONS[o], 'currency', CURRENCIES[c]), `row ${n}: organisation ${o}'s ${CURRENCIES[c]} row`);
  }
});

t.test('index names fit PostgreSQL (63 bytes) and stay apart, live and shadow', async (t) => {
  const live = indexNames(AccountingEntry);
  const shadow = indexNames(AccountingEntry, shadowTable(AccountingEntry));
  const inSchema = indexNames(AccountingEntry, `replay_x.${AccountingEntry.table}`);
  for (const name of [...live, ...shadow]) t.ok(Buffer.byteLength(name) <= 63, `${name}: ${Buffer.byteLength(name)} bytes`);
  t.equal(new Set([...live, ...shadow]).size, live.length + shadow.length, 'no two alike');
  t.ok(live.includes('accounting_entries_organisation_id_date_number_idx'), 'a short name as it was');
  t.same(inSchema, live.map((name) => `replay_x.${name}`), 'in a schema: the same names, qualified');
  t.same(indexNames(AccountingEntry), live, 'the same names every time');
  // Past 63 bytes a name ends in a digest of the whole, so two long ones differing only at the end stay apart.
  const wide: Resource = { ...AccountingEntry, indexes: [['organisation_id', 'accounting_period_id', 'date', 'number', 'id'], ['organisation_id', 'accounting_period_id', 'date', 'number', 'tan_number']] };
  const [, first, second] = indexNames(wide, shadowTable(wide));
  t.ok(Buffer.byteLength(first) === 63 && Buffer.byteLength(second) === 63, `${first}, ${second}: cut to 63 bytes`);
  t.not(first, second, 'and still apart');
  t.match(first, /_[0-9a-f]{10}$/, 'ending in a digest');
});

t.test("a rebuild's lookup builds the index that searches it best, whatever the declaration order", async (t) => {
  // A period's close finds its entries by organisation, period and the period's dates (projections/writes.ts).
  const closing = new Writes();
  closing.update(AccountingEntry, AccountingEntry.table, { organisationId: randomUUID(), accountingPeriodId: randomUUID() }, { isClosed: true });
  const close = closing.prepare(Infinity).ops.find((op) => op.kind === 'sql');
  if (close?.kind !== 'sql' || close.lookups?.length !== 1) throw new Error('no update with a lookup');
  const byPeriod = new Set(close.lookups[0].fields.map((name) => columnOf(AccountingEntry, name)));
  t.same([...byPeriod], ['organisation_id', 'accounting_period_id', 'date'], "a close looks up by organisation, period and the period's dates");
  const byEntry = new Set(['organisation_id', 'id']);
  for (const indexes of [indexDefinitions(AccountingEntry), indexDefinitions(AccountingEntry).reverse()]) {
    t.same(indexServing(indexes, byPeriod)?.columns, ['organisation_id', 'date', 'number'], "a period's entries: the organisation's date index");
    t.same(indexServing(indexes, byEntry)?.columns, ['id'], 'an entry: its primary key');
    t.same(indexServing(indexes, new Set(['accounting_exercise_id', 'number']))?.columns, ['accounting_exercise_id', 'number'], 'all leading columns searched');
    t.equal(indexServing(indexes, new Set(['description'])), undefined, 'none for a column no index leads with');
  }
  // A second close, once the first built the index: nothing more to build mid-load.
  const all = indexDefinitions(AccountingEntry);
  const dateIndex = indexServing(all, byPeriod)!;
  t.equal(indexToBuild(all, all, byPeriod), dateIndex, 'the first close builds the date index');
  t.equal(indexToBuild(all, all.filter((index) => index !== dateIndex), byPeriod), undefined, 'the second builds nothing');
  // An organisation-wide lookup must not take an index that only its organisation column serves over one that searches more.
  const wide: Resource = { ...AccountingEntry, indexes: [['organisation_id', 'date', 'number'], ['accounting_period_id', 'date']] };
  for (const indexes of [indexDefinitions(wide), indexDefinitions(wide).reverse()]) {
    t.same(indexServing(indexes, new Set(['organisation_id', 'accounting_period_id']))?.columns, ['accounting_period_id', 'date'], 'the period over the organisation');
  }
});
