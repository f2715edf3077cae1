/**
 * Pending authorization requests: what the application asked for, kept server-side between the
 * authorize redirect and the consent so the forms carry nothing but an id and a CSRF token.
 *
 * CSRF: a form post is honoured only when (1) its `csrf` field matches the request's current token
 * (stored hashed; a new one after sign-in) and (2) the browser presents the cookie the request was
 * opened with. (1) stops a foreign site posting the forms; (2) stops an attacker from opening a request
 * and having a victim finish it (login CSRF). Requests expire and complete once.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { sameHash, sha256, type Scope } from '../auth/identity.ts';

export interface PendingRequest {
  id: string;
  clientId: string;
  redirectUri: string;
  scope: Scope;
  state: string | null;
  codeChallenge: string | null;
  userId: string | null;
}

export type Stage = 'sign_in' | 'consent';
export type RequestCheck = { ok: true; request: PendingRequest } | { ok: false; problem: 'expired' | 'forged' | 'stage' };

const random = (bytes: number) => randomBytes(bytes).toString('base64url');
/** Cookie values we issue are 43 base64url characters; anything else is ignored and replaced. */
export const isBrowserCookie = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
export const newBrowserCookie = () => random(32);

export class AuthorizationRequests {
  constructor(private readonly pool: pg.Pool, private readonly lifetimeSeconds: number) {}

  async open(browserCookie: string, r: Omit<PendingRequest, 'id' | 'userId'>): Promise<{ id: string; csrf: string }> {
    const id = random(24);
    const csrf = random(32);
    await this.pool.query(
      `INSERT INTO oauth_authorization_requests (id, browser_hash, csrf_hash, client_id, redirect_uri, scope, state, code_challenge, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(secs => $9))`,
      [id, sha256(browserCookie), sha256(csrf), r.clientId, r.redirectUri, r.scope, r.state, r.codeChallenge, this.lifetimeSeconds],
    );
    return { id, csrf };
  }

  /** The request behind a form post, when it is live, in the expected stage, and the post is genuine. */
  async check(id: unknown, browserCookie: unknown, csrf: unknown, stage: Stage): Promise<RequestCheck> {
    if (typeof id !== 'string' || id.length > 64) return { ok: false, problem: 'expired' };
    const { rows } = await this.pool.query(
      `SELECT id, browser_hash, csrf_hash, client_id, redirect_uri, scope, state, code_challenge, user_id
       FROM oauth_authorization_requests WHERE id = $1 AND expires_at > now() AND completed_at IS NULL`,
      [id],
    );
    const row = rows[0];
    if (!row) return { ok: false, problem: 'expired' };
    if (!isBrowserCookie(browserCookie) || !sameHash(sha256(browserCookie), row.browser_hash)) return { ok: false, problem: 'forged' };
    if (typeof csrf !== 'string' || csrf.length > 64 || !sameHash(sha256(csrf), row.csrf_hash)) return { ok: false, problem: 'forged' };
    if ((row.user_id === null) !== (stage === 'sign_in')) return { ok: false, problem: 'stage' };
    return {
      ok: true,
      request: { id: row.id, clientId: row.client_id, redirectUri: row.redirect_uri, scope: row.scope, state: row.state, codeChallenge: row.code_challenge, userId: row.user_id },
    };
  }

  /** Records who signed in and returns a fresh CSRF token for the consent form. */
  async signedIn(id: string, userId: string): Promise<string> {
    const csrf = random(32);
    await this.pool.query(`UPDATE oauth_authorization_requests SET user_id = $2, csrf_hash = $3 WHERE id = $1`, [id, userId, sha256(csrf)]);
    return csrf;
  }

  /** Marks the request answered; false when it already was (a double submit must not mint two codes). */
  async complete(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(`UPDATE oauth_authorization_requests SET completed_at = now() WHERE id = $1 AND completed_at IS NULL`, [id]);
    return rowCount === 1;
  }
}
