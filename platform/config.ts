/** The service's configuration, read once from the environment (DESIGN.md "Running"). */
import path from 'node:path';
import type { OAuthOverrides, OAuthSettings } from '../api/oauth/settings.ts';
import type { DispatcherOptions } from '../eventqueue/webhooks/dispatcher.ts';

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
  /** OAUTH_*: the authorization server's lifetimes and rate limits that differ from its defaults (api/oauth/settings.ts). */
  oauth: OAuthOverrides;
  /** WEBHOOK_*: the webhook dispatcher's options that differ from its defaults (eventqueue/webhooks/dispatcher.ts, docs/webhooks.md). */
  webhooks: Partial<DispatcherOptions>;
}

type Env = NodeJS.ProcessEnv;

/** A whole number of at least 0, or undefined when unset or empty. */
function optionalInt(name: string, env: Env): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return n;
}

const int = (name: string, fallback: number, env: Env): number => optionalInt(name, env) ?? fallback;

/** `values` without the keys the environment left unset, so they do not hide the defaults they override. */
function given<T extends object>(values: { [K in keyof T]?: T[K] }): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function oauthFromEnv(env: Env): OAuthOverrides {
  return {
    ...given<OAuthOverrides>({
      codeTtlSeconds: optionalInt('OAUTH_CODE_TTL_SECONDS', env),
      accessTokenSeconds: optionalInt('OAUTH_ACCESS_TOKEN_SECONDS', env),
      refreshTokenSeconds: optionalInt('OAUTH_REFRESH_TOKEN_SECONDS', env),
      refreshGraceSeconds: optionalInt('OAUTH_REFRESH_GRACE_SECONDS', env),
      authorizationRequestSeconds: optionalInt('OAUTH_AUTHORIZATION_REQUEST_SECONDS', env),
    }),
    rateLimits: given<OAuthSettings['rateLimits']>({
      signInPerEmail: optionalInt('OAUTH_SIGNIN_PER_EMAIL_PER_MINUTE', env),
      signInPerIp: optionalInt('OAUTH_SIGNIN_PER_IP_PER_MINUTE', env),
      authorizePerIp: optionalInt('OAUTH_AUTHORIZE_PER_IP_PER_MINUTE', env),
      tokenPerClient: optionalInt('OAUTH_TOKEN_PER_CLIENT_PER_MINUTE', env),
      tokenUnauthenticatedPerIp: optionalInt('OAUTH_TOKEN_UNAUTHENTICATED_PER_IP_PER_MINUTE', env),
      revokePerClient: optionalInt('OAUTH_REVOKE_PER_CLIENT_PER_MINUTE', env),
      revokeUnauthenticatedPerIp: optionalInt('OAUTH_REVOKE_UNAUTHENTICATED_PER_IP_PER_MINUTE', env),
    }),
  };
}

function webhooksFromEnv(env: Env): Partial<DispatcherOptions> {
  const span = optionalInt('WEBHOOK_DISABLE_AFTER_SECONDS', env);
  const ladder = env.WEBHOOK_BACKOFF_SECONDS ? env.WEBHOOK_BACKOFF_SECONDS.split(',').map((s) => Number(s.trim())) : undefined;
  if (ladder?.some((n) => !Number.isFinite(n) || n < 0)) throw new Error(`WEBHOOK_BACKOFF_SECONDS must be a comma-separated list of seconds, got ${env.WEBHOOK_BACKOFF_SECONDS}`);
  return given<DispatcherOptions>({
    pollIntervalMs: optionalInt('WEBHOOK_POLL_MS', env),
    concurrency: optionalInt('WEBHOOK_CONCURRENCY', env),
    perTriggerConcurrency: optionalInt('WEBHOOK_PER_TRIGGER_CONCURRENCY', env),
    attemptTimeoutMs: optionalInt('WEBHOOK_TIMEOUT_MS', env),
    disableAfterFailures: optionalInt('WEBHOOK_DISABLE_AFTER_FAILURES', env),
    disableAfterMs: span === undefined ? undefined : span * 1000,
    logRetentionDays: optionalInt('WEBHOOK_LOG_RETENTION_DAYS', env),
    backoffMs: ladder?.map((s) => Math.round(s * 1000)),
  });
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
    oauth: oauthFromEnv(env),
    webhooks: webhooksFromEnv(env),
  };
}
