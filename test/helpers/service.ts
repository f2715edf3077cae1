/** A real service (HTTP on an ephemeral port) over a fresh database, with the demo books seeded. */
import { seedDemo } from '../../service/demo.ts';
import { startService, type Service } from '../../service/start.ts';
import { loadConfig, type Config } from '../../platform/config.ts';
import { freshDatabase } from './database.ts';

export interface Running {
  service: Service;
  base: string;
  organisationId: string;
  token: string;
  clientId: string;
  gql(query: string, variables?: object, headers?: Record<string, string>): Promise<any>;
  rest(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  eventCount(): Promise<number>;
}

export async function runningService(t: { teardown(fn: () => unknown): void }, overrides: Partial<Config> = {}): Promise<Running> {
  const db = await freshDatabase(t);
  const config = { ...loadConfig({}), databaseUrl: db.url, port: 0, logLevel: 'error', ...overrides };
  const service = await startService(config, { db: { url: db.url, pool: db.pool, close: async () => {} }, logger: false });
  t.teardown(() => service.close());
  const demo = await seedDemo(service);
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  const address = service.app.server.address() as { port: number };
  const base = `http://127.0.0.1:${address.port}`;
  const auth = { Authorization: `Bearer ${demo.token.access_token}`, 'X-Site': demo.organisationId };
  return {
    service,
    base,
    organisationId: demo.organisationId,
    token: demo.token.access_token,
    clientId: demo.client.client_id,
    async gql(query, variables, headers = auth) {
      const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
      return res.json();
    },
    async rest(path, headers = auth) {
      const res = await fetch(`${base}${path}`, { headers });
      return { status: res.status, body: await res.json() };
    },
    async eventCount() {
      const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM es_events');
      return rows[0].n;
    },
  };
}
