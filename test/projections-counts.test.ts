/**
 * The counts kept beside a read model (counts.ts, what totalCount answers from) must equal a real count
 * of its rows after any mix of inserts and deletes, across organisations, batches and counted values.
 * Property test: random runs of writes, flushed in random batches, compared with GROUP BY counts.
 */
import t from 'tap';
import fc from 'fast-check';
import { COUNTS_TABLE } from '../projections/engine/counts.ts';
import { f, tableDdl, type Resource } from '../projections/engine/resource.ts';
import { migrateReadModels } from '../projections/engine/schema.ts';
import { Writes } from '../projections/engine/writes.ts';
import { inTransaction } from '../platform/database.ts';
import { freshDatabase } from './helpers/database.ts';

const db = await freshDatabase(t);

const Counted: Resource = {
  typeName: 'Counted',
  table: 'counted_sample',
  scope: 'organisation',
  fields: [f.uuid('id'), f.uuid('accountId'), f.int('kind')],
  countedBy: ['accountId', 'kind'],
};
await migrateReadModels(db.pool, []); // the counts table
await db.pool.query(tableDdl(Counted, Counted.table));

const ORGANISATIONS = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b'];
const ACCOUNTS = ['10000000-0000-4000-8000-000000000001', '10000000-0000-4000-8000-000000000002', '10000000-0000-4000-8000-000000000003'];

type Step = { insert: { organisation: number; account: number | null; kind: number } } | { remove: number } | { flush: true };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ organisation: fc.nat(1), account: fc.option(fc.nat(2)), kind: fc.nat(3) }).map((insert) => ({ insert })) },
  { weight: 2, arbitrary: fc.nat(50).map((remove) => ({ remove })) },
  { weight: 1, arbitrary: fc.constant({ flush: true as const }) },
);

async function keptAndActual() {
  const kept = await db.pool.query(
    `SELECT organisation_id::text AS org, field, value, n::int FROM ${COUNTS_TABLE} WHERE table_name = $1 AND n > 0 ORDER BY 1, 2, 3`, [Counted.table]);
  const actual = await db.pool.query(
    `SELECT organisation_id::text AS org, '' AS field, '' AS value, count(*)::int AS n FROM ${Counted.table} GROUP BY 1
     UNION ALL SELECT organisation_id::text, 'accountId', account_id::text, count(*)::int FROM ${Counted.table} WHERE account_id IS NOT NULL GROUP BY 1, 3
     UNION ALL SELECT organisation_id::text, 'kind', kind::text, count(*)::int FROM ${Counted.table} GROUP BY 1, 3
     ORDER BY 1, 2, 3`);
  return { kept: kept.rows, actual: actual.rows };
}

t.test('kept counts equal the rows, whatever the order of inserts and deletes', async (t) => {
  let serial = 0;
  let runsWithRows = 0;
  await fc.assert(
    // `reuse`: one Writes for every batch (flushing empties it), as a long-lived writer would; else one per batch.
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 60 }), fc.boolean(), async (steps, reuse) => {
      await db.pool.query(`TRUNCATE ${Counted.table}; DELETE FROM ${COUNTS_TABLE} WHERE table_name = '${Counted.table}'`);
      const ids: string[] = [];
      let writes = new Writes();
      const flush = async () => {
        const batch = writes;
        if (!reuse) writes = new Writes();
        await inTransaction(db.pool, (client) => batch.flush(client));
      };
      for (const s of steps) {
        if ('insert' in s) {
          const id = `20000000-0000-4000-8000-${String(++serial).padStart(12, '0')}`;
          ids.push(id);
          writes.insert(Counted, Counted.table, { organisationId: ORGANISATIONS[s.insert.organisation], id, accountId: s.insert.account === null ? null : ACCOUNTS[s.insert.account], kind: s.insert.kind });
        } else if ('remove' in s) {
          if (ids.length > 0) writes.delete(Counted, Counted.table, { id: ids[s.remove % ids.length] });
        } else await flush();
      }
      await flush();
      const { kept, actual } = await keptAndActual();
      t.same(kept, actual);
      if (actual.length > 0) runsWithRows++;
      return true;
    }),
    { numRuns: 60 },
  );
  // (Not vacuous: most runs end with rows to count; a run may happen to delete all it inserted.)
  t.ok(runsWithRows >= 20, `${runsWithRows} of 60 runs ended with rows to count`);
});
