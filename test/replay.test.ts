import t from 'tap';
import { PROJECTIONS } from '../service/start.ts';
import { aggregateHistory } from '../cli/history.ts';
import { replayOrganisation } from '../projections/engine/replay.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { commands, mutate, db, store } = api.service;
const ctx = { organisationId: api.organisationId, userId: 'auditor-test' };
const year = new Date().getUTCFullYear();
const post = (amount: string) => mutate.createAccountingEntryUsingCodes(ctx, {
  date: `${year}-04-01`, journalTypeCode: 'GEN', accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: amount }, { subAccountCode: '1000000', creditAmount: amount }],
});

const before = await post('100.00');
const cut = before.position!;
await new Promise((r) => setTimeout(r, 20));
const cutTime = new Date();
await new Promise((r) => setTimeout(r, 20));
const latest = await post('999.99');
await api.service.daemon.waitFor(latest.position);
await api.service.commands.createOrganisation({}, { name: 'Other Ltd', country: 'GB' });

t.test('a replay at a position shows the books as they stood then', async (t) => {
  const r = await replayOrganisation(db.pool, store, PROJECTIONS, { organisationId: api.organisationId, position: cut });
  t.equal(r.totals.debit, '33125.00', 'demo books plus the first entry only');
  t.equal(r.totals.debit, r.totals.credit, 'balanced');
  const entries = await db.pool.query(`SELECT count(*)::int AS n FROM ${r.schema}.accounting_entries`);
  t.equal(entries.rows[0].n, 5);
  const orgs = await db.pool.query(`SELECT count(*)::int AS n FROM ${r.schema}.organisations`);
  t.equal(orgs.rows[0].n, 1, 'only this organisation');
  await t.rejects(db.pool.query(`DELETE FROM ${r.schema}.accounting_entries`).then(async () => {
    // as a superuser the REVOKE does not bind; check the grant instead
    const g = await db.pool.query(`SELECT has_table_privilege('public', '${r.schema}.accounting_entries', 'DELETE') AS d`);
    if (!g.rows[0].d) throw new Error('read-only for PUBLIC');
  }), /read-only/);
});

t.test('a replay as of a time, and as of now equals the live books', async (t) => {
  const then = await replayOrganisation(db.pool, store, PROJECTIONS, { organisationId: api.organisationId, asOf: cutTime });
  t.equal(then.totals.debit, '33125.00');
  const now = await replayOrganisation(db.pool, store, PROJECTIONS, { organisationId: api.organisationId, asOf: new Date(Date.now() + 60_000) });
  const live = await db.pool.query(`SELECT sum(debit_amount) AS d FROM accounting_entry_lines WHERE organisation_id = $1`, [api.organisationId]);
  t.equal(now.totals.debit, live.rows[0].d);
  t.equal(now.totals.debit, '34124.99');
});

t.test('an interrupted replay resumes where it stopped and ends as an uninterrupted one', async (t) => {
  const options = { organisationId: api.organisationId, asOf: cutTime };
  const whole = await replayOrganisation(db.pool, store, PROJECTIONS, options);
  const rows = async (schema: string) => (await db.pool.query(`SELECT (SELECT count(*)::int FROM ${schema}.accounting_entries) AS entries, (SELECT count(*)::int FROM ${schema}.accounting_accounts) AS accounts`)).rows[0];
  const expected = await rows(whole.schema);

  const abort = new AbortController();
  const progress: number[] = [];
  const stopped = await replayOrganisation(db.pool, store, PROJECTIONS, { ...options, batchSize: 5, signal: abort.signal, onProgress: (n) => { progress.push(n); if (progress.length === 2) abort.abort(); } }).catch((e) => e);
  t.match(stopped.message, /interrupted at 10 events/, 'stopped after two batches of 5');
  const resumed: number[] = [];
  const again = await replayOrganisation(db.pool, store, PROJECTIONS, { ...options, batchSize: 5, onProgress: (n) => resumed.push(n) });
  t.equal(resumed[0], 15, 'resumed after the 10 events already read');
  t.same([again.eventsApplied, again.lastPosition, again.totals, again.trialBalance], [whole.eventsApplied, whole.lastPosition, whole.totals, whole.trialBalance], 'the same books');
  t.same(await rows(again.schema), expected, 'the same rows');
  const fresh: number[] = [];
  await replayOrganisation(db.pool, store, PROJECTIONS, { ...options, batchSize: 5, onProgress: (n) => fresh.push(n) });
  t.equal(fresh[0], 5, 'a finished replay run again starts afresh');
});

t.test("an aggregate's history says who did what and when", async (t) => {
  const org = await commands.organisation(api.organisationId);
  const exerciseId = [...org.exercises.keys()][0];
  const history = await aggregateHistory(store, api.organisationId, `Ledger-${exerciseId}`);
  t.equal(history.length, 6);
  t.equal(history[5].userId, 'auditor-test');
  t.equal(history[5].type, 'AccountingEntryPosted');
  t.same(await aggregateHistory(store, '00000000-0000-0000-0000-000000000000', `Ledger-${exerciseId}`), [], "another organisation's stream reads empty");
});

t.test('a replay waits for committed events the store still holds back, rather than ending short of them', async (t) => {
  // An older transaction left open holds every later commit back from readAll (PostgreSQL's horizon).
  const older = await db.pool.connect();
  try {
    await older.query('BEGIN');
    await older.query('SELECT pg_current_xact_id()');
    const held = await post('0.01');
    const replaying = replayOrganisation(db.pool, store, PROJECTIONS, { organisationId: api.organisationId, position: held.position! });
    await new Promise((r) => setTimeout(r, 300));
    await older.query('COMMIT');
    const r = await replaying;
    t.equal(r.totals.debit, '34125.00', 'every entry up to the cut, the one held back included');
  } finally {
    older.release();
  }
});
