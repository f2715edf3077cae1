/**
 * Errors of the token and revocation endpoints in RFC 6749 5.2's JSON form. Every response of those
 * endpoints, success or error, carries `Cache-Control: no-store` (RFC 6749 5.1).
 */
import type { FastifyReply } from 'fastify';

export type TokenErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'server_error';

export class OAuthError extends Error {
  constructor(
    readonly error: TokenErrorCode,
    readonly description: string,
    /** The client tried HTTP Basic: a 401 must then challenge for it (RFC 6749 5.2). */
    readonly basicAttempted = false,
  ) {
    super(description);
  }

  get status(): number {
    if (this.error === 'invalid_client') return 401;
    if (this.error === 'server_error') return 500;
    return 400;
  }
}

export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
}

export function sendOAuthError(reply: FastifyReply, e: OAuthError) {
  noStore(reply);
  if (e.status === 401 && e.basicAttempted) reply.header('WWW-Authenticate', 'Basic realm="oauth", charset="UTF-8"');
  return reply.code(e.status).send({ error: e.error, error_description: e.description });
}
