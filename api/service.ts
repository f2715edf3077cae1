/**
 * Assembles the service: database, event store, projections, commands, identity and the HTTP
 * interfaces. The server (api/main.ts), the CLI and the tests all start it the same way.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { AccountingCommands } from '../commands/accounting/handlers.ts';
import { OrganisationLocks } from '../commands/organisation-locks.ts';
import { AggregateStore, SNAPSHOT_LIMITS } from '../commands/aggregate-store.ts';
import { PostgresSnapshotStore } from '../commands/snapshots.ts';
import { PartyCommands } from '../commands/parties/handlers.ts';
import { SettingsCommands } from '../commands/settings/handlers.ts';
import { SubjectKeys } from '../platform/subject-keys.ts';
import type { EventStore } from '../eventstore/port.ts';
import { PostgresEventStore } from '../eventstore/postgres/store.ts';
import { PROJECTIONS } from '../projections/all.ts';
import { ProjectionDaemon } from '../projections/engine/daemon.ts';
import { migrateReadModels } from '../projections/engine/schema.ts';
import { ReadModelUpgrade, refusal } from '../projections/engine/upgrade.ts';
import type { Config } from '../platform/config.ts';
import { openDatabase, type Database } from '../platform/database.ts';
import { Identity } from './auth/identity.ts';
import { authPlugin } from './auth/plugin.ts';
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
  /** Read models of another version being rebuilt in the background (none once swapped in). */
  upgrade: ReadModelUpgrade;
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
  // Read models of another version are left as they are: startService rebuilds them (or refuses), the CLI names them.
  const { outdated } = await migrateReadModels(database.pool, PROJECTIONS);
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
  return { db: database, store, identity, commands, parties, settings, outdated };
}

export async function startService(config: Config, options: { db?: Database; logger?: boolean } = {}): Promise<Service> {
  const { db, store, identity, commands, parties, settings, outdated } = await openCore(config, options.db);
  if (outdated.length > 0 && config.readModelUpgrade === 'refuse') {
    await store.close();
    await commands.locks.close();
    if (!options.db) await db.close();
    throw new Error(refusal(outdated));
  }
  const app = Fastify({ logger: options.logger === false ? false : { level: config.logLevel }, bodyLimit: 1024 * 1024, requestTimeout: 30_000 });
  handleErrors(app);
  const daemon = new ProjectionDaemon(db.pool, store, PROJECTIONS, (msg, extra) => app.log.error(extra, msg));
  // Fan-out has its own daemon and checkpoint: a slow queue never holds the read models back.
  const fanout = new ProjectionDaemon(db.pool, store, [fanoutProjection], (msg, extra) => app.log.error(extra, msg));
  // (Sets the outdated projections aside in the daemon before it starts.)
  const upgrade = new ReadModelUpgrade(db.pool, store, daemon, outdated, (msg, extra) => app.log.warn(extra, msg));
  // Each waits for its catch-up a bounded while only: the service serves (and /health tells) meanwhile.
  await Promise.all([daemon.start(), fanout.start()]);
  upgrade.start();
  const sweeper = setInterval(() => sweepExpired(db.pool, config.eventRetentionDays).catch((e) => app.log.error(e)), 60_000).unref();
  const webhooks = new WebhookDispatcher(db.pool, { ...config.webhooks, allowLoopback: config.webhookAllowLoopback }, (msg, extra) => app.log.warn(extra, msg));
  webhooks.start();
  refuseUnstorableText(app); // (before the plugins: their routes inherit it)
  const graphiql = new GraphiqlPage();
  await app.register(authPlugin, { identity }); // (request.caller for every area; each opts into the hook)
  await app.register(graphqlPlugin, { costBudget: config.costBudget, pool: db.pool, daemon, graphiql, deps: { commands, parties, settings } });
  await app.register(restPlugin, { pool: db.pool });
  await app.register(triggersPlugin, { pool: db.pool, allowLoopback: config.webhookAllowLoopback, store });
  await app.register(eventQueuePlugin, { prefix: EVENT_QUEUE_BASE, pool: db.pool, leaseSeconds: config.eventLeaseSeconds });
  await app.register(oauthPlugin, { pool: db.pool, identity, settings: config.oauth });
  await app.register(metricsPlugin, { pool: db.pool, projections: [...PROJECTIONS, fanoutProjection], daemons: [daemon, fanout], webhooks, access: metricsAccess(config) });
  await app.register(unknownRoutesPlugin);
  app.get('/health', healthRoute(daemon, fanout, upgrade));
  return {
    config, db, store, daemon, fanout, upgrade, commands, parties, settings, identity, graphiql, app,
    webhooks,
    async close() {
      clearInterval(sweeper);
      await webhooks.stop();
      await app.close();
      await upgrade.stop();
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
