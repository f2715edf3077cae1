/**
 * The authorization endpoint (RFC 6749 4.1.1-4.1.2, RFC 7636, spec 5.2):
 *
 *   GET  /oauth/authorize           validates the request, opens a pending request, shows sign-in
 *   POST /oauth/authorize/sign-in   checks email and password, shows the consent
 *   POST /oauth/authorize/consent   allow: a code to the redirect URI; deny: access_denied
 *
 * Until client_id and redirect_uri are known good, errors are a page and never a redirect (an open
 * redirector otherwise). After that, errors go back to the exact registered redirect URI.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { canonicalUuid } from '../../domain/ids.ts';
import { Scope, type Identity, type OAuthClient } from '../auth/identity.ts';
import { RepeatedParameter, single } from './form.ts';
import type { GrantStore } from './grants.ts';
import { sendConsentPage, sendErrorPage, sendSignInPage } from './pages.ts';
import { exceeded, sendTooManyPage, type Limiters } from './rate-limits.ts';
import { regionOf } from './regions.ts';
import { AUTHORIZE_ROUTE, CONSENT_ROUTE, SIGN_IN_ROUTE } from './schemas.ts';
import { isBrowserCookie, newBrowserCookie, type AuthorizationRequests, type PendingRequest } from './requests.ts';
import type { OAuthSettings } from './settings.ts';
import { isTransient } from '../../platform/transient.ts';

export const BROWSER_COOKIE = 'oauth_browser';
const LIMITS = Object.freeze({ clientId: 128, redirectUri: 2048, state: 1024, email: 320, password: 1024 });
/** Used when the request names no scope: the least privilege (spec 5.2 makes the parameter optional). */
export const DEFAULT_SCOPE: Scope = 'readonly';
/** RFC 7636 4.2: an S256 challenge is the base64url SHA-256, always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export type AuthorizeErrorCode =
  | 'invalid_request' | 'unauthorized_client' | 'access_denied' | 'unsupported_response_type'
  | 'invalid_scope' | 'server_error' | 'temporarily_unavailable';

class RedirectError extends Error {
  constructor(readonly error: AuthorizeErrorCode, readonly description: string) {
    super(description);
  }
}

/** Where to send the browser back: the registered URI plus our parameters (its own query kept). */
function callback(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value != null) url.searchParams.set(name, value);
  return url.toString();
}

function redirectError(reply: FastifyReply, redirectUri: string, state: string | null | undefined, e: RedirectError, status: 302 | 303) {
  reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
  return reply.redirect(callback(redirectUri, { error: e.error, error_description: e.description, state }), status);
}

/** An unexpected failure once the redirect URI is trusted: report it to the application, log it here. */
function failure(request: FastifyRequest, error: unknown): RedirectError {
  if (error instanceof RedirectError) return error;
  request.log.error({ err: error }, 'authorization request failed');
  return isTransient(error)
    ? new RedirectError('temporarily_unavailable', 'The service is temporarily unavailable; retry in 10 minutes.')
    : new RedirectError('server_error', 'The authorization server failed; retry later.');
}

/** The scope asked for, under either name (`scope` per RFC 6749 and the spec's sample, `scopes` per its table). */
function requestedScope(query: URLSearchParams): Scope {
  const scope = single(query, 'scope');
  const scopes = single(query, 'scopes');
  if (scope !== undefined && scopes !== undefined && scope !== scopes) throw new RedirectError('invalid_request', 'scope and scopes differ; send one.');
  const value = scope ?? scopes;
  if (value === undefined) return DEFAULT_SCOPE;
  if (!(Scope as readonly string[]).includes(value)) throw new RedirectError('invalid_scope', 'scope must be readonly or full_access.');
  return value as Scope;
}

/** The checks after which errors may be redirected; returns what the pending request stores. */
function validateRedirectable(query: URLSearchParams, client: OAuthClient, redirectUri: string): Omit<PendingRequest, 'id' | 'userId'> {
  for (const name of ['response_type', 'scope', 'scopes', 'state', 'code_challenge', 'code_challenge_method']) single(query, name); // repeats
  const responseType = single(query, 'response_type');
  if (responseType === undefined) throw new RedirectError('invalid_request', 'response_type is missing; it must be code.');
  if (responseType !== 'code') throw new RedirectError('unsupported_response_type', 'response_type must be code.');
  if (!client.grantTypes.includes('authorization_code')) throw new RedirectError('unauthorized_client', 'This client may not use the authorization code grant.');
  const scope = requestedScope(query);
  const state = single(query, 'state') ?? null;
  if (state && state.length > LIMITS.state) throw new RedirectError('invalid_request', `state is longer than ${LIMITS.state} characters.`);
  const challenge = single(query, 'code_challenge');
  const method = single(query, 'code_challenge_method');
  if (challenge === undefined) {
    if (method !== undefined) throw new RedirectError('invalid_request', 'code_challenge_method sent without code_challenge.');
    if (client.isPublic) throw new RedirectError('invalid_request', 'PKCE is required for public clients: send code_challenge and code_challenge_method=S256.');
  } else {
    if (method !== 'S256') throw new RedirectError('invalid_request', 'code_challenge_method must be S256 (plain is not supported).');
    if (!S256_CHALLENGE.test(challenge)) throw new RedirectError('invalid_request', 'code_challenge must be 43 base64url characters (S256).');
  }
  return { clientId: client.clientId, redirectUri, scope, state, codeChallenge: challenge ?? null };
}

type Body = Record<string, unknown> | undefined;
const text = (body: Body, name: string) => {
  const value = body?.[name];
  return typeof value === 'string' ? value : undefined;
};

/** A form post that no live request of this browser accepts: a page, never a redirect. */
function sendProblemPage(reply: FastifyReply, problem: 'expired' | 'forged' | 'stage') {
  if (problem === 'forged') return sendErrorPage(reply, 403, 'Request refused', 'This form was not sent from the page this browser opened (CSRF protection).');
  if (problem === 'stage') return sendErrorPage(reply, 400, 'Request out of order', 'This step of the sign-in does not follow the previous one.');
  return sendErrorPage(reply, 400, 'Request expired', 'This sign-in request has expired or was already answered.');
}

export function registerAuthorize(
  app: FastifyInstance,
  deps: { identity: Identity; grants: GrantStore; requests: AuthorizationRequests; limiters: Limiters; settings: OAuthSettings },
) {
  const { identity, grants, requests, limiters, settings } = deps;
  const cookieOptions = (request: FastifyRequest) => ({
    path: '/oauth/authorize', httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https', maxAge: settings.authorizationRequestSeconds,
  });

  app.get('/oauth/authorize', { schema: AUTHORIZE_ROUTE }, async (request, reply) => {
    const over = await exceeded(request, limiters.authorizePerIp);
    if (over) return sendTooManyPage(reply, over.retryAfter, 'Too many authorization requests from this address.');
    const query = new URL(request.url, 'http://localhost').searchParams;
    let clientId: string | undefined;
    let redirectUri: string | undefined;
    try {
      clientId = single(query, 'client_id');
      redirectUri = single(query, 'redirect_uri');
    } catch (e) {
      if (e instanceof RepeatedParameter) return sendErrorPage(reply, 400, 'Invalid request', e.message);
      throw e;
    }
    if (!clientId || clientId.length > LIMITS.clientId) return sendErrorPage(reply, 400, 'Invalid request', 'client_id is missing or invalid.');
    const client = await identity.findClient(clientId);
    if (!client) return sendErrorPage(reply, 400, 'Unknown application', 'No application is registered with this client_id.');
    if (!redirectUri || redirectUri.length > LIMITS.redirectUri || !client.redirectUris.includes(redirectUri)) {
      return sendErrorPage(reply, 400, 'Invalid redirect URI', 'redirect_uri is missing or is not exactly one of the URIs registered for this application.');
    }
    // From here on the redirect URI is trusted: errors go back to the application.
    let state: string | undefined;
    try {
      state = query.getAll('state').length === 1 ? query.get('state')! : undefined;
      const pending = validateRedirectable(query, client, redirectUri);
      const cookie = isBrowserCookie(request.cookies[BROWSER_COOKIE]) ? request.cookies[BROWSER_COOKIE]! : newBrowserCookie();
      const opened = await requests.open(cookie, pending);
      reply.setCookie(BROWSER_COOKIE, cookie, cookieOptions(request));
      return sendSignInPage(reply, { requestId: opened.id, csrf: opened.csrf, clientName: client.name, scope: pending.scope, redirectUri });
    } catch (e) {
      const error = e instanceof RepeatedParameter ? new RedirectError('invalid_request', e.message) : failure(request, e);
      return redirectError(reply, redirectUri, state && state.length <= LIMITS.state ? state : undefined, error, 302);
    }
  });

  app.post('/oauth/authorize/sign-in', { schema: SIGN_IN_ROUTE }, async (request, reply) => {
    const body = request.body as Body;
    const over = await exceeded(request, limiters.signInPerEmail, limiters.signInPerIp);
    if (over) return sendTooManyPage(reply, over.retryAfter, `Too many sign-in attempts (at most ${over.limiter.max} a minute).`);
    const checked = await requests.check(text(body, 'request'), request.cookies[BROWSER_COOKIE], text(body, 'csrf'), 'sign_in');
    if (!checked.ok) return sendProblemPage(reply, checked.problem);
    const pending = checked.request;
    try {
      const client = await identity.findClient(pending.clientId);
      if (!client) throw new RedirectError('unauthorized_client', 'The application is no longer registered.');
      const email = (text(body, 'email') ?? '').trim().slice(0, LIMITS.email);
      const password = (text(body, 'password') ?? '').slice(0, LIMITS.password);
      const userId = email && password ? await identity.checkPassword(email, password) : undefined;
      const view = { requestId: pending.id, clientName: client.name, scope: pending.scope, redirectUri: pending.redirectUri };
      if (!userId) return sendSignInPage(reply, { ...view, csrf: text(body, 'csrf')!, email, error: 'Wrong email or password.' });
      const organisations = await identity.memberships(userId);
      if (organisations.length === 0) {
        await requests.complete(pending.id);
        throw new RedirectError('access_denied', 'The user belongs to no organisation.');
      }
      const csrf = await requests.signedIn(pending.id, userId); // a new token once signed in
      return sendConsentPage(reply, { ...view, csrf, email, organisations });
    } catch (e) {
      return redirectError(reply, pending.redirectUri, pending.state, failure(request, e), 303);
    }
  });

  app.post('/oauth/authorize/consent', { schema: CONSENT_ROUTE }, async (request, reply) => {
    const body = request.body as Body;
    const over = await exceeded(request, limiters.authorizePerIp);
    if (over) return sendTooManyPage(reply, over.retryAfter, 'Too many authorization requests from this address.');
    const checked = await requests.check(text(body, 'request'), request.cookies[BROWSER_COOKIE], text(body, 'csrf'), 'consent');
    if (!checked.ok) return sendProblemPage(reply, checked.problem);
    const pending = checked.request;
    const decision = text(body, 'decision');
    if (decision !== 'approve' && decision !== 'deny') return sendErrorPage(reply, 400, 'Invalid request', 'Choose Allow or Deny.');
    try {
      const organisations = await identity.memberships(pending.userId!);
      const chosen = organisations.find((m) => m.organisationId === canonicalUuid(text(body, 'organisation')));
      if (decision === 'approve' && !chosen) return sendErrorPage(reply, 400, 'Invalid request', 'Choose one of your organisations.');
      if (!(await requests.complete(pending.id))) return sendProblemPage(reply, 'expired');
      if (decision === 'deny') throw new RedirectError('access_denied', 'The user denied the authorization.');
      const { organisationId, country } = chosen!;
      if (!country) throw new RedirectError('temporarily_unavailable', 'The organisation is still being set up; retry in 10 minutes.');
      if (!regionOf(country)) throw new RedirectError('server_error', `No country group serves organisations in ${country}.`);
      const code = await grants.createCode({
        clientId: pending.clientId, userId: pending.userId!, organisationId, country, scope: pending.scope,
        redirectUri: pending.redirectUri, codeChallenge: pending.codeChallenge,
      });
      reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
      return reply.redirect(callback(pending.redirectUri, { code, country, state: pending.state }), 303);
    } catch (e) {
      return redirectError(reply, pending.redirectUri, pending.state, failure(request, e), 303);
    }
  });
}
