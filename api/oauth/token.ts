/**
 * The token endpoints `POST /oauth/{na,eu,uk}/token` (RFC 6749 4.1.3, 5, 6; spec 5.3-5.4): form-encoded
 * requests, client authentication, the authorization_code and refresh_token grants, the token object.
 */
import type { FastifyInstance } from 'fastify';
import { GrantType, Scope, type Identity, type OAuthClient } from '../auth/identity.ts';
import { answerClientRequest, type Form } from './client-requests.ts';
import { noStore, OAuthError } from './errors.ts';
import type { GrantStore, IssuedTokens } from './grants.ts';
import type { Limiters } from './rate-limits.ts';
import { REGIONS, tokenPath, type Region } from './regions.ts';
import { TOKEN_ROUTE } from './schemas.ts';

/** RFC 7636 4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const MAX_TOKEN = 2048;

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

function required(form: Form, name: string): string {
  const value = form(name);
  if (value === undefined) throw new OAuthError('invalid_request', `${name} is missing.`);
  if (value.length > MAX_TOKEN) throw new OAuthError('invalid_request', `${name} is longer than ${MAX_TOKEN} characters.`);
  return value;
}

async function grant(grants: GrantStore, form: Form, client: OAuthClient, region: Region): Promise<IssuedTokens> {
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
    app.post(tokenPath(region), { config: { oauthErrors: 'json' }, schema: TOKEN_ROUTE }, async (request, reply) =>
      answerClientRequest(request, reply, identity, limiters.token, 'token', async (form, client) =>
        noStore(reply).send(tokenObject(await grant(grants, form, client, region)))),
    );
  }
}
