/** The caller behind a bearer token alone (event queue requests carry no X-Site: the token's organisation). */
import type pg from 'pg';
import { sha256 } from './identity.ts';

export interface TokenHolder {
  clientId: string;
  userId: string;
  organisationId: string;
  scope: string;
}

export async function tokenHolder(pool: pg.Pool, authorization: string | undefined): Promise<TokenHolder | undefined> {
  const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  if (!token) return undefined;
  const { rows } = await pool.query(
    `SELECT client_id, user_id, organisation_id, scope FROM access_tokens WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()`,
    [sha256(token)],
  );
  const r = rows[0];
  return r ? { clientId: r.client_id, userId: r.user_id, organisationId: r.organisation_id, scope: r.scope } : undefined;
}
