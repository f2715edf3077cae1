/**
 * The OAuth 2.0 authorization server (spec 4.3 and 5; RFC 6749, 7636, 7009, 9700) as one encapsulated
 * Fastify plugin: its form parser, cookies, rate limits and error handler apply to its routes only.
 *
 *   GET  /oauth/authorize (+ POST /oauth/authorize/sign-in, /oauth/authorize/consent)   authorize.ts
 *   POST /oauth/{na,eu,uk}/token                                                          token.ts
 *   POST /oauth/{na,eu,uk}/revoke                                                         revoke.ts
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import type { FastifyError, FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Identity } from '../auth/identity.ts';
import { describeOnly } from '../openapi.ts';
import { registerAuthorize } from './authorize.ts';
import { OAuthError, sendOAuthError } from './errors.ts';
import { GrantStore } from './grants.ts';
import { sendErrorPage } from './pages.ts';
import { createLimiters } from './rate-limits.ts';
import { AuthorizationRequests } from './requests.ts';
import { registerRevoke } from './revoke.ts';
import { loadServerSecret } from './secret.ts';
import { oauthSettings, type OAuthOverrides } from './settings.ts';
import { registerToken } from './token.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How this route reports framework errors: RFC 6749 JSON (token, revoke) or an HTML page (default). */
    oauthErrors?: 'json' | 'html';
  }
}

export interface OAuthPluginOptions {
  pool: pg.Pool;
  identity: Identity;
  /** Changes to the defaults (settings.ts): the service passes its configuration's (OAUTH_*). */
  settings?: OAuthOverrides;
}

/** Form bodies here are a few short fields; nothing legitimate comes near this. */
const FORM_BODY_LIMIT = 16 * 1024;
const SWEEP_EVERY_MS = 10 * 60_000;

export async function oauthPlugin(app: FastifyInstance, options: OAuthPluginOptions): Promise<void> {
  const { pool, identity } = options;
  const settings = oauthSettings(options.settings);
  const grants = new GrantStore(pool, identity, await loadServerSecret(pool), settings);
  const requests = new AuthorizationRequests(pool, settings.authorizationRequestSeconds);

  await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
  await app.register(cookie);
  await app.register(rateLimit, { global: false }); // limiters are applied explicitly (rate-limits.ts)
  const limiters = createLimiters(app, settings);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error }, 'oauth request failed');
    if (request.routeOptions.config?.oauthErrors === 'json') {
      // Malformed bodies, unsupported media types, oversize: all invalid_request in RFC 6749's form.
      return sendOAuthError(reply, status < 500 ? new OAuthError('invalid_request', error.message) : new OAuthError('server_error', 'The authorization server failed; retry later.'));
    }
    return status < 500 ? sendErrorPage(reply, status, 'Invalid request', error.message) : sendErrorPage(reply, 500, 'Server error', 'The authorization server failed; retry later.');
  });

  describeOnly(app); // (schemas.ts: for the OpenAPI document; the handlers answer refusals in OAuth's forms)
  registerAuthorize(app, { identity, grants, requests, limiters, settings });
  registerToken(app, { identity, grants, limiters });
  registerRevoke(app, { identity, grants, limiters });

  const sweeper = setInterval(() => grants.sweep().catch((err) => app.log.warn({ err }, 'oauth sweep failed')), SWEEP_EVERY_MS);
  sweeper.unref();
  app.addHook('onClose', async () => clearInterval(sweeper));
}
