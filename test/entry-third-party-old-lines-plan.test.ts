/**
 * A rebuild resolves old lines (posted before the third party's id was recorded) at a cost proportional to the lines
 * it resolves, not to the tables: every resolution the entries projection sends finds its lines by their primary key
 * and its references by theirs, both built before it runs (a shadow table starts without indexes). The statements are
 * caught as the rebuild sends them and EXPLAINed on the same connection, at that moment of the load.
 */
import t from 'tap';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { LedgerAggregate } from '../commands/accounting/aggregates.ts';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { exerciseForDate } from '../domain/accounting/organisation.ts';
import { PROJECTIONS } from '../projections/accounting/projections.ts';
import { rebuildProjection } from '../projections/engine/rebuild.ts';
import { until } from './helpers/receiver.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { commands, mutate, store, daemon, db } = api.service;
const ctx = { organisationId: api.organisationId };
const date = `${new Date().getUTCFullYear()}-05-05`;
const OLD_ENTRIES = 2000;

const org = await commands.organisation(api.organisationId);
const accounts = new Map([...org.accounts.values()].map((a) => [a.code, a.id]));
const journalTypeId = [...org.journalTypes.values()].find((j) => j.code === 'GEN')!.id;
const customer = await mutate.createCustomer(ctx, { socialName: 'Plan S.L.', code: 'PLAN1' });
const template = await mutate.createAccountingEntryUsingIds({ ...ctx, commandId: randomUUID() }, { date, journalTypeId, accountingEntryLines: [
  { subAccountId: accounts.get('4300000')!, thirdId: customer.id, debitAmount: '12.00' },
  { subAccountId: accounts.get('7000000')!, creditAmount: '12.00' },
] });
await daemon.waitFor(await store.committedHead!());

/** Copies of the template as an older version stored them (no party id or kind), written at once: half name the party by code, half by its id in upper case. */
async function postOldInBulk(count: number): Promise<void> {
  const stream = AggregateStore.streamId(LedgerAggregate.category, exerciseForDate(org, date)!.id);
  const posted = (await store.readStream(stream)).find((e) => e.data.entryId === template.id)!;
  const numbered = (await new AggregateStore(store).load(LedgerAggregate, exerciseForDate(org, date)!.id)).state.entryOrder.length;
  const copies = Array.from({ length: count }, (_, i) => ({
    ...posted.data,
    entryId: randomUUID(),
    number: numbered + i + 1,
    lines: (posted.data.lines as Record<string, unknown>[]).map(({ thirdPartyId: _id, thirdPartyOrigin: _origin, ...line }) => ({
      ...line,
      lineId: randomUUID(),
      ...(line.thirdCode ? { thirdCode: i % 2 === 0 ? customer.code : customer.id.toUpperCase() } : {}),
    })),
  }));
  await db.pool.query(
    `WITH moved AS (UPDATE es_streams SET revision = revision + $2 WHERE stream_id = $1 RETURNING revision)
     INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata)
     SELECT $1, moved.revision - $2 + u.n, gen_random_uuid(), 'AccountingEntryPosted', u.d, $4 FROM moved, unnest($3::json[]) WITH ORDINALITY AS u(d, n)`,
    [stream, count, copies.map((c) => JSON.stringify(c)), JSON.stringify(posted.metadata)],
  );
}

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] };
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
/** How a plan reads `table`: its scan nodes' types, with the index they use. */
const scansOf = (plan: PlanNode, table: string) =>
  nodes(plan).filter((n) => n['Relation Name'] === table && n['Node Type'].endsWith('Scan')).map((n) => `${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : ''}`);

t.test("a rebuild's resolution of old lines reads them by key, and its references by theirs", async (t) => {
  await postOldInBulk(OLD_ENTRIES);
  const linesOfParty = async () => (await db.pool.query(`SELECT count(*)::int AS n FROM accounting_entry_lines WHERE organisation_id = $1 AND third_party_id = $2`, [api.organisationId, customer.id])).rows[0].n;
  // (The daemon takes the copies in several batches: waited for until the last is applied.)
  await until('the old lines projected', async () => (await linesOfParty()) === OLD_ENTRIES + 1, 120_000);

  // A pool of its own whose connections EXPLAIN each resolution where it is sent, in its transaction, as the
  // planner can answer it at all (sequential scans priced out, so a table read through means no key to read by),
  // and note whether the lines table has statistics by then.
  const pool = new pg.Pool({ ...db.pool.options, max: 8 });
  t.teardown(() => pool.end());
  const seen: { lines: string[]; references: string[]; linesAnalysed: boolean }[] = [];
  pool.on('connect', (client) => {
    const send = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>;
    // (Other calls return what the client's own does: a COPY's stream, not a promise.)
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const config = args[0] as { text?: string; values?: unknown[] };
      const match = typeof config === 'object' && config?.text ? /^UPDATE (\S+) l SET third_code[\s\S]*JOIN (\S+) r ON/.exec(config.text) : null;
      return match ? explained(match[1], match[2], config).then(() => send(...args)) : send(...args);
    };
    const explained = async (lines: string, references: string, config: { text?: string; values?: unknown[] }) => {
      await send(`SELECT set_config('enable_seqscan', 'off', true)`);
      const explain = await send({ text: `EXPLAIN (FORMAT JSON) ${config.text}`, values: config.values });
      await send(`SELECT set_config('enable_seqscan', 'on', true)`);
      const stats = await send(`SELECT count(*)::int AS n FROM pg_stats WHERE schemaname = 'public' AND tablename = $1`, [lines]);
      const plan = explain.rows[0]['QUERY PLAN'][0].Plan as PlanNode;
      seen.push({ lines: scansOf(plan, lines), references: scansOf(plan, references), linesAnalysed: stats.rows[0].n > 0 });
    };
  });
  const entries = PROJECTIONS.find((p) => p.name === 'entries')!;
  await rebuildProjection(pool, store, entries, undefined, { batchSize: 40, workers: 2, workerSliceEvents: 16 });

  t.ok(seen.length >= OLD_ENTRIES / 40, `a resolution per batch at least (${seen.length})`);
  const notByKey = seen.filter((s) => s.lines.length === 0 || s.references.length === 0 || s.lines.some((scan) => !scan.endsWith('_pkey')) || s.references.some((scan) => !scan.endsWith('_pkey')));
  t.same(notByKey, [], 'every resolution finds its lines and their references by their primary keys');
  t.equal(seen.filter((s) => !s.linesAnalysed).length, 0, 'the lines table has statistics at every resolution');
  t.equal(await linesOfParty(), OLD_ENTRIES + 1, 'rebuilt, every old line reads its party (by code or by id in any case)');
});
