/**
 * Users, organisation memberships, OAuth clients and access tokens. Identity is operational data, not
 * ledger history, so it lives in plain tables. Secrets are stored only as hashes: tokens and client
 * secrets as SHA-256 (they are long random strings), passwords with scrypt (memory-hard, OWASP cost).
 */
import { createHash, randomBytes, randomUUID, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type pg from 'pg';
import { canonicalUuid } from '../../domain/ids.ts';
import { inTransaction } from '../../platform/database.ts';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

export const IDENTITY_LIMITS = Object.freeze({ accessTokenSeconds: 3600, tokenLength: 40 });
/** OWASP: scrypt N=2^17, r=8, p=1. */
const SCRYPT = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 };

export const Role = ['admin', 'accountant', 'viewer'] as const;
export type Role = (typeof Role)[number];
export const Scope = ['readonly', 'full_access'] as const;
export type Scope = (typeof Scope)[number];
export const GrantType = ['authorization_code', 'refresh_token'] as const;
export type GrantType = (typeof GrantType)[number];

/** A pool or a client inside a transaction: the grant operations run in their caller's transaction. */
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

export interface OAuthClient {
  clientId: string;
  name: string;
  secretHash: string | null;
  redirectUris: string[];
  isPublic: boolean;
  grantTypes: GrantType[];
}

export interface Membership {
  organisationId: string;
  role: Role;
  /** From the organisations read model; null while the organisation is not projected yet. */
  name: string | null;
  country: string | null;
}

export const IDENTITY_DDL = `
CREATE TABLE IF NOT EXISTS users (
  id uuid PRIMARY KEY, email text NOT NULL UNIQUE, password_hash text NOT NULL, created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS memberships (
  user_id uuid NOT NULL REFERENCES users(id), organisation_id uuid NOT NULL, role text NOT NULL,
  PRIMARY KEY (user_id, organisation_id)
);
CREATE TABLE IF NOT EXISTS oauth_clients (
  client_id text PRIMARY KEY, name text NOT NULL, secret_hash text, redirect_uris text[] NOT NULL,
  is_public boolean NOT NULL DEFAULT false, created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS access_tokens (
  token_hash text PRIMARY KEY, client_id text NOT NULL REFERENCES oauth_clients(client_id), user_id uuid NOT NULL REFERENCES users(id),
  organisation_id uuid NOT NULL, scope text NOT NULL, expires_at timestamptz NOT NULL, revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- OAuth (api/oauth). Which grants a client may use; the default is the authorization code flow with refresh.
ALTER TABLE oauth_clients ADD COLUMN IF NOT EXISTS grant_types text[] NOT NULL DEFAULT '{authorization_code,refresh_token}';
-- One user's authorization of one client for one organisation: every code, access and refresh token issued
-- from one consent belongs to it, so revoking it (reuse detected, client revoked) reaches all of them.
CREATE TABLE IF NOT EXISTS oauth_grants (
  id uuid PRIMARY KEY, client_id text NOT NULL REFERENCES oauth_clients(client_id), user_id uuid NOT NULL REFERENCES users(id),
  organisation_id uuid NOT NULL, country text NOT NULL, scope text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(), revoked_at timestamptz, revoked_reason text
);
ALTER TABLE access_tokens ADD COLUMN IF NOT EXISTS grant_id uuid REFERENCES oauth_grants(id);
CREATE INDEX IF NOT EXISTS access_tokens_grant ON access_tokens (grant_id) WHERE grant_id IS NOT NULL;
-- Authorization codes: hashed, single use (used_at), bound to client, redirect URI, PKCE challenge and grant.
CREATE TABLE IF NOT EXISTS oauth_codes (
  code_hash text PRIMARY KEY, grant_id uuid NOT NULL REFERENCES oauth_grants(id), client_id text NOT NULL,
  redirect_uri text NOT NULL, code_challenge text, expires_at timestamptz NOT NULL, used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- Refresh tokens: hashed; a rotated one is retired (retired_at) and names its successor, so a duplicate
-- within the grace window can be answered with the same pair and a later reuse detected.
CREATE TABLE IF NOT EXISTS refresh_tokens (
  token_hash text PRIMARY KEY, grant_id uuid NOT NULL REFERENCES oauth_grants(id), expires_at timestamptz NOT NULL,
  retired_at timestamptz, successor_hash text, created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS refresh_tokens_grant ON refresh_tokens (grant_id);
-- A browser's authorization request between the authorize redirect and the consent: the CSRF binding.
CREATE TABLE IF NOT EXISTS oauth_authorization_requests (
  id text PRIMARY KEY, browser_hash text NOT NULL, csrf_hash text NOT NULL,
  client_id text NOT NULL REFERENCES oauth_clients(client_id), redirect_uri text NOT NULL, scope text NOT NULL,
  state text, code_challenge text, user_id uuid REFERENCES users(id),
  expires_at timestamptz NOT NULL, completed_at timestamptz, created_at timestamptz NOT NULL DEFAULT now()
);
-- The OAuth server's own secret (one row), generated on first start: keys the derivation of rotated tokens.
CREATE TABLE IF NOT EXISTS oauth_server_secret (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1), secret bytea NOT NULL, created_at timestamptz NOT NULL DEFAULT now()
);`;

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, key] = stored.split('$');
  if (kind !== 'scrypt') return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, { N: +n, r: +r, p: +p, maxmem: SCRYPT.maxmem });
  return timingSafeEqual(expected, actual);
}

/** 40 characters of URL-safe randomness (240 bits), the length the spec gives for access tokens. */
export const newToken = () => randomBytes(30).toString('base64url');

/** Compares two hex SHA-256 digests in constant time (client secrets). */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** An organisation id from an operator or client in its canonical form (ids are compared as text). */
function organisationIdOf(text: string): string {
  const id = canonicalUuid(text);
  if (!id) throw new Error(`not an organisation id (a UUID): ${text}`);
  return id;
}

/** Verified against when the email is unknown, so sign-in takes as long for unknown and known users. */
let dummyPasswordHash: Promise<string> | undefined;

export interface Caller {
  userId: string;
  clientId: string;
  organisationId: string;
  scope: Scope;
  role: Role;
}

export class Identity {
  constructor(private readonly pool: pg.Pool) {}

  async migrate(): Promise<void> {
    await this.pool.query(IDENTITY_DDL);
  }

  async createUser(organisation: string, email: string, password: string, role: Role): Promise<string> {
    const organisationId = organisationIdOf(organisation);
    const id = randomUUID();
    const hash = await hashPassword(password);
    const { rows } = await this.pool.query(
      `INSERT INTO users (id, email, password_hash) VALUES ($1, $2, $3) ON CONFLICT (email) DO UPDATE SET email = excluded.email RETURNING id`,
      [id, email.toLowerCase(), hash],
    );
    await this.pool.query(
      `INSERT INTO memberships (user_id, organisation_id, role) VALUES ($1, $2, $3) ON CONFLICT (user_id, organisation_id) DO UPDATE SET role = excluded.role`,
      [rows[0].id, organisationId, role],
    );
    return rows[0].id;
  }

  async createClient(
    name: string, redirectUri: string, isPublic: boolean, options: { grantTypes?: GrantType[] } = {},
  ): Promise<{ client_id: string; client_secret: string | null }> {
    const clientId = randomBytes(16).toString('hex');
    const secret = isPublic ? null : randomBytes(32).toString('base64url');
    await this.pool.query(`INSERT INTO oauth_clients (client_id, name, secret_hash, redirect_uris, is_public, grant_types) VALUES ($1, $2, $3, $4, $5, $6)`, [
      clientId, name, secret ? sha256(secret) : null, [redirectUri], isPublic, options.grantTypes ?? [...GrantType],
    ]);
    return { client_id: clientId, client_secret: secret };
  }

  async findClient(clientId: string): Promise<OAuthClient | undefined> {
    const { rows } = await this.pool.query(
      `SELECT client_id, name, secret_hash, redirect_uris, is_public, grant_types FROM oauth_clients WHERE client_id = $1`, [clientId],
    );
    const r = rows[0];
    if (!r) return undefined;
    return { clientId: r.client_id, name: r.name, secretHash: r.secret_hash, redirectUris: r.redirect_uris, isPublic: r.is_public, grantTypes: r.grant_types };
  }

  /** The user id when email and password match, else undefined (in about the same time either way). */
  async checkPassword(email: string, password: string): Promise<string | undefined> {
    const { rows } = await this.pool.query(`SELECT id, password_hash FROM users WHERE email = $1`, [email.trim().toLowerCase()]);
    if (rows.length === 0) {
      dummyPasswordHash ??= hashPassword(randomBytes(16).toString('hex'));
      await verifyPassword(password, await dummyPasswordHash);
      return undefined;
    }
    return (await verifyPassword(password, rows[0].password_hash)) ? rows[0].id : undefined;
  }

  /** A user's sign-in e-mail (what `userProfile` shows), or undefined for an unknown id. */
  async userEmail(userId: string): Promise<string | undefined> {
    const { rows } = await this.pool.query(`SELECT email FROM users WHERE id = $1`, [userId]);
    return rows[0]?.email;
  }

  /** The organisations a user belongs to, with name and country from the organisations read model. */
  async memberships(userId: string): Promise<Membership[]> {
    const { rows } = await this.pool.query(
      `SELECT m.organisation_id, m.role, o.name, o.country FROM memberships m LEFT JOIN organisations o ON o.id = m.organisation_id
       WHERE m.user_id = $1 ORDER BY o.name NULLS LAST, m.organisation_id`,
      [userId],
    );
    return rows.map((r) => ({ organisationId: r.organisation_id, role: r.role, name: r.name, country: r.country }));
  }

  /**
   * Revokes a grant and every access token issued under it (refresh tokens die with the grant: they are
   * only honoured while it is live). Takes the grant's row lock first, so a concurrent refresh either
   * completes before (and its new tokens are revoked here) or sees the grant revoked.
   */
  async revokeGrant(grantId: string, reason: string, db?: Queryable): Promise<void> {
    if (!db) return inTransaction(this.pool, (tx) => this.revokeGrant(grantId, reason, tx));
    await db.query(`UPDATE oauth_grants SET revoked_at = coalesce(revoked_at, now()), revoked_reason = coalesce(revoked_reason, $2) WHERE id = $1`, [grantId, reason]);
    await db.query(`UPDATE access_tokens SET revoked_at = now() WHERE grant_id = $1 AND revoked_at IS NULL`, [grantId]);
  }

  /** Issues an access token straight from the token table (operator CLI and demo; OAuth uses the same table). */
  async issueToken(organisation: string, email: string, clientId: string, scope: Scope) {
    const organisationId = organisationIdOf(organisation);
    const { rows } = await this.pool.query(
      `SELECT u.id FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.email = $1 AND m.organisation_id = $2`,
      [email.toLowerCase(), organisationId],
    );
    if (rows.length === 0) throw new Error(`${email} is not a member of organisation ${organisationId}`);
    const client = await this.pool.query(`SELECT 1 FROM oauth_clients WHERE client_id = $1`, [clientId]);
    if (client.rows.length === 0) throw new Error(`unknown client ${clientId}`);
    const token = newToken();
    await this.pool.query(
      `INSERT INTO access_tokens (token_hash, client_id, user_id, organisation_id, scope, expires_at) VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [sha256(token), clientId, rows[0].id, organisationId, scope, IDENTITY_LIMITS.accessTokenSeconds],
    );
    return { access_token: token, scopes: scope, scope, token_type: 'Bearer', expires_in: IDENTITY_LIMITS.accessTokenSeconds, refresh_token: null, resource_owner_id: organisationId };
  }

  /**
   * The caller behind a live bearer token, in the token's own organisation (`organisation_id`, the
   * `resource_owner_id` it was issued with): a token serves that organisation only. The role is the
   * user's there now; null once the user is no longer a member. api/auth/request.ts decides from it.
   */
  async bearerCaller(token: string): Promise<TokenCaller | undefined> {
    const { rows } = await this.pool.query(
      `SELECT t.user_id, t.client_id, t.organisation_id, t.scope, m.role FROM access_tokens t
       LEFT JOIN memberships m ON m.user_id = t.user_id AND m.organisation_id = t.organisation_id
       WHERE ${LIVE_TOKEN}`,
      [sha256(token)],
    );
    const r = rows[0];
    return r ? { userId: r.user_id, clientId: r.client_id, organisationId: r.organisation_id, scope: r.scope, role: r.role } : undefined;
  }
}

/** A token is live while unrevoked and unexpired ($1 = its hash). */
const LIVE_TOKEN = `t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > now()`;

/** A live token's holder: a Caller once its user is still a member of the token's organisation. */
export type TokenCaller = Omit<Caller, 'role'> & { role: Role | null };
