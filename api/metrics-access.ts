/**
 * Who may scrape `/metrics`. Its labels name every organisation's and trigger's ids, so it is open only
 * where nobody else can connect: a service listening on loopback alone (HOST 127.0.0.1, ::1 or
 * localhost) outside production. Everywhere else it needs METRICS_TOKEN, and without one it is closed.
 *
 * Why these two conditions: whether another machine can connect is a fact of the binding, which
 * NODE_ENV alone is not (a laptop with HOST=0.0.0.0 is reachable from its network); and a production
 * service on loopback usually sits behind a reverse proxy that would publish /metrics with the rest.
 */
import { isIP } from 'node:net';
import type { Config } from '../platform/config.ts';

export type MetricsAccess =
  | { kind: 'open'; reason: string }
  | { kind: 'token'; token: string; reason: string }
  | { kind: 'closed'; reason: string };

function loopbackOnly(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

export function metricsAccess(config: Pick<Config, 'host' | 'metricsToken' | 'production'>): MetricsAccess {
  if (config.metricsToken) return { kind: 'token', token: config.metricsToken, reason: '/metrics needs Authorization: Bearer <METRICS_TOKEN>' };
  if (config.production) return { kind: 'closed', reason: '/metrics is closed: NODE_ENV=production and METRICS_TOKEN is unset (set it to scrape)' };
  if (!loopbackOnly(config.host)) return { kind: 'closed', reason: `/metrics is closed: HOST=${config.host} is reachable from other machines and METRICS_TOKEN is unset (set it to scrape)` };
  return { kind: 'open', reason: `/metrics is open without a token: HOST=${config.host} is loopback only and NODE_ENV is not production (set METRICS_TOKEN to require one)` };
}
