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
import { NO_ORGANISATION, chainGenesis, checkChain } from '../eventstore/postgres/chain.ts';
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

t.test('a link is sha256 of the previous hash and the canonical text in UTF-8, global position first, as documented', async (t) => {
  const org = randomUUID();
  const events = ['a', 'é'.repeat(4_000)].map((text) => ({ id: randomUUID(), type: 'Documented', data: { text }, metadata: { schemaVersion: 1, organisationId: org } }));
  await store.append(`Documented-${org}`, events, 'no_stream');
  const { rows } = await db.pool.query(`SELECT c.hash, e.transaction_id::text AS commit, e.global_position::text AS prepare, e.stream_id, e.stream_revision::text AS revision,
      e.event_id::text, e.event_type, e.data::text AS data, e.metadata::text AS metadata, (extract(epoch FROM e.recorded_at) * 1000000)::bigint::text AS micros
    FROM es_chain c JOIN es_events e USING (transaction_id, global_position) WHERE c.organisation_id = $1 ORDER BY c.seq`, [org]);
  let previous = chainGenesis(org);
  t.equal(previous.toString('hex'), createHash('sha256').update(`chain:${org}`).digest('hex'));
  for (const r of rows) {
    const text = [r.commit, r.prepare, r.stream_id, r.revision, r.event_id, r.event_type, r.data, r.metadata, r.micros].join('\x1f');
    previous = createHash('sha256').update(Buffer.concat([previous, Buffer.from(text, 'utf8')])).digest();
    t.same(r.hash, previous);
  }
  t.equal(rows.length, 2);
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

/** `organisation`'s chain of `n` events, appended by the store. */
const chained = async (n: number, organisation = randomUUID()) => {
  const events = Array.from({ length: n }, (_, i) => ({ id: randomUUID(), type: 'Linked', data: { n: i }, metadata: { schemaVersion: 1, organisationId: organisation } }));
  await store.append(`Linked-${randomUUID()}`, events, 'no_stream');
  return { org: organisation, events };
};
const asSuperuser = async (sql: string, values: unknown[] = []) => {
  await db.pool.query(`ALTER TABLE es_events DISABLE TRIGGER es_events_append_only`);
  try {
    return await db.pool.query(sql, values);
  } finally {
    await db.pool.query(`ALTER TABLE es_events ENABLE TRIGGER es_events_append_only`);
  }
};

t.test('appends racing the check: the chain up to the head read first verifies', async (t) => {
  const { org } = await chained(3);
  // Each range checked lets another append of the organisation commit (its links past the head read first).
  const racing = { ...store.chain, async check(...args: Parameters<typeof store.chain.check>) {
    const answer = await store.chain.check(...args);
    await chained(2, org);
    return answer;
  }, async link(...args: Parameters<typeof store.chain.link>) {
    await chained(1, org);
    return store.chain.link(...args);
  } };
  t.match(await checkChain(racing, org), { ok: true, head: { eventCount: 3n } });
  t.match(await checkChain(store.chain, org), { ok: true, head: { eventCount: 6n } }, 'and the links appended meanwhile verify after');
});

t.test('an event of another organisation named by a link: the event outside its own chain and the link are named', async (t) => {
  const a = await chained(2);
  const b = await chained(2);
  // A's first event is stored around the chain, then B's chain takes it: its link 2 names A's event.
  const stray = { id: randomUUID(), type: 'Linked', data: { n: 9 }, metadata: { schemaVersion: 1, organisationId: a.org } };
  const client = await db.pool.connect();
  let at: { commit: string; prepare: string };
  try {
    await client.query('BEGIN');
    await client.query('ALTER TABLE es_events DISABLE TRIGGER es_events_chain');
    ({ rows: [at] } = await client.query(`INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata) VALUES ($1, 0, $2, 'Linked', '{"n":9}', $3::json)
      RETURNING transaction_id::text AS commit, global_position::text AS prepare`, [`Stray-${randomUUID()}`, stray.id, JSON.stringify(stray.metadata)]));
    await client.query('ALTER TABLE es_events ENABLE TRIGGER es_events_chain');
    await client.query(`UPDATE es_chain SET event_id = $2, transaction_id = $3::text::xid8, global_position = $4 WHERE organisation_id = $1 AND seq = 2`, [b.org, stray.id, at.commit, at.prepare]);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  const position = { commit: BigInt(at!.commit), prepare: BigInt(at!.prepare) };
  t.same(await checkChain(store.chain, a.org), { ok: false, broken: { eventId: stray.id, position, reason: 'no link names it (stored around the chain)' } });
  t.same(await checkChain(store.chain, b.org), { ok: false, broken: { eventId: stray.id, position, seq: 2n, reason: 'its event belongs to another organisation' } });
});

t.test('an event moved in global order (its transaction id changed in es_events and es_chain) breaks its link', async (t) => {
  const { org, events } = await chained(2);
  const { rows: [moved] } = await db.pool.query(`SELECT transaction_id::text AS commit, global_position::text AS prepare FROM es_events WHERE event_id = $1`, [events[1].id]);
  const earlier = (BigInt(moved.commit) - 1n).toString();
  await asSuperuser(`UPDATE es_events SET transaction_id = $2::text::xid8 WHERE event_id = $1`, [events[1].id, earlier]);
  await db.pool.query(`UPDATE es_chain SET transaction_id = $2::text::xid8 WHERE event_id = $1`, [events[1].id, earlier]);
  t.same(await checkChain(store.chain, org), { ok: false, broken: { eventId: events[1].id, position: { commit: BigInt(earlier), prepare: BigInt(moved.prepare) }, seq: 2n, reason: 'its content does not match its hash' } });
});

t.test('a deleted event: its own link is named, its event missing', async (t) => {
  const { org, events } = await chained(3);
  const { rows: [gone] } = await asSuperuser(`DELETE FROM es_events WHERE event_id = $1 RETURNING transaction_id::text AS commit, global_position::text AS prepare`, [events[1].id]);
  t.same(await checkChain(store.chain, org), { ok: false, broken: { eventId: events[1].id, position: { commit: BigInt(gone.commit), prepare: BigInt(gone.prepare) }, seq: 2n, reason: 'its event is missing' } });
});

t.test('a break in a later range than the first is found, and the lowest break of all is named', async (t) => {
  const { org, events } = await chained(5);
  const changed = (i: number) => asSuperuser(`UPDATE es_events SET data = '{"n":-1}' WHERE event_id = $1`, [events[i].id]);
  await changed(4);
  // Ranges of 2 links: 1-2, 3-4 and 5 checked, the break in the last one.
  const small = { ...store.chain, check: (o: string, from: bigint, to: bigint) => Promise.all(
    Array.from({ length: Number(to - from) + 1 }, (_, i) => store.chain.check(o, from + BigInt(i), from + BigInt(i)))).then((all: any[]) => all.find(Boolean)) };
  t.match(await checkChain(small, org), { ok: false, broken: { eventId: events[4].id, seq: 5n } });
  await changed(1);
  t.match(await checkChain(small, org), { ok: false, broken: { eventId: events[1].id, seq: 2n } });
  t.match(await checkChain(store.chain, org), { ok: false, broken: { eventId: events[1].id, seq: 2n } });
});

t.test('ledger verify --expect SEQ:HASH: a noted link must keep its hash', async (t) => {
  const { org } = await chained(3);
  const noted = (await verify(org)).json.head;
  await chained(2, org);
  const ok = await ledgerCli(db.url, ['verify', '--org', org, '--expect', `${noted.eventCount}:${noted.hash}`, '--expect', `1:${(await store.chain.link(org, 1n)).hash}`]);
  t.equal(ok.code, 0, ok.stderr);
  t.match(ok.stdout, /2 expected link\(s\) match/);
  const wrong = await ledgerCli(db.url, ['verify', '--org', org, '--expect', `3:${'0'.repeat(64)}`]);
  t.equal(wrong.code, 1);
  t.match(wrong.stderr, /seq 3\): its hash is [0-9a-f]{64}, not the 0{64} expected/);
  const beyond = await ledgerCli(db.url, ['verify', '--org', org, '--expect', `9:${noted.hash}`]);
  t.equal(beyond.code, 1);
  t.match(beyond.stderr, /seq 9\): expected link 9, the chain has 5 links/);
  const malformed = await ledgerCli(db.url, ['verify', '--org', org, '--expect', 'head']);
  t.equal(malformed.code, 2);
  t.match(malformed.stderr, /--expect takes SEQ:HASH/);
});

t.test('links without heads: the store refuses to start rather than relink', async (t) => {
  const old = await freshDatabase(t);
  const first = await PostgresEventStore.open(old.pool, old.url);
  await first.append(`Old-${randomUUID()}`, [{ id: randomUUID(), type: 'Old', data: {}, metadata: { schemaVersion: 1, organisationId: orgId } }], 'no_stream');
  await first.close();
  await old.pool.query(`DELETE FROM es_chain_heads`);
  await t.rejects(PostgresEventStore.open(old.pool, old.url), /es_chain has links but es_chain_heads is empty/);
  t.equal((await old.pool.query(`SELECT count(*)::int AS n FROM es_chain_heads`)).rows[0].n, 0, 'nothing relinked');
});

t.test('auditChainHead(seq): the caller\'s link at that seq, what --expect checks', async (t) => {
  const head = (await api.gql(HEAD)).data.auditChainHead;
  const AT = `query ($seq: Int) { auditChainHead(seq: $seq) { position eventId hash eventCount } }`;
  const second = (await api.gql(AT, { seq: 2 })).data.auditChainHead;
  const link = await store.chain.link(orgId, 2n);
  t.same(second, { position: formatPosition(link.position), eventId: link.eventId, hash: link.hash, eventCount: 2 });
  t.same((await api.gql(AT, { seq: head.eventCount })).data.auditChainHead, head, 'the head\'s seq: the head');
  t.equal((await api.gql(AT, { seq: head.eventCount + 1000 })).data.auditChainHead, null, 'past the head: null');
  const wrong = await api.gql(AT, { seq: 0 });
  t.equal(wrong.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
});

t.test('auditChainHead reads the service\'s own store: one that keeps no chain answers NOT_SUPPORTED', async (t) => {
  const chain = Object.getOwnPropertyDescriptor(store, 'chain')!;
  Object.defineProperty(store, 'chain', { value: undefined, configurable: true });
  try {
    const r = await api.gql(HEAD);
    t.equal(r.errors?.[0]?.extensions?.code, 'NOT_SUPPORTED');
    t.equal(r.data?.auditChainHead ?? null, null);
  } finally {
    Object.defineProperty(store, 'chain', chain);
  }
  t.ok((await api.gql(HEAD)).data.auditChainHead.hash);
});
