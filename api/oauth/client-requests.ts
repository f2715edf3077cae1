/**
 * What the token and revocation endpoints share around their own work: the form, client
 * authentication, rate limits and RFC 6749 errors.
 *
 * A request counts against the client it names only once the client has authenticated with its secret.
 * Every other request counts against its address: one whose client authentication failed, and every
 * request of a public client (RFC 6749 2.1: it cannot authenticate, and its client_id is no secret). So
 * knowing a client_id no longer lets anyone spend that client's budget. An address that spent its budget
 * is refused its unauthenticated requests only: the address may be shared (a NAT, a reverse proxy in
 * front of the service), and a client that authenticates from it must not be locked out by another's
 * guesses (a 256-bit secret cannot be guessed; each guess costs one lookup of the client).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Identity, OAuthClient } from '../auth/identity.ts';
import { authenticateClient } from './client-auth.ts';
import { OAuthError, sendOAuthError } from './errors.ts';
import { isFormEncoded, RepeatedParameter, single } from './form.ts';
import { countFor, sendTooManyJson, type EndpointLimiters } from './rate-limits.ts';

export type Form = (name: string) => string | undefined;

/** The form's single-valued parameters, or invalid_request when the body is not a form or repeats one. */
export function readForm(request: FastifyRequest): Form {
  if (!isFormEncoded(request.headers['content-type'])) {
    throw new OAuthError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded.');
  }
  const body = (request.body ?? {}) as Record<string, unknown>;
  const repeated = Object.keys(body).find((name) => Array.isArray(body[name]));
  if (repeated) throw new OAuthError('invalid_request', new RepeatedParameter(repeated).message);
  return (name) => single(body, name);
}

/**
 * Answers one request of an endpoint (`what`: "token", "revocation"): `work` runs for an authenticated
 * client within its budget and sends the response; an OAuthError it throws is answered in RFC 6749's form.
 */
export async function answerClientRequest(
  request: FastifyRequest, reply: FastifyReply, identity: Identity, limiters: EndpointLimiters, what: string,
  work: (form: Form, client: OAuthClient) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  const { unauthenticatedPerIp, perClient } = limiters;
  const tooManyFromAddress = (wait: number) => sendTooManyJson(reply, wait, `More than ${unauthenticatedPerIp.max} unauthenticated ${what} requests a minute from this address.`);
  let client: OAuthClient | undefined;
  try {
    const form = readForm(request);
    client = await authenticateClient(identity, request.headers.authorization, form);
    if (client.isPublic) {
      const wait = await countFor(request, unauthenticatedPerIp);
      if (wait) return tooManyFromAddress(wait);
    } else {
      const wait = await countFor(request, perClient, client.clientId);
      if (wait) return sendTooManyJson(reply, wait, `More than ${perClient.max} ${what} requests a minute for this client.`);
    }
    return await work(form, client);
  } catch (e) {
    if (!(e instanceof OAuthError)) throw e;
    const wait = client ? undefined : await countFor(request, unauthenticatedPerIp);
    return wait ? tooManyFromAddress(wait) : sendOAuthError(reply, e);
  }
}
