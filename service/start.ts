/**
 * The composition root of the server: the core (service/core.ts), the projection daemons, the fan-out and
 * webhook dispatcher, and the HTTP interfaces. The server (api/main.ts), the benchmarks and the tests start it.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { CommandServices } from '../commands/services.ts';
import type { EventStore } from '../eventstore/port.ts';
import { ProjectionDaemon } from '../projections/engine/daemon.ts';
import { ReadModelUpgrade, refusal } from '../projections/engine/upgrade.ts';
import type { Config } from '../platform/config.ts';
import type { Database } from '../platform/database.ts';
import type { Identity } from '../api/auth/identity.ts';
import { openCore, PROJECTIONS, type Mutate } from './core.ts';
import { startChartUpgrade, type ChartUpgradeRun } from './chart-upgrade.ts';
import { authPlugin } from '../api/auth/plugin.ts';
import { GraphiqlPage } from '../api/graphql/graphiql.ts';
import { graphqlPlugin } from '../api/graphql/plugin.ts';
import { oauthPlugin } from '../api/oauth/plugin.ts';
import { restPlugin } from '../api/rest/plugin.ts';
import { triggersPlugin } from '../api/rest/triggers.ts';
import { EVENT_QUEUE_BASE, eventQueuePlugin } from '../api/eventqueue/plugin.ts';
import { unknownRoutesPlugin } from '../api/rest/not-found.ts';
import { fanoutProjection } from '../eventqueue/fanout.ts';
import { sweepExpired } from '../eventqueue/queue.ts';
import { WebhookDispatcher } from '../eventqueue/webhooks/dispatcher.ts';
import { metricsPlugin } from '../api/metrics.ts';
import { metricsAccess } from '../api/metrics-access.ts';
import { HEALTH_ROUTE, healthRoute } from '../api/health.ts';
import { registerOpenApi, serveOpenApi } from '../api/openapi.ts';
import { refuseUnstorableText } from '../api/text-guard.ts';
import { handleErrors } from '../api/error-handler.ts';

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
  /** Existing organisations receiving the master chart's accounts they lack (in the background). */
  chartUpgrade: ChartUpgradeRun;
  commands: CommandServices;
  /** Every area's mutation by name (what GraphQL runs, without its access checks). */
  mutate: Mutate;
  identity: Identity;
  graphiql: GraphiqlPage;
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function startService(config: Config, options: { db?: Database; logger?: boolean } = {}): Promise<Service> {
  const { db, store, identity, commands, mutate, outdated } = await openCore(config, options.db);
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
  // From the write side only (Organisation streams): it needs no read model caught up.
  const chartUpgrade = startChartUpgrade(commands, store, app.log);
  const sweeper = setInterval(() => sweepExpired(db.pool, config.eventRetentionDays).catch((e) => app.log.error(e)), 60_000).unref();
  const webhooks = new WebhookDispatcher(db.pool, { ...config.webhooks, allowLoopback: config.webhookAllowLoopback }, (msg, extra) => app.log.warn(extra, msg));
  webhooks.start();
  refuseUnstorableText(app); // (before the plugins: their routes inherit it)
  await registerOpenApi(app); // (before the routes: it collects their schemas as they are added)
  const graphiql = new GraphiqlPage();
  await app.register(authPlugin, { identity }); // (request.caller for every area; each opts into the hook)
  await app.register(graphqlPlugin, { costBudget: config.costBudget, pool: db.pool, daemon, graphiql, services: commands });
  await app.register(restPlugin, { pool: db.pool });
  await app.register(triggersPlugin, { pool: db.pool, allowLoopback: config.webhookAllowLoopback, store });
  await app.register(eventQueuePlugin, { prefix: EVENT_QUEUE_BASE, pool: db.pool, leaseSeconds: config.eventLeaseSeconds });
  await app.register(oauthPlugin, { pool: db.pool, identity, settings: config.oauth });
  await app.register(metricsPlugin, { pool: db.pool, projections: [...PROJECTIONS, fanoutProjection], daemons: [daemon, fanout], webhooks, access: metricsAccess(config) });
  await app.register(unknownRoutesPlugin);
  app.get('/health', HEALTH_ROUTE, healthRoute(daemon, fanout, upgrade));
  serveOpenApi(app);
  return {
    config, db, store, daemon, fanout, upgrade, chartUpgrade, commands, mutate, identity, graphiql, app,
    webhooks,
    async close() {
      clearInterval(sweeper);
      await webhooks.stop();
      await app.close();
      await chartUpgrade.stop();
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
