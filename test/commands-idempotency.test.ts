/**
 * A command retried with the same command id returns what the first attempt recorded and appends
 * nothing, also on a store without a lookup by event id (KurrentDB's case, played here by the
 * PostgreSQL store with that lookup hidden), on a long stream, from a process that never saw the stream.
 */
import t from 'tap';
import { AggregateStore, type Aggregate } from '../commands/aggregate-store.ts';
import { PostgresEventStore } from '../eventstore/postgres/store.ts';
import type { EventStore } from '../eventstore/port.ts';
import { Errors } from '../domain/errors.ts';
import { freshDatabase } from './helpers/database.ts';

const db = await freshDatabase(t);
const store = await PostgresEventStore.open(db.pool, db.url);
t.teardown(() => store.close());

type Ticked = { type: 'Ticked'; data: { n: number } };
const Counter: Aggregate<{ ticks: number }, Ticked> = { category: 'Counter', initialState: () => ({ ticks: 0 }), evolve: (s, e) => ({ ticks: s.ticks + e.data.n }) };
const withoutLookup: EventStore = Object.create(store, { findEvent: { value: undefined } });
const ctx = (commandId: string) => ({ organisationId: '8f80a4ea-4f7e-457e-948c-a16dbccb82bf', commandId });
const tick = (aggregates: AggregateStore, commandId: string) => aggregates.execute(Counter, 'c1', ctx(commandId), (s): Ticked[] => [{ type: 'Ticked', data: { n: s.ticks + 1 } }]);

t.test('a retry on a long stream is answered from the first attempt', async (t) => {
  const streamId = AggregateStore.streamId(Counter.category, 'c1');
  let revision: bigint | 'no_stream' = 'no_stream';
  for (let i = 0; i < 7; i++) {
    const events = Array.from({ length: 1000 }, () => ({ id: crypto.randomUUID(), type: 'Ticked', data: { n: 0 }, metadata: { organisationId: ctx('').organisationId, schemaVersion: 1 } }));
    revision = (await store.append(streamId, events, revision)).nextExpectedRevision;
  }
  for (const [name, events] of [['with a lookup by id', store], ['without one', withoutLookup]] as const) {
    const commandId = crypto.randomUUID();
    const first = await tick(new AggregateStore(events), commandId);
    const retried = await tick(new AggregateStore(events), commandId); // a cold process
    t.same(retried.events, first.events, `${name}: the retry returns the first attempt's events`);
    t.same(retried.position, first.position, `${name}: and its position`);
  }
  t.equal((await store.readWholeStream(streamId)).length, 7000 + 2, 'one event per command, none for the retries');
});

t.test('a command id sent with another request is refused, in its own stream or another', async (t) => {
  const keyed = (commandId: string, requestFingerprint: string) => ({ ...ctx(commandId), requestFingerprint });
  const tickIn = (aggregates: AggregateStore, counter: string, context: ReturnType<typeof keyed>) =>
    aggregates.execute(Counter, counter, context, (s): Ticked[] => [{ type: 'Ticked', data: { n: s.ticks + 1 } }]);
  for (const [name, events] of [['with a lookup by id', store], ['without one', withoutLookup]] as const) {
    const commandId = crypto.randomUUID();
    const first = await tickIn(new AggregateStore(events), 'c2', keyed(commandId, 'request-a'));
    const same = await tickIn(new AggregateStore(events), 'c2', keyed(commandId, 'request-a'));
    t.same(same, first, `${name}: the same request gets the first outcome`);
    await t.rejects(tickIn(new AggregateStore(events), 'c2', keyed(commandId, 'request-b')), { code: Errors.idempotencyKeyReused }, `${name}: another request is refused`);
  }
  const commandId = crypto.randomUUID();
  await tickIn(new AggregateStore(store), 'c3', keyed(commandId, 'request-a'));
  await t.rejects(tickIn(new AggregateStore(store), 'c4', keyed(commandId, 'request-b')), { code: Errors.idempotencyKeyReused }, 'in another stream too');
  t.equal((await store.readWholeStream(AggregateStore.streamId(Counter.category, 'c4'))).length, 0, 'which is left untouched');
});
