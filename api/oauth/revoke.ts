/**
 * The revocation endpoints `POST /oauth/{na,eu,uk}/revoke` (RFC 7009, spec 5.5): `token` plus client
 * authentication; an empty 204 on success and for tokens we do not know.
 */
import type { FastifyInstance } from 'fastify';
import type { Identity } from '../auth/identity.ts';
import { answerClientRequest } from './client-requests.ts';
import { noStore, OAuthError } from './errors.ts';
import type { GrantStore } from './grants.ts';
import type { Limiters } from './rate-limits.ts';
import { REGIONS, revokePath } from './regions.ts';
import { REVOKE_ROUTE } from './schemas.ts';

const MAX_TOKEN = 2048;

export function registerRevoke(app: FastifyInstance, deps: { identity: Identity; grants: GrantStore; limiters: Limiters }) {
  const { identity, grants, limiters } = deps;
  for (const region of REGIONS) {
    app.post(revokePath(region), { config: { oauthErrors: 'json' }, schema: REVOKE_ROUTE }, async (request, reply) =>
      answerClientRequest(request, reply, identity, limiters.revoke, 'revocation', async (form, client) => {
        const token = form('token');
        if (token === undefined) throw new OAuthError('invalid_request', 'token is missing.');
        // Longer than anything we issue: unknown, hence nothing to revoke (RFC 7009 2.2).
        if (token.length <= MAX_TOKEN) await grants.revoke({ token, client, region });
        return noStore(reply).code(204).send();
      }),
    );
  }
}
