/**
 * Rate limits against brute force and flooding, built on @fastify/rate-limit's `createRateLimit`: each
 * limiter counts requests per key over a one-minute window and the handlers answer 429 in their own
 * form (an HTML page for the browser, RFC 6749-style JSON for clients) with Retry-After.
 *
 * Counters live in this process's memory: behind several instances, each enforces its own budget.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { noStore } from './errors.ts';
import { sendErrorPage } from './pages.ts';
import { RATE_LIMIT_WINDOW_MS, type OAuthSettings } from './settings.ts';

type Check = ReturnType<FastifyInstance['createRateLimit']>;

export interface Limiter {
  max: number;
  check: Check;
}

/** The client a request authenticated as, for the per-client limiters' keys (client-requests.ts). */
const authenticatedClient = new WeakMap<FastifyRequest, string>();

const emailOf = (request: FastifyRequest) => {
  const email = (request.body as Record<string, unknown> | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 320) : '';
};

export function createLimiters(app: FastifyInstance, settings: OAuthSettings) {
  const limit = (max: number, keyGenerator: (request: FastifyRequest) => string): Limiter => ({
    max,
    check: app.createRateLimit({ max, timeWindow: RATE_LIMIT_WINDOW_MS, keyGenerator }),
  });
  const byClient = (request: FastifyRequest) => `client:${authenticatedClient.get(request)}`;
  const byIp = (request: FastifyRequest) => request.ip;
  const r = settings.rateLimits;
  return {
    signInPerEmail: limit(r.signInPerEmail, (request) => `${request.ip}|${emailOf(request)}`),
    signInPerIp: limit(r.signInPerIp, byIp),
    authorizePerIp: limit(r.authorizePerIp, byIp),
    token: { perClient: limit(r.tokenPerClient, byClient), unauthenticatedPerIp: limit(r.tokenUnauthenticatedPerIp, byIp) },
    revoke: { perClient: limit(r.revokePerClient, byClient), unauthenticatedPerIp: limit(r.revokeUnauthenticatedPerIp, byIp) },
  };
}
export type Limiters = ReturnType<typeof createLimiters>;
/** An endpoint's budgets: requests of an authenticated client; by address, everyone else's (client-requests.ts). */
export type EndpointLimiters = Limiters['token'];

/** Counts this request against every limiter; the seconds to wait when one of them is exceeded. */
export async function exceeded(request: FastifyRequest, ...limiters: Limiter[]): Promise<{ retryAfter: number; limiter: Limiter } | undefined> {
  for (const limiter of limiters) {
    const result = await limiter.check(request);
    if (!result.isAllowed && result.isExceeded) return { retryAfter: Math.max(1, result.ttlInSeconds), limiter };
  }
  return undefined;
}

/** Counts this request (for `clientId` when a per-client limiter); the seconds to wait when over the limit. */
export async function countFor(request: FastifyRequest, limiter: Limiter, clientId?: string): Promise<number | undefined> {
  if (clientId) authenticatedClient.set(request, clientId);
  return (await exceeded(request, limiter))?.retryAfter;
}

export function sendTooManyPage(reply: FastifyReply, retryAfter: number, what: string) {
  reply.header('Retry-After', String(retryAfter));
  return sendErrorPage(reply, 429, 'Too many attempts', `${what} Try again in ${retryAfter} seconds.`);
}

export function sendTooManyJson(reply: FastifyReply, retryAfter: number, what: string) {
  noStore(reply).header('Retry-After', String(retryAfter));
  return reply.code(429).send({ error: 'too_many_requests', error_description: `${what} Retry in ${retryAfter} s.` });
}
