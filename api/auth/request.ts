/**
 * Authentication of an API request, one rule for GraphQL, REST (lists, items, /triggers) and the event
 * queue: `Authorization: Bearer <token>` and the organisation header, `X-Site` (spec 5.1) or Sage's
 * `X-OrganizationId`. A token serves the organisation it was issued for (its `resource_owner_id`) and no
 * other: the user's roles elsewhere never reach it, so a header naming another organisation is refused.
 * Each interface answers a refusal in its own format; this module only decides.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { canonicalUuid } from '../../domain/ids.ts';
import type { Caller, Identity } from './identity.ts';

/** Longer than any token we issue (40 characters): not worth hashing. */
const MAX_BEARER = 2048;

export interface Refusal {
  /**
   * 401: no usable credentials for this organisation, a token for another one included (RFC 6750's
   * invalid_token: "invalid for other reasons"; GraphQL AUTH_NOT_AUTHENTICATED, as before this rule);
   * 400: a malformed organisation header.
   */
  status: 400 | 401;
  message: string;
  /** The header at fault. */
  source: 'Authorization' | 'X-Site';
}

export type Authentication = { caller: Caller; refusal?: undefined } | { caller?: undefined; refusal: Refusal };

/** Sage's wording, which clients may match, first; then how to satisfy it. */
export const ORGANISATION_HEADER_MANDATORY =
  'X-OrganizationId header is mandatory: send X-Site (or X-OrganizationId) with the organisation id, the resource_owner_id of the token.';

const refuse = (status: Refusal['status'], source: Refusal['source'], message: string): Authentication => ({ refusal: { status, source, message } });

/** The token of `Authorization: Bearer <token>`; the scheme is case-insensitive (RFC 7235 2.1). */
export function bearerToken(authorization: string | undefined): string | undefined {
  const token = /^bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
  return token && token.length <= MAX_BEARER ? token : undefined;
}

const headerValues = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/**
 * The organisation the request names, in canonical (lower-case) form: ids are compared and used as
 * stream names as text, so `X-Site` in upper case must mean the same organisation for reads and writes.
 */
function namedOrganisation(headers: IncomingHttpHeaders): { id?: string; refusal?: Authentication } {
  const given = [...headerValues(headers['x-site']), ...headerValues(headers['x-organizationid'])].filter((v) => v !== '');
  if (given.length === 0) return {};
  const ids = given.map(canonicalUuid);
  if (ids.includes(undefined)) return { refusal: refuse(400, 'X-Site', 'X-Site (or X-OrganizationId) is not an organisation id: send the UUID the token endpoint gave as resource_owner_id.') };
  if (new Set(ids).size > 1) return { refusal: refuse(400, 'X-Site', 'X-Site and X-OrganizationId name different organisations.') };
  return { id: ids[0] };
}

/**
 * A token sent without any organisation header. GraphQL authenticates with `organisation: 'optional'` (the
 * roots Sage clients call to find their organisation need no header) and refuses every other field with
 * this rule's answer, exactly as 'required' would have (the missing token is still reported first).
 * Sage clients also send `x-api-key` and the deprecated `X-TenantId`: neither is read (accepted, ignored).
 */
export function organisationHeaderMissing(headers: IncomingHttpHeaders): boolean {
  const named = namedOrganisation(headers);
  return bearerToken(headers.authorization) !== undefined && !named.id && !named.refusal;
}

/**
 * The caller of a request, or why not. `organisation: 'required'` for GraphQL and REST (spec 5.1);
 * 'optional' for the event queue, whose requests need no header but may carry one. The missing token
 * is reported before the missing organisation.
 */
export async function authenticateRequest(identity: Identity, headers: IncomingHttpHeaders, organisation: 'required' | 'optional'): Promise<Authentication> {
  const token = bearerToken(headers.authorization);
  if (!token) return refuse(401, 'Authorization', 'The current user is not authenticated: send Authorization: Bearer <access token>.');
  const named = namedOrganisation(headers);
  if (named.refusal) return named.refusal;
  if (!named.id && organisation === 'required') return refuse(401, 'X-Site', ORGANISATION_HEADER_MANDATORY);
  const holder = await identity.bearerCaller(token);
  if (!holder) return refuse(401, 'Authorization', 'The access token is invalid, expired or revoked.');
  if (named.id && named.id !== holder.organisationId) {
    return refuse(401, 'Authorization', `The access token is not valid for this organisation: it serves only organisation ${holder.organisationId}, the one it was issued for (its resource_owner_id).`);
  }
  if (!holder.role) return refuse(401, 'Authorization', 'The access token is not valid for this organisation: its user is no longer a member of it.');
  return { caller: { ...holder, role: holder.role } };
}
