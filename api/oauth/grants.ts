/**
 * Grants, codes and tokens: what the token and revocation endpoints do to the database.
 *
 * - A consent creates a grant and one authorization code (hashed, 60 s, single use, bound to client,
 *   redirect URI, PKCE challenge). The code's first presentation at its country group's endpoint spends
 *   it whatever the outcome (one guess at the verifier); a second presentation revokes the grant, so
 *   every token issued from the code dies (RFC 6749 4.1.2).
 * - A refresh rotates: the old refresh token is retired and names its successor. Presenting a retired
 *   token is reuse and revokes the grant (RFC 9700 4.14.2), except within the grace window while its
 *   successor is unused: a concurrent duplicate then gets the same pair, derived again (secret.ts).
 * - Changes to one grant are serialised by locking its row, so a refresh racing a revocation cannot
 *   leave a live token behind, and two racing refreshes cannot both rotate.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { inTransaction } from '../../platform/database.ts';
import { newToken, sha256, type Identity, type OAuthClient, type Scope } from '../auth/identity.ts';
import { OAuthError } from './errors.ts';
import { regionOf, tokenPath, revokePath, type Region } from './regions.ts';
import { deriveToken } from './secret.ts';
import type { OAuthSettings } from './settings.ts';

export interface IssuedTokens {
  accessToken: string;
  /** Absent when the client may not use the refresh_token grant. */
  refreshToken?: string;
  scope: Scope;
  expiresIn: number;
  organisationId: string;
}

interface GrantRow {
  id: string;
  client_id: string;
  user_id: string;
  organisation_id: string;
  country: string;
  scope: Scope;
  revoked_at: Date | null;
}

const GRANT_COLUMNS = 'g.id, g.client_id, g.user_id, g.organisation_id, g.country, g.scope, g.revoked_at';

/** RFC 7636 4.2: BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge. */
function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** A token's organisation answers only at its country group's endpoints. */
function wrongRegion(country: string, region: Region, what: string, path: (r: Region) => string): string | undefined {
  const home = regionOf(country);
  if (home === region) return undefined;
  return home
    ? `The ${what} belongs to an organisation in ${country}; use ${path(home)}.`
    : `The ${what} belongs to an organisation in ${country}, which no country group serves.`;
}

/** A refused request whose refusal must still be committed (a spent code, a revoked grant). */
type Outcome = { tokens: IssuedTokens } | { error: OAuthError };
const refuse = (error: OAuthError['error'], description: string): Outcome => ({ error: new OAuthError(error, description) });
const unwrap = (o: Outcome): IssuedTokens => {
  if ('error' in o) throw o.error;
  return o.tokens;
};

export class GrantStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly identity: Identity,
    private readonly secret: Buffer,
    private readonly settings: OAuthSettings,
  ) {}

  /** On consent: the grant and its single authorization code. */
  async createCode(g: {
    clientId: string; userId: string; organisationId: string; country: string; scope: Scope; redirectUri: string; codeChallenge: string | null;
  }): Promise<string> {
    const code = newToken();
    await inTransaction(this.pool, async (tx) => {
      const grantId = randomUUID();
      await tx.query(`INSERT INTO oauth_grants (id, client_id, user_id, organisation_id, country, scope) VALUES ($1, $2, $3, $4, $5, $6)`, [
        grantId, g.clientId, g.userId, g.organisationId, g.country, g.scope,
      ]);
      await tx.query(
        `INSERT INTO oauth_codes (code_hash, grant_id, client_id, redirect_uri, code_challenge, expires_at) VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
        [sha256(code), grantId, g.clientId, g.redirectUri, g.codeChallenge, this.settings.codeTtlSeconds],
      );
    });
    return code;
  }

  /** The authorization_code grant (RFC 6749 4.1.3, RFC 7636 4.6). */
  async exchangeCode(r: { code: string; client: OAuthClient; redirectUri: string; codeVerifier: string | undefined; region: Region }): Promise<IssuedTokens> {
    const outcome = await inTransaction(this.pool, async (tx): Promise<Outcome> => {
      const { rows } = await tx.query(
        `SELECT c.code_hash, c.client_id AS code_client_id, c.redirect_uri, c.code_challenge, c.used_at, c.expires_at <= now() AS expired, ${GRANT_COLUMNS}
         FROM oauth_codes c JOIN oauth_grants g ON g.id = c.grant_id WHERE c.code_hash = $1 FOR UPDATE OF c, g`,
        [sha256(r.code)],
      );
      const row = rows[0];
      if (!row) return refuse('invalid_grant', 'The authorization code is unknown.');
      if (row.used_at) {
        await this.identity.revokeGrant(row.id, 'authorization code reused', tx);
        return refuse('invalid_grant', 'The authorization code was already used; every token issued from it is now revoked.');
      }
      // The wrong country group is a routing mistake, not an attack on the code: it leaves the code unspent.
      const misplaced = wrongRegion(row.country, r.region, 'authorization code', tokenPath);
      if (misplaced) return refuse('invalid_grant', misplaced);
      await tx.query(`UPDATE oauth_codes SET used_at = now() WHERE code_hash = $1`, [row.code_hash]);
      if (row.expired) return refuse('invalid_grant', `The authorization code has expired (codes live ${this.settings.codeTtlSeconds} s).`);
      if (row.code_client_id !== r.client.clientId) return refuse('invalid_grant', 'The authorization code was issued to another client.');
      if (row.redirect_uri !== r.redirectUri) return refuse('invalid_grant', 'redirect_uri differs from the one of the authorization request.');
      if (row.code_challenge && !r.codeVerifier) return refuse('invalid_grant', 'code_verifier is missing (the authorization request sent a code_challenge).');
      if (!row.code_challenge && r.codeVerifier) return refuse('invalid_grant', 'code_verifier sent, but the authorization request had no code_challenge.');
      if (row.code_challenge && !pkceMatches(r.codeVerifier!, row.code_challenge)) return refuse('invalid_grant', 'code_verifier does not match the code_challenge (S256).');
      if (row.revoked_at) return refuse('invalid_grant', 'The authorization was revoked.');
      const refreshToken = r.client.grantTypes.includes('refresh_token') ? newToken() : undefined;
      return { tokens: await this.issue(tx, row, newToken(), refreshToken, row.scope) };
    });
    return unwrap(outcome);
  }

  /** The refresh_token grant with rotation, reuse detection and the grace window (RFC 6749 6, RFC 9700 4.14). */
  async refresh(r: { refreshToken: string; client: OAuthClient; region: Region; scope: Scope | undefined }): Promise<IssuedTokens> {
    const hash = sha256(r.refreshToken);
    const found = await this.pool.query(`SELECT grant_id FROM refresh_tokens WHERE token_hash = $1`, [hash]);
    if (found.rows.length === 0) throw new OAuthError('invalid_grant', 'The refresh token is unknown.');
    const outcome = await inTransaction(this.pool, async (tx): Promise<Outcome> => {
      // The grant's lock first; only then read the token, so a racing rotation is seen once committed.
      const grant: GrantRow = (await tx.query(`SELECT ${GRANT_COLUMNS} FROM oauth_grants g WHERE g.id = $1 FOR UPDATE`, [found.rows[0].grant_id])).rows[0];
      const token = (
        await tx.query(
          `SELECT expires_at <= now() AS expired, retired_at, successor_hash, now() - retired_at <= make_interval(secs => $2) AS in_grace
           FROM refresh_tokens WHERE token_hash = $1`,
          [hash, this.settings.refreshGraceSeconds],
        )
      ).rows[0];
      if (!token) return refuse('invalid_grant', 'The refresh token is unknown.'); // swept meanwhile
      if (grant.client_id !== r.client.clientId) return refuse('invalid_grant', 'The refresh token was not issued to this client.');
      if (grant.revoked_at) return refuse('invalid_grant', 'The refresh token is revoked; the user must authorize again.');
      const misplaced = wrongRegion(grant.country, r.region, 'refresh token', tokenPath);
      if (misplaced) return refuse('invalid_grant', misplaced);
      if (token.retired_at) {
        if (token.in_grace) {
          const again = await this.sameRotation(tx, r.refreshToken, token.successor_hash, grant);
          if (again) return { tokens: again };
        }
        await this.identity.revokeGrant(grant.id, 'refresh token reused', tx);
        return refuse('invalid_grant', 'The refresh token was already used; the authorization is revoked and the user must authorize again.');
      }
      if (token.expired) return refuse('invalid_grant', 'The refresh token has expired; the user must authorize again.');
      if (r.scope && r.scope !== grant.scope && !(r.scope === 'readonly' && grant.scope === 'full_access')) {
        return refuse('invalid_scope', `The authorization grants ${grant.scope}; a refresh cannot widen it to ${r.scope}.`);
      }
      const next = deriveToken(this.secret, r.refreshToken, 'refresh');
      const tokens = await this.issue(tx, grant, deriveToken(this.secret, r.refreshToken, 'access'), next, r.scope ?? grant.scope);
      await tx.query(`UPDATE refresh_tokens SET retired_at = now(), successor_hash = $2 WHERE token_hash = $1`, [hash, sha256(next)]);
      return { tokens };
    });
    return unwrap(outcome);
  }

  /**
   * Within the grace window: the pair this refresh token was rotated into, derived again, provided the
   * successor refresh token is still unused and the access token live; otherwise undefined (reuse).
   */
  private async sameRotation(tx: pg.PoolClient, oldRefresh: string, successorHash: string, grant: GrantRow): Promise<IssuedTokens | undefined> {
    const refreshToken = deriveToken(this.secret, oldRefresh, 'refresh');
    const accessToken = deriveToken(this.secret, oldRefresh, 'access');
    if (sha256(refreshToken) !== successorHash) return undefined;
    const { rows } = await tx.query(
      `SELECT a.scope, GREATEST(0, floor(extract(epoch FROM a.expires_at - now())))::int AS expires_in
       FROM access_tokens a JOIN refresh_tokens r ON r.token_hash = $2
       WHERE a.token_hash = $1 AND a.revoked_at IS NULL AND a.expires_at > now() AND r.retired_at IS NULL AND r.expires_at > now()`,
      [sha256(accessToken), successorHash],
    );
    if (rows.length === 0) return undefined;
    return { accessToken, refreshToken, scope: rows[0].scope, expiresIn: rows[0].expires_in, organisationId: grant.organisation_id };
  }

  private async issue(tx: pg.PoolClient, grant: GrantRow, accessToken: string, refreshToken: string | undefined, scope: Scope): Promise<IssuedTokens> {
    const s = this.settings;
    await tx.query(
      `INSERT INTO access_tokens (token_hash, client_id, user_id, organisation_id, scope, expires_at, grant_id)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6), $7)`,
      [sha256(accessToken), grant.client_id, grant.user_id, grant.organisation_id, scope, s.accessTokenSeconds, grant.id],
    );
    if (refreshToken) {
      await tx.query(`INSERT INTO refresh_tokens (token_hash, grant_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`, [
        sha256(refreshToken), grant.id, s.refreshTokenSeconds,
      ]);
    }
    return { accessToken, refreshToken, scope, expiresIn: s.accessTokenSeconds, organisationId: grant.organisation_id };
  }

  /**
   * RFC 7009. A refresh token or an access token of a grant revokes the whole grant: the spec (5.5) has
   * the user authorize again after a revocation. An access token issued outside OAuth (operator CLI,
   * demo) is revoked alone. Unknown tokens are not an error (RFC 7009 2.2).
   */
  async revoke(r: { token: string; client: OAuthClient; region: Region }): Promise<void> {
    const hash = sha256(r.token);
    const viaRefresh = await this.pool.query(
      `SELECT g.id, g.client_id, g.country FROM refresh_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.token_hash = $1`, [hash],
    );
    const viaAccess = viaRefresh.rows.length
      ? viaRefresh
      : await this.pool.query(
          `SELECT a.grant_id AS id, a.client_id, coalesce(g.country, o.country) AS country FROM access_tokens a
           LEFT JOIN oauth_grants g ON g.id = a.grant_id LEFT JOIN organisations o ON o.id = a.organisation_id
           WHERE a.token_hash = $1`,
          [hash],
        );
    const row = viaAccess.rows[0];
    if (!row) return;
    if (row.client_id !== r.client.clientId) throw new OAuthError('invalid_request', 'The token was not issued to this client.');
    const misplaced = row.country ? wrongRegion(row.country, r.region, 'token', revokePath) : undefined;
    if (misplaced) throw new OAuthError('invalid_request', misplaced);
    if (row.id) await this.identity.revokeGrant(row.id, 'revoked by the client');
    else await this.pool.query(`UPDATE access_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE token_hash = $1`, [hash]);
  }

  /** Forgets what can no longer matter: answered or abandoned requests, long-expired codes and refresh tokens. */
  async sweep(): Promise<void> {
    await this.pool.query(`DELETE FROM oauth_authorization_requests WHERE expires_at < now() - interval '1 hour'`);
    await this.pool.query(`DELETE FROM oauth_codes WHERE expires_at < now() - interval '1 day'`);
    await this.pool.query(`DELETE FROM refresh_tokens WHERE expires_at < now() - interval '1 day'`);
  }
}
