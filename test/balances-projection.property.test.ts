/**
 * Issue 19 item 1, balances as a projection, as a property over random postings and deletions run through the real
 * service (several accounts, parties, periods; some entries deleted right after their posting, often in the daemon's
 * same batch; a line stored before postings recorded their party, which the projection names later). After each run,
 * in the live read models:
 *  (a) each balance table equals the GROUP BY over accounting_entry_lines (issue 19 contract A.5): a row exactly
 *      while some line has its key, the sums and the number of lines exact;
 *  (b) each line carries its posting's date, exercise, period, entry type and recordedAt (A.1);
 *  (c) deleted_entry_lines holds exactly the lines of the deleted entries, each deleted at its deletion event's
 *      recordedAt (A.6) — the oracle being the events themselves.
 * Then the same after a rebuild on worker threads (small batches and slices, entries posted and deleted during it, so
 * that its tail keeps the sums), after a rebuild without workers, and in a replay of the organisation; and the
 * rebuilds' checksums are the live tables'.
 */
import t from 'tap';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { START } from '../eventstore/port.ts';
import { PROJECTIONS } from '../service/start.ts';
import { checksum, rebuildProjection } from '../projections/engine/rebuild.ts';
import { replayOrganisation } from '../projections/engine/replay.ts';
import { AccountDayBalance, AccountPeriodBalance, DeletedEntryLine, PartyPeriodBalance } from '../projections/accounting/balances.ts';
import { expect, holdsAsync } from './helpers/property.ts';
import { postOld } from './helpers/old-events.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { commands, mutate, daemon, store, db } = api.service;
const ctx = { organisationId: api.organisationId };
const year = new Date().getUTCFullYear();
const RUNS = Number(process.env.BALANCES_PROPERTY_RUNS ?? 20);
const entries = PROJECTIONS.find((p) => p.name === 'entries')!;

const org = await commands.organisation(api.organisationId);
const accountIds = ['4300000', '5720000', '7000000', '1000000', '6290000'].map((code) => [...org.accounts.values()].find((a) => a.code === code)!.id);
const journalTypeId = [...org.journalTypes.values()].find((j) => j.code === 'GEN')!.id;
const parties = [
  await mutate.createCustomer(ctx, { socialName: 'Cliente Uno S.L.', code: 'BAL1' }),
  await mutate.createCustomer(ctx, { socialName: 'Cliente Dos S.L.', code: 'BAL2' }),
  await mutate.createEmployee(ctx, { name: 'Ana Gómez' }),
].map((p) => (p as { id: string }).id);
const head = async () => {
  if (!(await daemon.waitFor(await store.committedHead!(), 30_000))) throw new Error('read models did not catch up');
};

// ---- The operations: postings of random lines (balanced by a last line), deletions of an entry posted before. ----
type Line = { account: number; party: number | null; cents: number };
type Op = { op: 'post'; month: number; day: number; lines: Line[]; deleteAtOnce: boolean } | { op: 'delete'; entry: number };
const line = fc.record({ account: fc.nat(4), party: fc.option(fc.nat(2), { freq: 2 }), cents: fc.integer({ min: 1, max: 10_000_000 }) });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('post' as const), month: fc.integer({ min: 3, max: 8 }), day: fc.integer({ min: 1, max: 28 }), lines: fc.array(line, { minLength: 1, maxLength: 3 }), deleteAtOnce: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), entry: fc.nat(1000) }) },
);
const amount = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

const posted: string[] = [];
async function post(o: Extract<Op, { op: 'post' }>): Promise<string> {
  const total = o.lines.reduce((sum, l) => sum + l.cents, 0);
  const lines = [
    ...o.lines.map((l) => ({ subAccountId: accountIds[l.account], thirdId: l.party === null ? null : parties[l.party], debitAmount: amount(l.cents) })),
    { subAccountId: accountIds[(o.lines[0].account + 1) % accountIds.length], thirdId: o.lines[0].party === null ? null : parties[(o.lines[0].party + 1) % parties.length], creditAmount: amount(total) },
  ];
  const date = `${year}-${String(o.month).padStart(2, '0')}-${String(o.day).padStart(2, '0')}`;
  const r = await mutate.createAccountingEntryUsingIds({ ...ctx, commandId: randomUUID() }, { date, journalTypeId, accountingEntryLines: lines });
  return r.id;
}

// ---- What must hold, read from a schema's tables (the live ones, or a replay's). ----
const KEYS: [typeof AccountPeriodBalance, string, string][] = [
  [AccountPeriodBalance, 'accounting_exercise_id, accounting_period_id, sub_account_id, entry_type', ''],
  [AccountDayBalance, 'accounting_exercise_id, date, sub_account_id, entry_type', ''],
  [PartyPeriodBalance, 'accounting_exercise_id, accounting_period_id, third_party_origin, third_party_id, sub_account_id, entry_type', 'AND third_party_id IS NOT NULL'],
];

/** (a): each balance table minus the GROUP BY over the lines, and the other way round: both empty. */
async function balancesDiffer(schema = ''): Promise<string | undefined> {
  for (const [r, keys, only] of KEYS) {
    const kept = `SELECT ${keys}, debit_amount, credit_amount, line_count FROM ${schema}${r.table} WHERE organisation_id = $1`;
    const grouped = `SELECT ${keys}, sum(debit_amount), sum(credit_amount), count(*)::int FROM ${schema}accounting_entry_lines WHERE organisation_id = $1 ${only} GROUP BY ${keys}`;
    const { rows } = await db.pool.query(`(${kept} EXCEPT ${grouped}) UNION ALL (${grouped} EXCEPT ${kept})`, [api.organisationId]);
    if (rows.length > 0) return `${schema}${r.table} differs from the lines: ${JSON.stringify(rows.slice(0, 3))}`;
  }
  return undefined;
}

/** The lines live and deleted as the events say: each line with its posting's facts, and when its entry was deleted. */
async function fromEvents() {
  const events = (await store.readAll(START, { maxCount: 100_000, filter: { eventTypes: ['AccountingEntryPosted', 'AccountingEntryDeleted'] } })).filter((e) => e.metadata.organisationId === api.organisationId);
  const lines = new Map<string, Record<string, unknown>[]>();
  const deleted: Record<string, unknown>[] = [];
  for (const e of events) {
    const d = e.data as any;
    if (e.type === 'AccountingEntryPosted') {
      lines.set(d.entryId, d.lines.map((l: any) => ({
        id: l.lineId, accounting_entry_id: d.entryId, date: d.date, accounting_exercise_id: d.exerciseId, accounting_period_id: d.periodId,
        sub_account_id: l.subAccountId, entry_type: d.entryType, debit_amount: l.debitAmount, credit_amount: l.creditAmount, recorded_at: e.recordedAt,
      })));
    } else {
      for (const l of lines.get(d.entryId)!) deleted.push({ ...l, deleted_at: e.recordedAt });
      lines.delete(d.entryId);
    }
  }
  const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.id).localeCompare(String(b.id));
  return { live: [...lines.values()].flat().sort(byId), deleted: deleted.sort(byId) };
}

const FACTS = 'id, accounting_entry_id, date::text, accounting_exercise_id, accounting_period_id, sub_account_id, entry_type, debit_amount, credit_amount, recorded_at';

/** (b) and (c) against the events. */
async function linesDiffer(schema = ''): Promise<string | undefined> {
  const expected = await fromEvents();
  const live = (await db.pool.query(`SELECT ${FACTS} FROM ${schema}accounting_entry_lines WHERE organisation_id = $1 ORDER BY id`, [api.organisationId])).rows;
  const gone = (await db.pool.query(`SELECT ${FACTS}, deleted_at FROM ${schema}${DeletedEntryLine.table} WHERE organisation_id = $1 ORDER BY id`, [api.organisationId])).rows;
  if (JSON.stringify(live) !== JSON.stringify(expected.live)) return `${schema}accounting_entry_lines: not the postings' facts`;
  if (JSON.stringify(gone) !== JSON.stringify(expected.deleted)) return `${schema}${DeletedEntryLine.table}: ${gone.length} kept, ${expected.deleted.length} deleted`;
  // The party balances hold the third parties' lines: those of the runs, and the old line named later.
  const parties = await db.pool.query(`SELECT count(*)::int AS n FROM ${schema}${PartyPeriodBalance.table} WHERE organisation_id = $1`, [api.organisationId]);
  if (expected.live.length > 0 && parties.rows[0].n === 0) return 'no party balance';
  return undefined;
}

const holdsNow = async (schema = '') => (await balancesDiffer(schema)) ?? (await linesDiffer(schema));

// A line stored before postings recorded their party: the projection names it later (an UPDATE the sums follow).
const template = await post({ op: 'post', month: 4, day: 2, lines: [{ account: 0, party: 0, cents: 4200 }], deleteAtOnce: false });
await head();
const old = await postOld(api, template, `${year}-04-02`, (l) => l);
const oldParty = await db.pool.query(`SELECT count(*)::int AS n FROM accounting_entry_lines WHERE accounting_entry_id = $1 AND third_party_id IS NOT NULL`, [old]);
t.ok(oldParty.rows[0].n > 0, 'the old line got its party in the projection');

let deletions = 0;
let sameBatch = 0;
t.test('live: the balances equal the lines, the lines carry their posting, the deleted lines are kept', async (t) => {
  await holdsAsync(t, fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 8 }), async (ops) => {
    for (const o of ops) {
      if (o.op === 'post') {
        const id = await post(o);
        if (o.deleteAtOnce) {
          // Deleted before the daemon caught up: posting and deletion mostly in one of its batches.
          await mutate.deleteAccountingEntry(ctx, { id });
          deletions++;
          sameBatch++;
        } else posted.push(id);
      } else if (posted.length > 0) {
        const [id] = posted.splice(o.entry % posted.length, 1);
        await mutate.deleteAccountingEntry(ctx, { id });
        deletions++;
      }
    }
    await head();
    const broken = await holdsNow();
    expect(broken === undefined, broken!);
    return true;
  }), { numRuns: RUNS });
  t.ok(deletions > 0 && sameBatch > 0, `not vacuous: ${deletions} deletions, ${sameBatch} right after the posting`);
});

const entriesChecksums = () => Promise.all(entries.resources.map((r) => checksum(db.pool, r.table)));

t.test('rebuilt on worker threads, with entries posted and deleted during it (its tail), then without workers: the same', async (t) => {
  await head();
  const live = await entriesChecksums();
  const threaded = await rebuildProjection(db.pool, store, entries, undefined, { batchSize: 7, workers: 2, workerSliceEvents: 2 });
  t.same(threaded, live, 'on worker threads: the checksums of the live tables');
  t.equal(await holdsNow(), undefined);

  // Events recorded once the rebuild has loaded its tables go to its tail (the swap applies them: the sums kept as
  // the live daemon keeps them), or, recorded after the swap, to the live daemon.
  let during: Promise<void> | undefined;
  let stage = '';
  let inTail = false;
  const rebuilt = rebuildProjection(db.pool, store, entries, (p) => {
    stage = p.stage;
    if (p.stage !== 'indexes') return;
    during ??= (async () => {
      const gone = await post({ op: 'post', month: 6, day: 6, lines: [{ account: 2, party: 2, cents: 999 }], deleteAtOnce: false });
      await mutate.deleteAccountingEntry(ctx, { id: gone });
      inTail = stage === 'indexes';
    })();
  }, { batchSize: 7, workers: 2, workerSliceEvents: 2 });
  await rebuilt;
  await during;
  await head();
  t.equal(await holdsNow(), undefined, `with writes during the rebuild (${inTail ? 'applied by its tail' : 'after its swap'})`);

  const now = await entriesChecksums();
  const plain = await rebuildProjection(db.pool, store, entries, undefined, { batchSize: 5, workers: 0 });
  t.same(plain, now, 'without workers: the checksums of the live tables');
  t.equal(await holdsNow(), undefined);
});

t.test('replayed, the organisation has the same balances and deleted lines', async (t) => {
  await head();
  const r = await replayOrganisation(db.pool, store, PROJECTIONS, { organisationId: api.organisationId, asOf: new Date(Date.now() + 60_000) });
  const schema = `${r.schema}.`;
  t.equal(await holdsNow(schema), undefined);
  for (const table of [...KEYS.map(([b]) => b.table), DeletedEntryLine.table]) {
    const { rows } = await db.pool.query(
      `(SELECT * FROM ${table} WHERE organisation_id = $1 EXCEPT SELECT * FROM ${schema}${table}) UNION ALL (SELECT * FROM ${schema}${table} EXCEPT SELECT * FROM ${table} WHERE organisation_id = $1)`,
      [api.organisationId],
    );
    t.same(rows, [], `${table}: the live rows`);
  }
  await db.pool.query(`DROP SCHEMA ${r.schema} CASCADE`);
});

t.test('the balance tables are read models of SQL only: no GraphQL type, query root or REST collection', async (t) => {
  for (const r of [AccountPeriodBalance, AccountDayBalance, PartyPeriodBalance, DeletedEntryLine]) {
    const type = await api.gql(`{ __type(name: "${r.typeName}") { name } }`);
    t.equal(type.data.__type, null, `${r.typeName}: no GraphQL type`);
  }
  const roots = await api.gql(`{ __schema { queryType { fields { name } } } }`);
  const names: string[] = roots.data.__schema.queryType.fields.map((field: { name: string }) => field.name);
  t.same(names.filter((name) => ['accountPeriodBalances', 'accountDayBalances', 'partyPeriodBalances', 'deletedEntryLines'].includes(name)), [], 'no query root of theirs');
  t.equal((await api.rest('/account_period_balances')).status, 404, 'no REST collection');
  // The lines' hidden columns are not fields either.
  const line = await api.gql(`{ __type(name: "AccountingEntryLine") { fields { name } } }`);
  const fields = line.data.__type.fields.map((field: { name: string }) => field.name);
  t.notOk(['date', 'accountingExerciseId', 'accountingPeriodId', 'entryType', 'recordedAt'].some((name) => fields.includes(name)), 'no hidden line field in the type');
});
