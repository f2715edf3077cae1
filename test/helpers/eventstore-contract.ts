/**
 * The event store contract: one suite, run against every adapter (PostgreSQL always, KurrentDB when
 * KURRENTDB_URL is set). `open` gives a store over an empty event space.
 */
import { randomUUID } from 'node:crypto';
import type { Test } from 'tap';
import {
  START,
  WrongExpectedRevision,
  comparePositions,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from '../../eventstore/port.ts';

type T = Test;

export function event(type = 'Thing', data: Record<string, unknown> = {}): NewEvent {
  return { id: randomUUID(), type, data, metadata: { schemaVersion: 1, organisationId: 'org-1', correlationId: 'c1' } };
}

const CONFLICT = { code: 'WRONG_EXPECTED_REVISION' };
const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

export function eventStoreContract(t: T, open: () => Promise<EventStore>): void {
  t.test('optimistic concurrency on every expected state', async (t) => {
    const store = await open();
    const s = unique('Account');
    const first = await store.append(s, [event(), event()], 'no_stream');
    t.equal(first.nextExpectedRevision, 1n);
    await t.rejects(store.append(s, [event()], 'no_stream'), CONFLICT, 'no_stream on an existing stream');
    await t.rejects(store.append(s, [event()], 0n), CONFLICT, 'stale exact revision');
    t.equal((await store.append(s, [event()], 1n)).nextExpectedRevision, 2n, 'exact revision');
    t.equal((await store.append(s, [event()], 'stream_exists')).nextExpectedRevision, 3n);
    t.equal((await store.append(s, [event()], 'any')).nextExpectedRevision, 4n);
    await t.rejects(store.append(unique('Account'), [event()], 'stream_exists'), CONFLICT);
    await t.rejects(store.append(unique('Account'), [event()], 3n), CONFLICT);
    const error = await store.append(s, [event()], 2n).catch((e) => e);
    t.equal(error.actual, 4n, 'the conflict reports the actual revision');
    const read = await store.readStream(s);
    t.same(read.map((e) => e.revision), [0n, 1n, 2n, 3n, 4n]);
  });

  t.test('an event holding what jsonb and text refuse (a lone surrogate, NUL) is refused, in data or metadata; a pair is text', async (t) => {
    const store = await open();
    for (const [name, bad] of [['lone high surrogate', 'evil \ud800'], ['lone low surrogate', '\udc00x'], ['NUL', 'a\u0000b']]) {
      const s = unique('Poison');
      await t.rejects(store.append(s, [event('Named', { name: bad })], 'no_stream'), /cannot store/, `${name} in data`);
      await t.rejects(store.append(s, [{ ...event('Named'), metadata: { schemaVersion: 1, note: bad } }], 'no_stream'), /cannot store/, `${name} in metadata`);
      await t.rejects(store.append(s, [event('Named'), event('Named', { nested: [{ name: bad }] })], 'no_stream'), /cannot store/, `${name} in the second event, nested`);
      t.same(await store.readStream(s), [], `${name}: nothing appended`);
    }
    const s = unique('Poison');
    await store.append(s, [event('Named', { name: 'Caja \ud83d\udcb0', typed: 'C:\\ud800 and \\u0000 typed out' })], 'no_stream');
    const [read] = await store.readStream(s);
    t.equal(read.data.name, 'Caja \ud83d\udcb0', 'a surrogate pair (an emoji) is kept');
    t.equal(read.data.typed, 'C:\\ud800 and \\u0000 typed out', 'a backslash-u typed out is just text');
  });

  t.test('the check costs a pass over the event: a long run of backslashes next to an escape is not rescanned', async (t) => {
    const store = await open();
    const run = '\\'.repeat(100_000);
    const started = performance.now();
    await store.append(unique('Long'), [event('Named', { name: `${run}u0000 \u0001` })], 'no_stream');
    await t.rejects(store.append(unique('Long'), [event('Named', { name: `${run}\u0000` })], 'no_stream'), /cannot store/, 'a NUL after an even run is still found');
    const took = performance.now() - started;
    t.ok(took < 3_000, `two appends of 200,000 backslashes took ${Math.round(took)} ms (a lookbehind regex: tens of seconds)`);
  });

  t.test('events keep id, type, data and metadata', async (t) => {
    const store = await open();
    const s = unique('Entry');
    const e = event('EntryPosted', { amount: '10.05', lines: [{ debit: '10.05' }] });
    await store.append(s, [e], 'no_stream');
    const [read] = await store.readStream(s);
    t.equal(read.id, e.id);
    t.equal(read.type, 'EntryPosted');
    t.same(read.data, e.data);
    t.same(read.metadata, e.metadata);
    t.equal(read.streamId, s);
    t.ok(read.recordedAt instanceof Date);
  });

  t.test('appending the same event ids again is idempotent', async (t) => {
    const store = await open();
    const s = unique('Entry');
    const batch = [event(), event()];
    const first = await store.append(s, batch, 'no_stream');
    const again = await store.append(s, batch, 'no_stream');
    t.equal(again.nextExpectedRevision, first.nextExpectedRevision);
    t.equal(comparePositions(again.position, first.position), 0);
    t.equal((await store.readStream(s)).length, 2, 'no duplicate rows');
  });

  t.test('concurrent writers to one stream: exactly one wins each revision', async (t) => {
    const store = await open();
    const s = unique('Exercise');
    await store.append(s, [event()], 'no_stream');
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => store.append(s, [event()], 0n)));
    t.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    t.ok(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof WrongExpectedRevision));
  });

  t.test('a live subscriber under 32 concurrent writers sees every event once, in order', async (t) => {
    const store = await open();
    const category = `Load${randomUUID().slice(0, 6)}`;
    const seen: RecordedEvent[] = [];
    const sub = store.subscribeToAll({ from: START, filter: { categories: [category] }, batchSize: 97 }, async (batch) => {
      seen.push(...batch);
    });
    const writers = 32;
    const perWriter = 40;
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        const s = `${category}-${w}`;
        for (let i = 0; i < perWriter; i++) {
          await store.append(s, [event('Tick', { w, i }), event('Tock', { w, i })], i === 0 ? 'no_stream' : BigInt(i * 2 - 1));
        }
      }),
    );
    const expected = writers * perWriter * 2;
    for (let waited = 0; seen.length < expected && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    await sub.stop();
    t.equal(seen.length, expected, 'no event skipped, none twice');
    t.equal(new Set(seen.map((e) => e.id)).size, expected);
    t.ok(seen.every((e, i) => i === 0 || comparePositions(seen[i - 1].position, e.position) < 0), 'strictly increasing positions');
    // per stream, revisions arrive in order
    const lastRevision = new Map<string, bigint>();
    let ordered = true;
    for (const e of seen) {
      const prev = lastRevision.get(e.streamId) ?? -1n;
      if (e.revision !== prev + 1n) ordered = false;
      lastRevision.set(e.streamId, e.revision);
    }
    t.ok(ordered, 'each stream in revision order');
    // a cold reader from START sees the same order
    const cold: RecordedEvent[] = [];
    let from = START;
    for (;;) {
      const page = await store.readAll(from, { maxCount: 500, filter: { categories: [category] } });
      if (page.length === 0) break;
      cold.push(...page);
      from = page[page.length - 1].position;
    }
    t.same(cold.map((e) => e.id), seen.map((e) => e.id), 'readAll agrees with the subscription');
  });

  t.test('catch-up then live, with type filter', async (t) => {
    const store = await open();
    const category = `Live${randomUUID().slice(0, 6)}`;
    for (let i = 0; i < 30; i++) await store.append(`${category}-${i}`, [event('Wanted', { i }), event('Other')], 'any');
    const got: number[] = [];
    const sub = store.subscribeToAll({ from: START, filter: { eventTypes: ['Wanted'], categories: [category] }, batchSize: 7 }, async (batch) => {
      for (const e of batch) got.push(e.data.i as number);
    });
    await sub.caughtUp;
    t.equal(got.length, 30, 'caught up with history');
    for (let i = 30; i < 40; i++) await store.append(`${category}-${i}`, [event('Wanted', { i }), event('Other')], 'any');
    for (let waited = 0; got.length < 40 && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    await sub.stop();
    t.same(got, Array.from({ length: 40 }, (_, i) => i), 'live events follow, filtered, in order');
  });

  t.test('a failing handler ends the subscription with its error', async (t) => {
    const store = await open();
    const s = unique('Boom');
    await store.append(s, [event()], 'no_stream');
    const sub = store.subscribeToAll({ from: START, filter: { categories: ['Boom'] } }, async () => {
      throw new Error('projection bug');
    });
    await t.rejects(sub.done, /projection bug/);
  });
}
