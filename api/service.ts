/**
 * Assembles the service: database, event store, projections, commands, identity and the HTTP
 * interfaces. The server (api/main.ts), the CLI and the tests all start it the same way.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { AccountingCommands } from '../commands/accounting.ts';
import { OrganisationLocks } from '../commands/organisation-locks.ts';
import { AggregateStore, SNAPSHOT_LIMITS } from '../commands/aggregate-store.ts';
import { PostgresSnapshotStore } from '../commands/snapshots.ts';
import { PartyCommands } from '../commands/parties.ts';
import { SettingsCommands } from '../commands/settings.ts';
import { SubjectKeys } from '../platform/subject-keys.ts';
import type { EventStore } from '../eventstore/port.ts';
import { PostgresEventStore } from '../eventstore/postgres/store.ts';
import { PROJECTIONS } from '../projections/all.ts';
import { ProjectionDaemon } from '../projections/daemon.ts';
import { migrateReadModels } from '../projections/schema.ts';
import type { Config } from '../platform/config.ts';
import { openDatabase, type Database } from '../platform/database.ts';
import { Identity } from './auth/identity.ts';
import { GraphiqlPage } from './graphql/graphiql.ts';
import { graphqlPlugin } from './graphql/plugin.ts';
import { oauthPlugin } from './oauth/plugin.ts';
import { restPlugin } from './rest/plugin.ts';
import { triggersPlugin } from './rest/triggers.ts';
import { EVENT_QUEUE_BASE, eventQueuePlugin } from './eventqueue/plugin.ts';
import { unknownRoutesPlugin } from './rest/not-found.ts';
import { fanoutProjection } from '../eventqueue/fanout.ts';
import { migrateEventQueue } from '../eventqueue/migrate.ts';
import { sweepExpired } from '../eventqueue/queue.ts';
import { WebhookDispatcher } from '../eventqueue/webhooks/dispatcher.ts';
import { metricsPlugin } from './metrics.ts';
import { metricsAccess } from './metrics-access.ts';
import { healthRoute } from './health.ts';
import { refuseUnstorableText } from './text-guard.ts';
import { handleErrors } from './error-handler.ts';

export { PROJECTIONS };

export interface Service {
  config: Config;
  fanout: ProjectionDaemon;
  webhooks: WebhookDispatcher;
  db: Database;
  store: EventStore;
  daemon: ProjectionDaemon;
  commands: AccountingCommands;
  parties: PartyCommands;
  settings: SettingsCommands;
  identity: Identity;
  graphiql: GraphiqlPage;
  app: FastifyInstance;
  close(): Promise<void>;
}

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
  await migrateReadModels(database.pool, PROJECTIONS);
  const identity = new Identity(database.pool);
  await identity.migrate();
  await migrateEventQueue(database.pool);
  // Snapshots of long streams (an exercise's ledger) live in PostgreSQL too, whichever store holds the events.
  const snapshots = await PostgresSnapshotStore.open(database.pool);
  const aggregates = new AggregateStore(store, snapshots, { ...SNAPSHOT_LIMITS, onError: (error, streamId) => process.emitWarning(`snapshot of ${streamId}: ${String(error)}`) });
  const commands = new AccountingCommands(aggregates, new OrganisationLocks(database.url));
  // Data subjects' keys (crypto-shredding) live beside the read models, whichever store holds the events.
  const subjectKeys = new SubjectKeys(database.pool);
  await subjectKeys.migrate();
  const parties = new PartyCommands(commands, subjectKeys);
  const settings = new SettingsCommands(commands);
  return { db: database, store, identity, commands, parties, settings };
}

export async function startService(config: Config, options: { db?: Database; logger?: boolean } = {}): Promise<Service> {
  const { db, store, identity, commands, parties, settings } = await openCore(config, options.db);
  const app = Fastify({ logger: options.logger === false ? false : { level: config.logLevel }, bodyLimit: 1024 * 1024, requestTimeout: 30_000 });
  handleErrors(app);
  const daemon = new ProjectionDaemon(db.pool, store, PROJECTIONS, (msg, extra) => app.log.error(extra, msg));
  // Fan-out has its own daemon and checkpoint: a slow queue never holds the read models back.
  const fanout = new ProjectionDaemon(db.pool, store, [fanoutProjection], (msg, extra) => app.log.error(extra, msg));
  // Each waits for its catch-up a bounded while only: the service serves (and /health tells) meanwhile.
  await Promise.all([daemon.start(), fanout.start()]);
  const sweeper = setInterval(() => sweepExpired(db.pool, config.eventRetentionDays).catch((e) => app.log.error(e)), 60_000).unref();
  const webhooks = new WebhookDispatcher(db.pool, { ...config.webhooks, allowLoopback: config.webhookAllowLoopback }, (msg, extra) => app.log.warn(extra, msg));
  webhooks.start();
  const exerciseIdOfEntry = async (organisationId: string, entryId: string) => {
    const { rows } = await db.pool.query(`SELECT accounting_exercise_id FROM accounting_entries WHERE id = $1 AND organisation_id = $2`, [entryId, organisationId]);
    return rows[0]?.accounting_exercise_id as string | undefined;
  };
  refuseUnstorableText(app); // (before the plugins: their routes inherit it)
  const graphiql = new GraphiqlPage();
  await app.register(graphqlPlugin, { costBudget: config.costBudget, pool: db.pool, identity, daemon, graphiql, deps: { commands, parties, settings, exerciseIdOfEntry } });
  await app.register(restPlugin, { pool: db.pool, identity });
  await app.register(triggersPlugin, { pool: db.pool, identity, allowLoopback: config.webhookAllowLoopback, store });
  await app.register(eventQueuePlugin, { prefix: EVENT_QUEUE_BASE, pool: db.pool, identity, leaseSeconds: config.eventLeaseSeconds });
  await app.register(oauthPlugin, { pool: db.pool, identity, settings: config.oauth });
  await app.register(metricsPlugin, { pool: db.pool, projections: [...PROJECTIONS, fanoutProjection], webhooks, access: metricsAccess(config) });
  await app.register(unknownRoutesPlugin);
  app.get('/health', healthRoute(daemon, fanout));
  return {
    config, db, store, daemon, fanout, commands, parties, settings, identity, graphiql, app,
    webhooks,
    async close() {
      clearInterval(sweeper);
      await webhooks.stop();
      await app.close();
      await fanout.stop();
      await daemon.stop();
      await commands.aggregates.snapshotLongTails(); // long tails this process appended, for the next cold start
      await commands.aggregates.snapshotsSaved(); // a long load's snapshot, if one is being written
      await store.close();
      await commands.locks.close();
      if (!options.db) await db.close();
    },
  };
}
