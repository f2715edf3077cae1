/**
 * The auditor's trail: each organisation's events chained by hash in the append's own transaction. Concurrent
 * appends to two streams of one organisation make a gap-free chain that `ledger verify` recomputes; an amount
 * changed behind the store's back (as superuser, append-only trigger disabled) is named by event id and position;
 * `auditChainHead` equals the head verify prints and shows each caller its own organisation's only; a store from
 * before the chain is linked once by the migration.
 */
import { createHash, randomUUID } from 'node:crypto';
import t from 'tap';
import { formatPosition } from '../eventstore/port.ts';
import { NO_ORGANISATION, chainGenesis, chainStep, checkChain } from '../eventstore/postgres/chain.ts';
import { PostgresEventStore } from '../eventstore/postgres/store.ts';
import { freshDatabase } from './helpers/database.ts';
import { ledgerCli } from './helpers/cli-run.ts';
import { clientOf, ownClient } from './helpers/organisation-client.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, store, db } = api.service as any;
const orgId = api.organisationId;
const year = new Date().getUTCFullYear();
const ctx = { organisationId: orgId };
const HEAD = `{ auditChainHead { position eventId hash eventCount } }`;
const verify = async (organisationId: string) => {
  const r = await ledgerCli(db.url, ['verify', '--org', organisationId, '--json']);
  return { ...r, json: r.code === 0 ? JSON.parse(r.stdout) : undefined };
};
const chainOf = async (organisationId: string) => (await db.pool.query(
  `SELECT c.seq::int, c.event_id FROM es_chain c WHERE c.organisation_id = $1 ORDER BY c.seq`, [organisationId])).rows;
const eventsOf = async (organisationId: string) => (await db.pool.query(
  `SELECT count(*)::int AS n FROM es_events WHERE metadata->>'organisationId' = $1`, [organisationId])).rows[0].n;

t.test('a link is sha256 of the previous hash and the canonical text in UTF-8, as documented', async (t) => {
  const genesis = chainGenesis(orgId);
  t.equal(genesis.toString('hex'), createHash('sha256').update(`chain:${orgId}`).digest('hex'));
  for (const text of ['a\x1fb', 'é'.repeat(40_000)]) {
    t.equal(chainStep(genesis, text).toString('hex'), createHash('sha256').update(Buffer.concat([genesis, Buffer.from(text, 'utf8')])).digest('hex'));
  }
});

t.test('concurrent appends to two streams of one organisation: a gap-free chain that verifies', async (t) => {
  // The Ledger and Parties streams append in parallel, as entries and customers made at once do.
  await Promise.all(Array.from({ length: 12 }, (_, i) => i % 2
    ? mutate.createAccountingEntryUsingCodes(ctx, { date: `${year}-03-0${1 + (i % 9)}`, journalTypeCode: 'GEN', accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: `${100 + i}.00` }, { subAccountCode: '1000000', creditAmount: `${100 + i}.00` }] })
    : mutate.createCustomer(ctx, { socialName: `Cliente ${i}` })));
  const chain = await chainOf(orgId);
  t.same(chain.map((l: { seq: number }) => l.seq), Array.from({ length: chain.length }, (_, i) => i + 1), 'seq 1..n, no gap');
  t.equal(chain.length, await eventsOf(orgId), 'every event of the organisation, once');
  t.equal(new Set(chain.map((l: { event_id: string }) => l.event_id)).size, chain.length);
  const r = await verify(orgId);
  t.equal(r.code, 0, r.stderr);
  t.match(r.json, { organisationId: orgId, verified: true, head: { eventCount: chain.length, eventId: chain.at(-1).event_id } });
  t.match(r.json.head.hash, /^[0-9a-f]{64}$/);
  const gql = await api.gql(HEAD);
  t.same(gql.data?.auditChainHead, r.json.head, 'auditChainHead is the head verify prints');
});

t.test('each caller sees its own organisation\'s head; events of no organisation have their own chain', async (t) => {
  const other = await clientOf(api, 'FR', 'Autre SARL', 'audit@example.fr');
  const mine = (await api.gql(HEAD, {}, ownClient(api).headers)).data.auditChainHead;
  const theirs = (await api.gql(HEAD, {}, other.headers)).data.auditChainHead;
  t.not(theirs.eventId, mine.eventId);
  t.equal(theirs.eventCount, await eventsOf(other.orgId), 'the other organisation\'s own count');
  const { rows: [owner] } = await db.pool.query(`SELECT metadata->>'organisationId' AS o FROM es_events WHERE event_id = $1`, [theirs.eventId]);
  t.equal(owner.o, other.orgId, 'its head is its own event');
  t.equal((await verify(other.orgId)).code, 0);
  await store.append(`Orphan-${randomUUID()}`, [{ id: randomUUID(), type: 'Orphaned', data: { n: 1 }, metadata: { schemaVersion: 1 } }], 'no_stream');
  t.match(await checkChain(store.chain, NO_ORGANISATION), { ok: true, head: { eventCount: 1n } }, 'on the nil-UUID chain');
});

t.test('a store from before the chain is linked once by the migration, in global order', async (t) => {
  const old = await freshDatabase(t);
  const first = await PostgresEventStore.open(old.pool, old.url);
  const other = randomUUID();
  for (const org of [orgId, other, orgId]) await first.append(`Old-${randomUUID()}`, [1, 2].map((n) => ({ id: randomUUID(), type: 'Old', data: { n }, metadata: { schemaVersion: 1, organisationId: org } })), 'no_stream');
  await first.close();
  // As the store was before this version: no chain tables, no trigger.
  await old.pool.query(`DROP TRIGGER es_events_chain ON es_events; DROP TABLE es_chain, es_chain_heads`);
  await old.pool.query(`INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata) VALUES ('Old-x', 0, gen_random_uuid(), 'Old', '{"n":3}', $1::json)`, [JSON.stringify({ schemaVersion: 1, organisationId: orgId })]);
  const reopened = await PostgresEventStore.open(old.pool, old.url);
  t.teardown(() => reopened.close());
  t.match(await checkChain(reopened.chain, orgId), { ok: true, head: { eventCount: 5n } });
  t.match(await checkChain(reopened.chain, other), { ok: true, head: { eventCount: 2n } });
  await reopened.append(`New-${randomUUID()}`, [{ id: randomUUID(), type: 'New', data: {}, metadata: { schemaVersion: 1, organisationId: orgId } }], 'no_stream');
  const again = await PostgresEventStore.open(old.pool, old.url); // (a second start links nothing twice)
  await again.close();
  t.match(await checkChain(reopened.chain, orgId), { ok: true, head: { eventCount: 6n } }, 'appends continue the backfilled chain');
});

t.test('an event stored around the chain (its trigger disabled) is named', async (t) => {
  const org = randomUUID();
  const event = (n: number) => ({ id: randomUUID(), type: 'Stray', data: { n }, metadata: { schemaVersion: 1, organisationId: org } });
  await store.append(`Stray-${org}`, [event(1), event(2)], 'no_stream');
  t.match(await checkChain(store.chain, org), { ok: true, head: { eventCount: 2n } });
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('ALTER TABLE es_events DISABLE TRIGGER es_events_chain');
    const stray = event(3);
    const { rows: [at] } = await client.query(`INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata) VALUES ($1, 2, $2, 'Stray', '{}', $3::json)
      RETURNING transaction_id::text AS commit, global_position::text AS prepare`, [`Stray-${org}`, stray.id, JSON.stringify(stray.metadata)]);
    await client.query('ALTER TABLE es_events ENABLE TRIGGER es_events_chain');
    await client.query('COMMIT');
    t.same(await checkChain(store.chain, org), { ok: false, broken: { eventId: stray.id, position: { commit: BigInt(at.commit), prepare: BigInt(at.prepare) }, reason: 'no link names it (stored around the chain)' } });
  } finally {
    client.release();
  }
});

t.test('a link removed from the chain is named by the next one', async (t) => {
  const org = randomUUID();
  const events = [1, 2, 3].map((n) => ({ id: randomUUID(), type: 'Linked', data: { n }, metadata: { schemaVersion: 1, organisationId: org } }));
  await store.append(`Linked-${org}`, events, 'no_stream');
  await db.pool.query(`DELETE FROM es_chain WHERE organisation_id = $1 AND seq = 2`, [org]);
  t.match(await checkChain(store.chain, org), { ok: false, broken: { eventId: events[2].id, seq: 3n, reason: 'link 2 is missing' } });
});

t.test('an amount changed behind the store\'s back: verify names that event by id and position', async (t) => {
  const posted = await mutate.createAccountingEntryUsingCodes(ctx, { date: `${year}-05-05`, journalTypeCode: 'GEN', accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '4321.09' }, { subAccountCode: '1000000', creditAmount: '4321.09' }] });
  await mutate.createCustomer(ctx, { socialName: 'Después' }); // (a later link, untouched)
  const { rows: [target] } = await db.pool.query(
    `SELECT e.event_id, e.transaction_id::text AS commit, e.global_position::text AS prepare, c.seq::text AS seq FROM es_events e JOIN es_chain c USING (event_id)
     WHERE e.metadata->>'organisationId' = $1 AND e.data::text LIKE '%4321.09%'`, [orgId]);
  t.ok(target, 'the posting event');
  t.equal(formatPosition(posted.position), `${target.commit}/${target.prepare}`);
  await db.pool.query(`ALTER TABLE es_events DISABLE TRIGGER es_events_append_only`);
  await db.pool.query(`UPDATE es_events SET data = replace(data::text, '4321.09', '4321.90')::json WHERE event_id = $1`, [target.event_id]);
  await db.pool.query(`ALTER TABLE es_events ENABLE TRIGGER es_events_append_only`);
  const r = await verify(orgId);
  t.equal(r.code, 1, 'exit 1');
  t.equal(r.stdout, '');
  t.equal(r.stderr.trim(), `chain broken at event ${target.event_id} (position ${target.commit}/${target.prepare}, seq ${target.seq}): its content does not match its hash`);
});
