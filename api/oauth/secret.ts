/**
 * The server secret and the deterministic derivation of rotated tokens.
 *
 * Why: when a client refreshes twice at once with the same refresh token (two processes), both must
 * get the same new pair, but we store no token in plaintext. Deriving the pair as
 * HMAC-SHA256(secret, purpose || old refresh token) lets the second request recompute it: only someone
 * holding the old refresh token (and the server, holding the secret) can.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { IDENTITY_LIMITS } from '../auth/identity.ts';

/** Generated once per database and kept there, so every instance of the service derives alike. */
export async function loadServerSecret(pool: pg.Pool): Promise<Buffer> {
  await pool.query(`INSERT INTO oauth_server_secret (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING`, [randomBytes(32)]);
  const { rows } = await pool.query(`SELECT secret FROM oauth_server_secret WHERE id = 1`);
  return rows[0].secret as Buffer;
}

export type DerivedPurpose = 'access' | 'refresh';

/** A 40-character token (30 bytes of the HMAC, base64url) determined by the old refresh token. */
export function deriveToken(secret: Buffer, oldRefreshToken: string, purpose: DerivedPurpose): string {
  const bytes = (IDENTITY_LIMITS.tokenLength * 3) / 4; // base64url: 4 characters per 3 bytes
  return createHmac('sha256', secret).update(`rotate:${purpose}:`).update(oldRefreshToken).digest().subarray(0, bytes).toString('base64url');
}
