/**
 * The composition root without HTTP: database, event store, read-model tables, identity, the queue's
 * tables and the command services, assembled from the module list. The CLI and the benchmarks start here;
 * the server (service/start.ts) adds the daemons and the HTTP interfaces on top.
 */
import { AggregateStore, SNAPSHOT_LIMITS, type CommandContext } from '../commands/aggregate-store.ts';
import type { CommandResult } from '../commands/handler.ts';
import { OrganisationLocks } from '../commands/organisation-locks.ts';
import { CommandServices } from '../commands/services.ts';
import { PostgresSnapshotStore } from '../commands/snapshots.ts';
import type { EventStore } from '../eventstore/port.ts';
import { PostgresEventStore } from '../eventstore/postgres/store.ts';
import { migrateEventQueue } from '../eventqueue/migrate.ts';
import { MUTATIONS, PROJECTIONS } from '../modules/index.ts';
import type { Config } from '../platform/config.ts';
import { openDatabase, type Database } from '../platform/database.ts';
import { SubjectKeys } from '../platform/subject-keys.ts';
import { migrateReadModels } from '../projections/engine/schema.ts';
import { Identity } from '../api/auth/identity.ts';

export { PROJECTIONS };

/** Every area's mutation by name, bound to the services: what the CLI, the demo and the tests call. */
export type Mutate = Readonly<Record<string, (ctx: CommandContext, input: unknown) => Promise<CommandResult>>>;

export function mutationsOf(services: CommandServices): Mutate {
  return Object.fromEntries(MUTATIONS.map((m) => [m.name, (ctx: CommandContext, input: unknown) => m.run(services, ctx, input)]));
}

export type Core = Awaited<ReturnType<typeof openCore>>;

async function openEventStore(config: Config, db: Database): Promise<EventStore> {
  if (config.eventStore === 'kurrentdb') {
    const { KurrentDbEventStore } = await import('../eventstore/kurrentdb/store.ts');
    return KurrentDbEventStore.connect(config.kurrentDbUrl!);
  }
  return PostgresEventStore.open(db.pool, db.url);
}

/** Everything but HTTP: for the CLI, which must not start a second projection daemon needlessly. */
export async function openCore(config: Config, db?: Database) {
  const database = db ?? (await openDatabase(config));
  const store = await openEventStore(config, database);
  // Read models of another version are left as they are: startService rebuilds them (or refuses), the CLI names them.
  const { outdated } = await migrateReadModels(database.pool, PROJECTIONS);
  const identity = new Identity(database.pool);
  await identity.migrate();
  await migrateEventQueue(database.pool);
  // Snapshots of long streams (an exercise's ledger) live in PostgreSQL too, whichever store holds the events.
  const snapshots = await PostgresSnapshotStore.open(database.pool);
  const aggregates = new AggregateStore(store, snapshots, { ...SNAPSHOT_LIMITS, onError: (error, streamId) => process.emitWarning(`snapshot of ${streamId}: ${String(error)}`) });
  // Data subjects' keys (crypto-shredding) live beside the read models, whichever store holds the events.
  const subjectKeys = new SubjectKeys(database.pool);
  await subjectKeys.migrate();
  const commands = new CommandServices(aggregates, new OrganisationLocks(database.url), subjectKeys);
  return { db: database, store, identity, commands, mutate: mutationsOf(commands), outdated };
}

