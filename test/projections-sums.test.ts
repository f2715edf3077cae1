/**
 * Sums kept beside a read model (sums.ts): after any mix of inserts, deletes and rows given a party, flushed in any
 * batches, each sum table equals the GROUP BY over its source (a row exists exactly while some source row has its
 * key), to the last decimal; the deleted rows are kept with when; a rebuild's fill gives the same tables. Property
 * test over a sample resource, then the refusals that keep the sums honest.
 */
import t from 'tap';
import fc from 'fast-check';
import { f, tableDdl, type Resource } from '../projections/engine/resource.ts';
import { fillSums, siblingTable } from '../projections/engine/sums.ts';
import { Writes } from '../projections/engine/writes.ts';
import { inTransaction } from '../platform/database.ts';
import { freshDatabase } from './helpers/database.ts';

const db = await freshDatabase(t);

const ByDay: Resource = {
  typeName: 'ByDay', table: 'sample_by_day', scope: 'organisation', primaryKey: ['organisationId', 'day', 'accountId'],
  fields: [f.date('day'), f.uuid('accountId'), f.decimal('debit'), f.decimal('credit'), f.int('rows')],
};
const ByParty: Resource = {
  typeName: 'ByParty', table: 'sample_by_party', scope: 'organisation', primaryKey: ['organisationId', 'partyId', 'accountId'],
  fields: [f.uuid('partyId'), f.uuid('accountId'), f.decimal('debit'), f.decimal('credit'), f.int('rows')],
};
const Gone: Resource = {
  typeName: 'Gone', table: 'sample_gone', scope: 'organisation',
  fields: [f.uuid('id'), f.uuid('groupId'), f.date('day'), f.uuid('accountId'), f.uuid('partyId'), f.decimal('debit'), f.decimal('credit'), f.dateTime('goneAt')],
};
const Line: Resource = {
  typeName: 'Line', table: 'sample_lines', scope: 'organisation',
  fields: [f.uuid('id'), f.uuid('groupId'), f.date('day'), f.uuid('accountId'), f.uuid('partyId'), f.string('partyCode'), f.decimal('debit'), f.decimal('credit'), f.string('note')],
  sums: [
    { into: () => ByDay, keys: ['day', 'accountId'], amounts: ['debit', 'credit'], count: 'rows' },
    { into: () => ByParty, keys: ['partyId', 'accountId'], amounts: ['debit', 'credit'], count: 'rows', onlyWith: 'partyId' },
  ],
  keepsDeleted: () => Gone,
};
const ALL = [Line, ByDay, ByParty, Gone];
for (const r of ALL) await db.pool.query(tableDdl(r));

const ORGANISATIONS = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b'];
const ACCOUNTS = ['10000000-0000-4000-8000-000000000001', '10000000-0000-4000-8000-000000000002'];
const PARTIES = ['30000000-0000-4000-8000-000000000001', '30000000-0000-4000-8000-000000000002'];
const DAYS = ['2026-01-31', '2026-02-01', '2026-12-31'];
// Scales mixed on purpose: 0.1 + 0.2 must be 0.3, and 1.5 + 0.25 1.75.
const AMOUNTS = ['0', '0.1', '0.2', '1.5', '0.25', '999999999999999.99', '7'];

type Step =
  | { insert: { organisation: number; group: number; day: number; account: number; party: number | null; debit: number; credit: number } }
  | { remove: number }
  | { name: number } // the rows of a group with no party get one (as old entry lines get theirs)
  | { flush: true };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ organisation: fc.nat(1), group: fc.nat(7), day: fc.nat(2), account: fc.nat(1), party: fc.option(fc.nat(1)), debit: fc.nat(6), credit: fc.nat(6) }).map((insert) => ({ insert })) },
  { weight: 3, arbitrary: fc.nat(7).map((remove) => ({ remove })) },
  { weight: 1, arbitrary: fc.nat(7).map((name) => ({ name })) },
  { weight: 1, arbitrary: fc.constant({ flush: true as const }) },
);

const groupId = (group: number) => `20000000-0000-4000-8000-${String(group).padStart(12, '0')}`;

/** Each sum table as kept, and as the GROUP BY over the source computes it (amounts compared as numbers, not as spelled). */
async function keptAndGrouped(tables: (r: Resource) => string = (r) => r.table) {
  const q = async (sql: string) => (await db.pool.query(sql)).rows;
  return {
    kept: {
      byDay: await q(`SELECT organisation_id, day::text, account_id, debit::numeric(40,10)::text, credit::numeric(40,10)::text, rows FROM ${tables(ByDay)} ORDER BY 1, 2, 3`),
      byParty: await q(`SELECT organisation_id, party_id, account_id, debit::numeric(40,10)::text, credit::numeric(40,10)::text, rows FROM ${tables(ByParty)} ORDER BY 1, 2, 3`),
    },
    grouped: {
      byDay: await q(`SELECT organisation_id, day::text, account_id, sum(debit)::numeric(40,10)::text AS debit, sum(credit)::numeric(40,10)::text AS credit, count(*)::int AS rows
        FROM ${tables(Line)} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
      byParty: await q(`SELECT organisation_id, party_id, account_id, sum(debit)::numeric(40,10)::text AS debit, sum(credit)::numeric(40,10)::text AS credit, count(*)::int AS rows
        FROM ${tables(Line)} WHERE party_id IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
    },
  };
}

/** Runs the steps with Writes of these options (a live writer: sums kept; a rebuild's load: none); answers the rows deleted, by id. */
async function run(steps: Step[], sums: boolean): Promise<Map<string, Record<string, unknown>>> {
  await db.pool.query(`TRUNCATE ${ALL.map((r) => r.table).join(', ')}`);
  const live = new Map<string, Record<string, unknown>>();
  const deleted = new Map<string, Record<string, unknown>>();
  let writes = new Writes({ sums });
  let serial = 0;
  const flush = async () => {
    const batch = writes;
    writes = new Writes({ sums });
    await inTransaction(db.pool, (client) => batch.flush(client));
  };
  for (const s of steps) {
    if ('insert' in s) {
      const i = s.insert;
      const row = {
        organisationId: ORGANISATIONS[i.organisation], id: `40000000-0000-4000-8000-${String(++serial).padStart(12, '0')}`, groupId: groupId(i.group), day: DAYS[i.day],
        accountId: ACCOUNTS[i.account], partyId: i.party === null ? null : PARTIES[i.party], partyCode: i.party === null ? `P${i.group}` : null,
        debit: AMOUNTS[i.debit], credit: AMOUNTS[i.credit], note: 'x',
      };
      writes.insert(Line, Line.table, row);
      live.set(row.id, row);
    } else if ('remove' in s) {
      const at = new Date(Date.UTC(2026, 5, 1, 0, 0, serial++));
      writes.delete(Line, Line.table, { groupId: groupId(s.remove) }, { goneAt: at });
      for (const [id, row] of live) if (row.groupId === groupId(s.remove)) {
        deleted.set(id, { ...row, goneAt: at });
        live.delete(id);
      }
    } else if ('name' in s) {
      writes.fill(`UPDATE ${Line.table} l SET party_id = $1, party_code = NULL WHERE l.group_id = $2 AND l.party_id IS NULL`, [PARTIES[0], groupId(s.name)],
        [{ resource: Line, table: Line.table, fields: ['groupId'] }], { resource: Line, table: Line.table, alias: 'l', field: 'partyId', sets: ['partyId', 'partyCode'] });
      for (const row of live.values()) if (row.groupId === groupId(s.name) && row.partyId === null) row.partyId = PARTIES[0];
    } else await flush();
  }
  await flush();
  return deleted;
}

t.test('kept sums equal the GROUP BY over the rows, whatever the inserts, deletes and batches', async (t) => {
  let runsWithSums = 0;
  let runsWithRemovals = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 60 }), async (steps) => {
      const deleted = await run(steps, true);
      const { kept, grouped } = await keptAndGrouped();
      t.same(kept, grouped);
      const gone = (await db.pool.query(`SELECT id, group_id, day::text, account_id, party_id, debit, credit, gone_at FROM ${Gone.table} ORDER BY id`)).rows;
      t.same(gone, [...deleted.values()].sort((a, b) => String(a.id).localeCompare(String(b.id))).map((d) => ({
        id: d.id, group_id: d.groupId, day: d.day, account_id: d.accountId, party_id: d.partyId, debit: d.debit, credit: d.credit, gone_at: d.goneAt,
      })), 'every deleted row kept once, with when');
      if (grouped.byDay.length > 0 && grouped.byParty.length > 0) runsWithSums++;
      if (deleted.size > 0) runsWithRemovals++;
      return true;
    }),
    { numRuns: 60 },
  );
  t.ok(runsWithSums >= 20 && runsWithRemovals >= 10, `not vacuous: ${runsWithSums} runs with sums, ${runsWithRemovals} with removals`);
});

t.test('a rebuild fills the same sums from the loaded rows, and again when resumed', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
      await run(steps, false);
      t.equal((await db.pool.query(`SELECT count(*)::int AS n FROM ${ByDay.table}`)).rows[0].n, 0, 'the load keeps no sums');
      await fillSums(db.pool, [Line], (r) => r.table);
      await fillSums(db.pool, [Line], (r) => r.table); // (resumed: filled afresh, not twice)
      const { kept, grouped } = await keptAndGrouped();
      t.same(kept, grouped);
      return true;
    }),
    { numRuns: 15 },
  );
});

t.test('exact amounts, a row gone with its last source row, and a posting deleted in its own batch leaving nothing', async (t) => {
  await db.pool.query(`TRUNCATE ${ALL.map((r) => r.table).join(', ')}`);
  const row = (id: number, group: number, debit: string) => ({
    organisationId: ORGANISATIONS[0], id: `40000000-0000-4000-8000-${String(id).padStart(12, '0')}`, groupId: groupId(group), day: DAYS[0], accountId: ACCOUNTS[0],
    partyId: PARTIES[0], debit, credit: '0',
  });
  const w = new Writes();
  for (const [i, amount] of ['0.1', '0.2', '1.5', '0.25'].entries()) w.insert(Line, Line.table, row(i + 1, 1, amount));
  await inTransaction(db.pool, (client) => w.flush(client));
  const sums = async () => (await db.pool.query(`SELECT debit::text, rows FROM ${ByDay.table}`)).rows;
  t.same(await sums(), [{ debit: '2.05', rows: 4 }]);
  const again = new Writes();
  again.insert(Line, Line.table, row(9, 2, '5'));
  again.delete(Line, Line.table, { groupId: groupId(2) }, { goneAt: new Date() });
  await inTransaction(db.pool, (client) => again.flush(client));
  t.same(await sums(), [{ debit: '2.05', rows: 4 }], 'inserted and deleted in one batch: no change');
  const last = new Writes();
  last.delete(Line, Line.table, { groupId: groupId(1) }, { goneAt: new Date() });
  await inTransaction(db.pool, (client) => last.flush(client));
  t.same(await sums(), [], 'no row once no source row has its key');
  t.same((await db.pool.query(`SELECT count(*)::int AS n FROM ${ByParty.table}`)).rows, [{ n: 0 }]);
  t.equal((await db.pool.query(`SELECT count(*)::int AS n FROM ${Gone.table}`)).rows[0].n, 5);
});

t.test('what would make the sums wrong is refused', async (t) => {
  const w = new Writes();
  t.throws(() => w.update(Line, Line.table, { id: ORGANISATIONS[0] }, { debit: '1' }), /Line.debit is summed/, 'an amount updated in place');
  t.throws(() => w.update(Line, Line.table, { id: ORGANISATIONS[0] }, { accountId: ACCOUNTS[1] }), /Line.accountId is summed/, 'a key updated in place');
  t.doesNotThrow(() => w.update(Line, Line.table, { id: ORGANISATIONS[0] }, { note: 'y' }), 'any other field');
  t.throws(() => w.delete(Line, Line.table, { id: ORGANISATIONS[0] }), /keeps its deleted rows/, 'a delete not saying when');
  t.throws(() => w.fill('UPDATE x l SET day = NULL', [], [], { resource: Line, table: Line.table, alias: 'l', field: 'partyId', sets: ['partyId', 'day'] }), /Line.day is summed into ByDay/);
  const wrongKey: Resource = { ...Line, typeName: 'Wrong', sums: [{ ...Line.sums![0], keys: ['day'] }] };
  t.throws(() => new Writes().insert(wrongKey, wrongKey.table, { organisationId: ORGANISATIONS[0], id: ORGANISATIONS[0] }), /primary key must be/);
  t.equal(siblingTable(Line, 'sample_lines__rebuild', ByDay), 'sample_by_day__rebuild', "a rebuild's sums go to its shadow tables");
  t.equal(siblingTable(Line, 'replay_x.sample_lines', ByDay), 'replay_x.sample_by_day', "a replay's to its schema");
});
