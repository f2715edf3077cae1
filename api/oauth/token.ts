/**
 * The token endpoints `POST /oauth/{na,eu,uk}/token` (RFC 6749 4.1.3, 5, 6; spec 5.3-5.4): form-encoded
 * requests, client authentication, the authorization_code and refresh_token grants, the token object.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GrantType, Scope, type Identity } from '../auth/identity.ts';
import { authenticateClient } from './client-auth.ts';
import { noStore, OAuthError, sendOAuthError } from './errors.ts';
import { isFormEncoded, RepeatedParameter, single } from './form.ts';
import type { GrantStore, IssuedTokens } from './grants.ts';
import { exceeded, sendTooManyJson, type Limiters } from './rate-limits.ts';
import { REGIONS, tokenPath, type Region } from './regions.ts';

/** RFC 7636 4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const MAX_TOKEN = 2048;

/** The form's single-valued parameters, or invalid_request when the body is not a form or repeats one. */
export function readForm(request: FastifyRequest): (name: string) => string | undefined {
  if (!isFormEncoded(request.headers['content-type'])) {
    throw new OAuthError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded.');
  }
  const body = (request.body ?? {}) as Record<string, unknown>;
  const repeated = Object.keys(body).find((name) => Array.isArray(body[name]));
  if (repeated) throw new OAuthError('invalid_request', new RepeatedParameter(repeated).message);
  return (name) => single(body, name);
}

/** Spec 5.3's token object, plus RFC 6749's `scope` for standard clients. */
export function tokenObject(t: IssuedTokens) {
  return {
    access_token: t.accessToken,
    scopes: t.scope,
    scope: t.scope,
    token_type: 'Bearer',
    expires_in: t.expiresIn,
    ...(t.refreshToken ? { refresh_token: t.refreshToken } : {}),
    resource_owner_id: t.organisationId,
  };
}

function required(form: (name: string) => string | undefined, name: string): string {
  const value = form(name);
  if (value === undefined) throw new OAuthError('invalid_request', `${name} is missing.`);
  if (value.length > MAX_TOKEN) throw new OAuthError('invalid_request', `${name} is longer than ${MAX_TOKEN} characters.`);
  return value;
}

async function grant(identity: Identity, grants: GrantStore, request: FastifyRequest, region: Region): Promise<IssuedTokens> {
  const form = readForm(request);
  const client = await authenticateClient(identity, request.headers.authorization, form);
  const grantType = form('grant_type');
  if (grantType === undefined) throw new OAuthError('invalid_request', 'grant_type is missing.');
  if (!(GrantType as readonly string[]).includes(grantType)) {
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
  }
  if (!client.grantTypes.includes(grantType as GrantType)) throw new OAuthError('unauthorized_client', `This client may not use the ${grantType} grant.`);
  if (grantType === 'authorization_code') {
    const code = required(form, 'code');
    const redirectUri = required(form, 'redirect_uri');
    const codeVerifier = form('code_verifier');
    if (codeVerifier !== undefined && !CODE_VERIFIER.test(codeVerifier)) {
      throw new OAuthError('invalid_request', 'code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~.');
    }
    return grants.exchangeCode({ code, client, redirectUri, codeVerifier, region });
  }
  const refreshToken = required(form, 'refresh_token');
  const scope = form('scope');
  if (scope !== undefined && !(Scope as readonly string[]).includes(scope)) throw new OAuthError('invalid_scope', 'scope must be readonly or full_access.');
  return grants.refresh({ refreshToken, client, region, scope: scope as Scope | undefined });
}

export function registerToken(app: FastifyInstance, deps: { identity: Identity; grants: GrantStore; limiters: Limiters }) {
  const { identity, grants, limiters } = deps;
  for (const region of REGIONS) {
    app.post(tokenPath(region), { config: { oauthErrors: 'json' } }, async (request, reply: FastifyReply) => {
      const over = await exceeded(request, limiters.tokenPerClient);
      if (over) return sendTooManyJson(reply, over.retryAfter, `More than ${over.limiter.max} token requests a minute for this client.`);
      try {
        const tokens = await grant(identity, grants, request, region);
        return noStore(reply).send(tokenObject(tokens));
      } catch (e) {
        if (e instanceof OAuthError) return sendOAuthError(reply, e);
        throw e;
      }
    });
  }
}
