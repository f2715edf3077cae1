/**
 * A party's subject key is made once per party, also when its creation is decided again: a process whose
 * cached Parties state is stale (another process created a party meanwhile) meets a conflict and decides
 * again; without an idempotency key the party's id is random, and the retry must keep the id, and the key,
 * it drew the first time instead of leaving a key that seals nothing.
 */
import t from 'tap';
import { testCommands } from './helpers/commands.ts';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { PartiesAggregate } from '../commands/parties/aggregates.ts';
import { OrganisationLocks } from '../commands/organisation-locks.ts';
import { PostgresEventStore } from '../eventstore/postgres/store.ts';
import { SubjectKeys } from '../platform/subject-keys.ts';
import { freshDatabase } from './helpers/database.ts';

const db = await freshDatabase(t);
const store = await PostgresEventStore.open(db.pool, db.url);
const locks = new OrganisationLocks(db.url);
t.teardown(() => Promise.all([store.close(), locks.close()]));
await new SubjectKeys(db.pool).migrate();

t.test('a creation decided again after a conflict leaves one subject key per party', async (t) => {
  const first = testCommands(new AggregateStore(store), locks, db.pool);
  const second = testCommands(new AggregateStore(store), locks, db.pool);
  const { id: organisationId } = await first.createOrganisation({}, { name: 'Claves S.L.', country: 'ES' });
  const ctx = { organisationId };
  await first.createCustomer(ctx, { socialName: 'Primera Persona' }); // the first process caches the Parties state
  await second.createCustomer(ctx, { socialName: 'Segunda Persona' }); // ... which this makes stale
  const third = await first.createCustomer(ctx, { socialName: 'Tercera Persona' }); // decided on the cache, then again
  const { rows } = await db.pool.query('SELECT subject_id FROM subject_keys WHERE organisation_id = $1', [organisationId]);
  t.equal(rows.length, 3, 'three parties, three keys');
  t.ok(rows.some((r) => r.subject_id === third.id), "the third party's key is the one it was sealed with");
  const parties = (await first.aggregates.load(PartiesAggregate, organisationId)).state;
  t.equal(parties.parties.size, 3, 'and three parties');
});
