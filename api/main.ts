/** `npm start`: the service on HOST:PORT, with demo data on first start (DEMO=0 disables it). */
import { START, comparePositions } from '../eventstore/port.ts';
import { loadConfig } from '../platform/config.ts';
import { DEMO, seedDemo } from '../service/demo.ts';
import { healthStatus } from './health.ts';
import { startService } from '../service/start.ts';

const config = loadConfig();
const service = await startService(config);
const log = service.app.log;
const empty = comparePositions(await service.store.headPosition(), START) === 0;
let demo: Awaited<ReturnType<typeof seedDemo>> | undefined;
if (empty && config.demo) demo = await seedDemo(service);
if (demo) service.graphiql.showDemo(demo.token.access_token, demo.organisationId, demo.token.expires_in);
try {
  await service.app.listen({ port: config.port, host: config.host });
} catch (error) {
  // Say what is wrong in one line and stop everything started so far (projections, webhooks, the embedded
  // PostgreSQL) rather than leave a stack trace and a half-started service.
  const code = (error as { code?: string }).code;
  const why =
    code === 'EADDRINUSE' ? `${config.host}:${config.port} is already in use (another ledger service?): stop it, or start this one with PORT set to a free port.`
    : code === 'EACCES' ? `${config.host}:${config.port} needs privileges this user lacks: set PORT to 1024 or above.`
    : `cannot listen on ${config.host}:${config.port} (${code ?? String(error)}): check HOST and PORT.`;
  process.stderr.write(`${why}\n`);
  await service.close();
  process.exit(1);
}

const base = `http://${config.host}:${config.port}`;
log.info(`GraphQL  ${base}/graphql   GraphiQL ${base}/graphiql   REST ${base}/ledger_accounts`);
// Start-up never waits for the projections for long: say so when they are not there yet.
const projections = healthStatus(service.daemon.health(), service.fanout.health());
if (projections !== 'ok') log.warn(`projections ${projections}: reads may lag until they catch up (see ${base}/health and \`ledger projections status\`)`);
if (demo) {
  process.stdout.write(
    [
      '',
      `Demo organisation "${DEMO.organisation}" (X-Site / resource_owner_id): ${demo.organisationId}`,
      `Demo user: ${DEMO.email} / ${DEMO.password}`,
      `Demo OAuth client: client_id=${demo.client.client_id} client_secret=${demo.client.client_secret}`,
      `Access token (full_access, 1 h): ${demo.token.access_token}`,
      `Try: curl -s ${base}/graphql -H 'Authorization: Bearer ${demo.token.access_token}' -H 'X-Site: ${demo.organisationId}' -H 'Content-Type: application/json' -d '{"query":"{ accountingEntries { totalCount nodes { number description } } }"}'`,
      '',
    ].join('\n'),
  );
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    log.info(`${signal}: shutting down`);
    await service.close();
    process.exit(0);
  });
}
