/**
 * Rate limits against brute force and flooding, built on @fastify/rate-limit's `createRateLimit`: each
 * limiter counts requests per key over a one-minute window and the handlers answer 429 in their own
 * form (an HTML page for the browser, RFC 6749-style JSON for clients) with Retry-After.
 *
 * Counters live in this process's memory: behind several instances, each enforces its own budget.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { claimedClientId } from './client-auth.ts';
import { noStore } from './errors.ts';
import { sendErrorPage } from './pages.ts';
import { RATE_LIMIT_WINDOW_MS, type OAuthSettings } from './settings.ts';

type Check = ReturnType<FastifyInstance['createRateLimit']>;

export interface Limiter {
  max: number;
  check: Check;
}

const emailOf = (request: FastifyRequest) => {
  const email = (request.body as Record<string, unknown> | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 320) : '';
};
const clientOrIp = (request: FastifyRequest) => {
  const client = claimedClientId(request.headers.authorization, request.body);
  return client ? `client:${client}` : `ip:${request.ip}`;
};

export function createLimiters(app: FastifyInstance, settings: OAuthSettings) {
  const limit = (max: number, keyGenerator: (request: FastifyRequest) => string): Limiter => ({
    max,
    check: app.createRateLimit({ max, timeWindow: RATE_LIMIT_WINDOW_MS, keyGenerator }),
  });
  const r = settings.rateLimits;
  return {
    signInPerEmail: limit(r.signInPerEmail, (request) => `${request.ip}|${emailOf(request)}`),
    signInPerIp: limit(r.signInPerIp, (request) => request.ip),
    authorizePerIp: limit(r.authorizePerIp, (request) => request.ip),
    tokenPerClient: limit(r.tokenPerClient, clientOrIp),
    revokePerClient: limit(r.revokePerClient, clientOrIp),
  };
}
export type Limiters = ReturnType<typeof createLimiters>;

/** Counts this request against every limiter; the seconds to wait when one of them is exceeded. */
export async function exceeded(request: FastifyRequest, ...limiters: Limiter[]): Promise<{ retryAfter: number; limiter: Limiter } | undefined> {
  for (const limiter of limiters) {
    const result = await limiter.check(request);
    if (!result.isAllowed && result.isExceeded) return { retryAfter: Math.max(1, result.ttlInSeconds), limiter };
  }
  return undefined;
}

export function sendTooManyPage(reply: FastifyReply, retryAfter: number, what: string) {
  reply.header('Retry-After', String(retryAfter));
  return sendErrorPage(reply, 429, 'Too many attempts', `${what} Try again in ${retryAfter} seconds.`);
}

export function sendTooManyJson(reply: FastifyReply, retryAfter: number, what: string) {
  noStore(reply).header('Retry-After', String(retryAfter));
  return reply.code(429).send({ error: 'too_many_requests', error_description: `${what} Retry in ${retryAfter} s.` });
}
