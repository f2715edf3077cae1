/** The service's configuration, read once from the environment (DESIGN.md "Running"). */
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  eventStore: 'postgres' | 'kurrentdb';
  kurrentDbUrl: string | undefined;
  demo: boolean;
  logLevel: string;
  costBudget: number;
  eventLeaseSeconds: number;
  eventRetentionDays: number;
  webhookAllowLoopback: boolean;
  /** Bearer token a /metrics scraper sends (METRICS_TOKEN); api/metrics.ts says when it is required. */
  metricsToken: string | undefined;
  /** NODE_ENV=production: no development conveniences (an open /metrics on loopback). */
  production: boolean;
  /** READ_MODEL_UPGRADE: read models of another version are rebuilt in the background (default) or refused at start (projections/upgrade.ts). */
  readModelUpgrade: 'background' | 'refuse';
}

function int(name: string, fallback: number, env = process.env): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return n;
}

export function loadConfig(env = process.env): Config {
  const eventStore = (env.EVENT_STORE ?? 'postgres') as Config['eventStore'];
  if (eventStore !== 'postgres' && eventStore !== 'kurrentdb') {
    throw new Error(`EVENT_STORE must be postgres or kurrentdb, got ${eventStore}`);
  }
  if (eventStore === 'kurrentdb' && !env.KURRENTDB_URL) throw new Error('EVENT_STORE=kurrentdb needs KURRENTDB_URL');
  const readModelUpgrade = (env.READ_MODEL_UPGRADE || 'background') as Config['readModelUpgrade'];
  if (readModelUpgrade !== 'background' && readModelUpgrade !== 'refuse') throw new Error(`READ_MODEL_UPGRADE must be background or refuse, got ${readModelUpgrade}`);
  return {
    port: int('PORT', 3000, env),
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    eventStore,
    kurrentDbUrl: env.KURRENTDB_URL || undefined,
    demo: env.DEMO !== '0',
    logLevel: env.LOG_LEVEL ?? 'info',
    costBudget: int('COST_BUDGET', 400_000, env),
    eventLeaseSeconds: int('EVENT_LEASE_SECONDS', 60, env),
    eventRetentionDays: int('EVENT_RETENTION_DAYS', 7, env),
    webhookAllowLoopback: env.WEBHOOK_ALLOW_LOOPBACK === '1',
    metricsToken: env.METRICS_TOKEN || undefined,
    production: env.NODE_ENV === 'production',
    readModelUpgrade,
  };
}
