import t from 'tap';
import { PROJECTIONS } from '../service/start.ts';
import { ProjectionDaemon } from '../projections/engine/daemon.ts';
import { isCounted } from '../projections/engine/counts.ts';
import { migrateReadModels } from '../projections/engine/schema.ts';
import { storedField } from '../projections/engine/resource.ts';
import { sourceOf } from '../projections/engine/projection.ts';
import { checksum, projectionStatus, rebuildProjection, type RebuildProgress } from '../projections/engine/rebuild.ts';
import { comparePositions } from '../eventstore/port.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { commands, mutate, daemon, db, store } = api.service;
const ctx = { organisationId: api.organisationId };
const year = new Date().getUTCFullYear();

// A varied history: posts, deletions (renumbering), account changes, a closed period.
const posted: string[] = [];
for (let i = 0; i < 60; i++) {
  const amount = `${i + 1}.${String(i % 100).padStart(2, '0')}`;
  const r = await mutate.createAccountingEntryUsingCodes(ctx, {
    date: `${year}-0${(i % 6) + 3}-1${i % 10}`, journalTypeCode: 'GEN', description: `e${i}`,
    accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: amount }, { subAccountCode: '7000000', creditAmount: amount }],
  });
  posted.push(r.id);
  if (i === 59) await daemon.waitFor(r.position);
}
for (const id of posted.filter((_, i) => i % 7 === 0)) await mutate.deleteAccountingEntry(ctx, { id });
const org = await commands.organisation(api.organisationId);
const june = [...org.exercises.values()][0].periods.find((p) => p.month === 'JUNE')!;
await mutate.closeAccountingPeriod(ctx, { id: june.periodId });
const account = await mutate.createAccountingAccount(ctx, { code: '6290005', name: 'Otros' });
const last = await mutate.updateAccountingAccount(ctx, { id: account.id, name: 'Otros servicios', deactivated: true });
// Wait on the command's own position: the visible head can lag while other transactions are open.
if (!(await daemon.waitFor(last.position))) throw new Error('read models did not catch up');

const tables = PROJECTIONS.flatMap((p) => p.resources.map((r) => r.table));

/** Until readers may read every event stored (they wait for transactions running anywhere in the cluster: other test files' too). */
async function everyEventVisible(): Promise<void> {
  const { rows } = await db.pool.query(`SELECT transaction_id::text AS commit, global_position::text AS prepare FROM es_events ORDER BY transaction_id DESC, global_position DESC LIMIT 1`);
  const last = { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) };
  for (let tries = 0; tries < 1000 && comparePositions(await store.headPosition(), last) < 0; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
}
const indexes = async () => (await db.pool.query(`SELECT tablename, indexname FROM pg_indexes WHERE tablename = ANY($1) ORDER BY 1, 2`, [tables])).rows;
const indexesBefore = await indexes();
const live = await Promise.all(tables.map((table) => checksum(db.pool, table)));

/** The kept counts of every counted table, and the same counted from the rows themselves. */
async function keptAndActual() {
  const kept = [];
  const actual = [];
  for (const r of PROJECTIONS.flatMap((p) => p.resources).filter(isCounted)) {
    kept.push(...(await db.pool.query(`SELECT table_name, organisation_id, field, value, n::int FROM read_model_counts WHERE table_name = $1 AND n > 0 ORDER BY 2, 3, 4`, [r.table])).rows);
    const groups = [`SELECT organisation_id, '' AS field, '' AS value, count(*)::int AS n FROM ${r.table} GROUP BY 1`];
    for (const name of r.countedBy!) groups.push(`SELECT organisation_id, '${name}', ${storedField(r, name).column}::text, count(*)::int FROM ${r.table} GROUP BY 1, 3`);
    actual.push(...(await db.pool.query(`SELECT $1::text AS table_name, * FROM (${groups.join(' UNION ALL ')}) g ORDER BY 2, 3, 4`, [r.table])).rows);
  }
  return { kept, actual };
}

t.test('kept counts equal the rows, live, after a rebuild, and recounted for a store older than them', async (t) => {
  let { kept, actual } = await keptAndActual();
  t.ok(kept.length > 4, `${kept.length} counts kept`);
  t.same(kept, actual, 'live: posts, deletions and a closed period');
  const entries = PROJECTIONS.find((p) => p.name === 'entries')!;
  await rebuildProjection(db.pool, store, entries);
  ({ kept, actual } = await keptAndActual());
  t.same(kept, actual, 'after a rebuild');
  await db.pool.query(`DELETE FROM read_model_counts; DELETE FROM read_model_counted`);
  await migrateReadModels(db.pool, PROJECTIONS);
  ({ kept, actual } = await keptAndActual());
  t.same(kept, actual, 'recounted at start when missing');
  const r = await api.gql(`query($p: UUID!) { all: accountingEntryLines { totalCount } june: accountingEntries(where: { accountingPeriodId: { eq: $p } }) { totalCount } }`, { p: june.periodId.toUpperCase() });
  const lines = actual.find((c) => c.table_name === 'accounting_entry_lines' && c.field === '');
  const inJune = actual.find((c) => c.table_name === 'accounting_entries' && c.field === 'accountingPeriodId' && c.value === june.periodId);
  t.same([r.data.all.totalCount, r.data.june.totalCount], [lines.n, inJune?.n ?? 0], 'totalCount reads them (a UUID in capitals too)');
});

t.test('an index a resource no longer declares is dropped at start', async (t) => {
  await db.pool.query(`CREATE INDEX accounting_entries_organisation_id_date_idx ON accounting_entries (organisation_id, date)`);
  await migrateReadModels(db.pool, PROJECTIONS);
  t.same(await indexes(), indexesBefore);
});

t.test('rebuilding every projection reproduces the live read models exactly', async (t) => {
  const rebuilt = [];
  for (const p of PROJECTIONS) rebuilt.push(...(await rebuildProjection(db.pool, store, p)));
  t.same(rebuilt.map((c) => [c.table, c.rows, c.checksum]), live.map((c) => [c.table, c.rows, c.checksum]));
  const again = [];
  for (const p of PROJECTIONS) again.push(...(await rebuildProjection(db.pool, store, p)));
  t.same(again, rebuilt, 'the same events give the same checksums twice');
  const small = [];
  for (const p of PROJECTIONS) small.push(...(await rebuildProjection(db.pool, store, p, undefined, { batchSize: 3 })));
  t.same(small, rebuilt, 'in batches of 3 (two in flight, deletions among them): the same');
  const threaded = [];
  const warnings: Error[] = [];
  const warned = (w: Error) => w.name === 'RebuildWarning' && warnings.push(w);
  t.ok(PROJECTIONS.filter((p) => !p.prepare).every((p) => sourceOf(p)), 'the threads can load every projection that needs nothing loaded first');
  process.on('warning', warned);
  for (const p of PROJECTIONS) threaded.push(...(await rebuildProjection(db.pool, store, p, undefined, { batchSize: 3, workers: 2 })));
  await new Promise((resolve) => setImmediate(resolve)); // (warnings are emitted on the next tick)
  process.off('warning', warned);
  t.same(threaded, rebuilt, 'prepared on two worker threads, in batches of 3: the same');
  // Each batch decoded, applied and encoded a slice at a time (rows encoded between slices, deletions among them).
  const sliced = [];
  process.on('warning', warned);
  for (const p of PROJECTIONS) sliced.push(...(await rebuildProjection(db.pool, store, p, undefined, { batchSize: 7, workers: 2, workerSliceEvents: 2 })));
  await new Promise((resolve) => setImmediate(resolve));
  process.off('warning', warned);
  t.same(sliced, rebuilt, 'on two worker threads, in batches of 7 taken 2 events at a time: the same');
  const counted = await keptAndActual();
  t.same(counted.kept, counted.actual, 'and the same counts');
  t.same(warnings.map((w) => w.message), [], 'the worker threads started (no rebuild went on without them)');
  // A projection object other than the registered one (the threads would load that one by name) is rebuilt here.
  const entries = PROJECTIONS.find((p) => p.name === 'entries')!;
  const wrapped = await rebuildProjection(db.pool, store, { ...entries }, undefined, { workers: 2 });
  t.same(wrapped, rebuilt.filter((c) => entries.resources.some((r) => r.table === c.table)), 'an unregistered projection object: the same, without workers');
  const { kept, actual } = await keptAndActual();
  t.same(kept, actual, 'and the same counts');
  t.same(await indexes(), indexesBefore, 'the live tables keep exactly their indexes through rebuilds');
  const { rows: options } = await db.pool.query(`SELECT relname, reloptions FROM pg_class WHERE relname = ANY($1) AND reloptions IS NOT NULL`, [tables]);
  t.same(options, [], 'and autovacuum, off in the shadow tables while they load, is back on');
  const { rows: leftovers } = await db.pool.query(`SELECT tablename FROM pg_tables WHERE tablename LIKE '%\\_\\_rebuild' OR tablename LIKE '%\\_\\_retired'`);
  t.same(leftovers, [], 'no shadow or replaced table is left behind');
});

t.test('the API keeps answering during a rebuild and after the swap', async (t) => {
  const entries = PROJECTIONS.find((p) => p.name === 'entries')!;
  const rebuilding = rebuildProjection(db.pool, store, entries);
  const during = await api.gql('{ accountingEntries { totalCount } }');
  t.equal(during.errors, undefined);
  await rebuilding;
  const r = await api.gql(`mutation { createAccountingEntryUsingCodes(input: { date: "${year}-03-01", journalTypeCode: "GEN", accountingEntryLines: [{ subAccountCode: "5720000", debitAmount: "5" }, { subAccountCode: "1000000", creditAmount: "5" }] }) { number } }`);
  // The write is recorded either way; on a loaded machine the daemon may take longer than read-your-writes waits
  // (5 s) to pick up after a swap it was not told of: then it must still get there, from the swapped checkpoint.
  const behind = r.errors?.[0]?.extensions?.code === 'READ_MODELS_BEHIND' && r.errors[0].extensions.reason === 'behind';
  t.ok(r.errors === undefined || behind, `the live daemon continues from the swapped checkpoint (${JSON.stringify(r.errors ?? 'answered at once')})`);
  t.ok(await daemon.waitFor(await store.committedHead!(), 60_000), 'and catches up');
  const count = await api.gql('{ accountingEntries { totalCount } }');
  t.equal(count.data.accountingEntries.totalCount, during.data.accountingEntries.totalCount + 1, 'no event applied twice, none lost');
});

t.test('progress starts from an estimate of the events to apply and is exact once they are applied', async (t) => {
  const entries = PROJECTIONS.find((p) => p.name === 'entries')!;
  const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM es_events WHERE event_type = ANY($1)`, [entries.eventTypes]);
  await everyEventVisible();
  const seen: RebuildProgress[] = [];
  await rebuildProjection(db.pool, store, entries, (p) => seen.push({ ...p }));
  const estimated = seen[0].total;
  t.ok(estimated >= rows[0].n / 2 && estimated <= rows[0].n * 2, `estimated ${estimated} of ${rows[0].n}, from statistics`);
  const applied = seen.find((p) => p.stage === 'indexes')!;
  t.same([applied.done, applied.total], [rows[0].n, rows[0].n], 'every event applied, and the total exact from then on');
});

t.test('a swap that cannot lock a live table at once tries again, without applying its tail twice', async (t) => {
  const entries = PROJECTIONS.find((p) => p.name === 'entries')!;
  const reader = await db.pool.connect(); // a long read of the live table: the swap's lock must wait for it
  await reader.query(`BEGIN; LOCK TABLE accounting_entries IN ACCESS SHARE MODE`);
  let released = false;
  const release = async () => {
    if (!released) await reader.query('COMMIT');
    released = true;
  };
  try {
    let posted: Promise<{ position: unknown }> | undefined;
    let swapping!: () => void;
    const swapStarted = new Promise<void>((resolve) => (swapping = resolve));
    const stages: string[] = [];
    const rebuilt = rebuildProjection(db.pool, store, entries, (p) => {
      if (!stages.includes(p.stage)) stages.push(p.stage);
      // An entry posted after phase 1: the tail each swap attempt applies (and rolls back when it gives up).
      posted ??= p.stage === 'indexes' ? mutate.createAccountingEntryUsingCodes(ctx, { date: `${year}-03-02`, journalTypeCode: 'GEN', accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '7' }, { subAccountCode: '7000000', creditAmount: '7' }] }) : undefined;
      if (p.stage === 'swap') swapping();
    });
    rebuilt.catch(() => {}); // (awaited below)
    await swapStarted;
    // Once the swap waits for the table, another reader: answered while the long read goes on (it would
    // queue behind a swap that waited on), or, after 3 s, not.
    for (let tries = 0; tries < 500 && !(await db.pool.query(`SELECT 1 FROM pg_locks WHERE relation = 'accounting_entries'::regclass AND NOT granted`)).rows.length; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const other = await db.pool.connect();
    const answered = await other.query(`SET statement_timeout = '3s'; SELECT count(*) FROM accounting_entries`).then(() => !released, () => false);
    other.release(true);
    await release();
    const sums = await rebuilt;
    t.ok(answered, 'another reader was answered while the swap waited for the long read');
    t.same(stages, ['events', 'indexes', 'swap', 'checksums']);
    await daemon.waitFor((await posted!).position as never);
    const again = await rebuildProjection(db.pool, store, entries);
    t.same(sums, again, 'the same read models as a rebuild that swapped at once');
    t.same(await Promise.all(entries.resources.map((r) => checksum(db.pool, r.table))), again, 'and as the live ones');
  } finally {
    await release().catch(() => {});
    reader.release();
  }
});

t.test('an interrupted rebuild resumes', async (t) => {
  const entries = PROJECTIONS.find((p) => p.name === 'entries')!;
  const abort = new AbortController();
  const stopped = rebuildProjection(db.pool, store, entries, (p) => p.done > 0 && abort.abort(), { signal: abort.signal, batchSize: 2, workers: 2 });
  await t.rejects(stopped, /interrupted/);
  const progress = await db.pool.query('SELECT events_done FROM projection_rebuilds WHERE name = $1', ['entries']);
  t.equal(progress.rows.length, 1, 'progress was saved');
  t.ok(Number(progress.rows[0].events_done) > 0, 'after at least one batch');
  const status = (await projectionStatus(db.pool, PROJECTIONS)).find((s) => s.name === 'entries')!;
  t.equal(status.rebuild?.eventsDone, Number(progress.rows[0].events_done), 'status shows the interrupted rebuild');
  const { rows: shadows } = await db.pool.query(`SELECT relname, reloptions FROM pg_class WHERE relname = ANY($1) ORDER BY 1`, [entries.resources.map((r) => `${r.table}__rebuild`)]);
  t.same(shadows.map((r) => r.reloptions), entries.resources.map(() => ['autovacuum_enabled=false']), 'its shadow tables (one per table of the projection) load without autovacuum');
  const sums = await rebuildProjection(db.pool, store, entries);
  const expected = await Promise.all(entries.resources.map((r) => checksum(db.pool, r.table)));
  t.same(sums, expected);
  t.equal((await db.pool.query('SELECT count(*)::int AS n FROM projection_rebuilds')).rows[0].n, 0, 'finished rebuilds leave no progress row');
  t.equal((await projectionStatus(db.pool, PROJECTIONS)).find((s) => s.name === 'entries')!.rebuild, null, 'nor a rebuild in the status');
});

t.test('status shows each checkpoint and how far behind it is', async (t) => {
  const caughtUp = await projectionStatus(db.pool, PROJECTIONS);
  t.same(caughtUp.map((s) => [s.name, s.eventsBehind]), PROJECTIONS.map((p) => [p.name, 0]));
  await daemon.stop();
  await mutate.createAccountingEntryUsingCodes(ctx, { date: `${year}-03-03`, journalTypeCode: 'GEN', accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '1' }, { subAccountCode: '1000000', creditAmount: '1' }] });
  await new Promise((r) => setTimeout(r, 50));
  const behind = (await projectionStatus(db.pool, PROJECTIONS)).find((s) => s.name === 'entries')!;
  t.equal(behind.eventsBehind, 1);
  t.ok(behind.lagSeconds >= 0.04, `lag ${behind.lagSeconds}s`);
});

t.test('the daemon resumes from its checkpoint after a restart, applying nothing twice', async (t) => {
  const r = await mutate.createAccountingEntryUsingCodes(ctx, { date: `${year}-03-02`, journalTypeCode: 'GEN', accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '7' }, { subAccountCode: '1000000', creditAmount: '7' }] });
  const restarted = new ProjectionDaemon(db.pool, store, PROJECTIONS);
  await restarted.start();
  t.ok(await restarted.waitFor(r.position, 5000));
  const rows = await db.pool.query('SELECT count(*)::int AS n FROM accounting_entries WHERE id = $1', [r.id]);
  t.equal(rows.rows[0].n, 1);
  t.same((await projectionStatus(db.pool, PROJECTIONS)).map((s) => s.eventsBehind), PROJECTIONS.map(() => 0), 'the entry posted while stopped was applied too');
  await restarted.stop();
});
