import t from 'tap';
import { randomUUID } from 'node:crypto';
import { settingsProjection } from '../projections/settings/projections.ts';
import { rebuildProjection } from '../projections/engine/rebuild.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { daemon, db, store } = api.service;
const organisationId = api.organisationId;

t.test('a rebuild ends while events of its projection keep coming faster than it applies them, and loses none of them', async (t) => {
  // A writer appending job areas in bulk, faster than a rebuild of five events per batch applies them.
  await db.pool.query('ANALYZE es_events'); // (else the rebuild's estimate does it, while the writer piles events up)
  let writing = true;
  let appended = 0;
  let last = null as Awaited<ReturnType<typeof store.append>>['position'] | null;
  const streamId = `JobAreaFlood-${randomUUID()}`;
  const writer = (async () => {
    while (writing) {
      const at = new Date().toISOString();
      const events = Array.from({ length: 100 }, (_, i) => ({
        id: randomUUID(), type: 'JobAreaCreated', data: { jobAreaId: randomUUID(), name: `area ${appended + i}`, at }, metadata: { organisationId, schemaVersion: 1 },
      }));
      last = (await store.append(streamId, events, 'any')).position;
      appended += events.length;
      await new Promise((resolve) => setTimeout(resolve, 5)); // (a steady flow, not all the machine has)
    }
  })();
  while (appended < 100) await new Promise((resolve) => setTimeout(resolve, 5));

  const deadline = Date.now() + 20_000;
  let ended = false;
  const stop = new AbortController();
  const rebuilt = rebuildProjection(db.pool, store, settingsProjection, (p) => process.env.DEBUG_REBUILD && console.error(Date.now(), p.stage, p.done, appended), { batchSize: 5, workers: 0, signal: stop.signal }).then(() => (ended = true));
  while (!ended && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const endedWhileWriting = ended;
  writing = false;
  await writer;
  stop.abort(); // (if it did not end: interrupted rather than left to apply what piled up five events at a time)
  await rebuilt.catch(() => {});
  t.ok(endedWhileWriting, 'the rebuild ended while the writer was still appending (was: it chased the head for as long as events came)');

  // Whatever the rebuild did not apply, the live daemon did after it, once each.
  t.ok(await daemon.waitFor(last, 30_000), 'the daemon caught up');
  const { rows } = await db.pool.query(`SELECT count(*)::int AS n, count(DISTINCT id)::int AS ids FROM job_areas WHERE organisation_id = $1 AND name LIKE 'area %'`, [organisationId]);
  t.same(rows[0], { n: appended, ids: appended }, 'every appended job area is in the read model, once');
});
