import t from 'tap';
import { settingsProjection } from '../projections/settings/projections.ts';
import { checksum, rebuildProjection } from '../projections/engine/rebuild.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { db, store } = api.service;

t.test('two rebuilds of one projection at once (the CLI beside a background upgrade): one runs, the other is refused, naming it', async (t) => {
  const tables = settingsProjection.resources.map((r) => r.table);
  const before = await Promise.all(tables.map((table) => checksum(db.pool, table)));
  const outcomes = await Promise.allSettled([1, 2].map(() => rebuildProjection(db.pool, store, settingsProjection, () => {}, { batchSize: 1, workers: 0 })));
  t.same(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected'], 'one rebuilt, one refused');
  const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult | undefined;
  t.match(String(refused?.reason), /shared-settings is being rebuilt by another process/, 'the refusal says why');
  t.same(await Promise.all(tables.map((table) => checksum(db.pool, table))), before, 'the read model is as before');
  const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM projection_rebuilds WHERE name = $1`, [settingsProjection.name]);
  t.equal(rows[0].n, 0, 'no rebuild left half-way');
});
