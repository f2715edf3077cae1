/**
 * Users, organisation memberships, OAuth clients and access tokens. Identity is operational data, not
 * ledger history, so it lives in plain tables. Secrets are stored only as hashes: tokens and client
 * secrets as SHA-256 (they are long random strings), passwords with scrypt (memory-hard, OWASP cost).
 */
import { createHash, randomBytes, randomUUID, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type pg from 'pg';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

export const IDENTITY_LIMITS = Object.freeze({ accessTokenSeconds: 3600, tokenLength: 40 });
/** OWASP: scrypt N=2^17, r=8, p=1. */
const SCRYPT = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 };

export const Role = ['admin', 'accountant', 'viewer'] as const;
export type Role = (typeof Role)[number];
export const Scope = ['readonly', 'full_access'] as const;
export type Scope = (typeof Scope)[number];

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

  async createUser(organisationId: string, email: string, password: string, role: Role): Promise<string> {
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

  async createClient(name: string, redirectUri: string, isPublic: boolean): Promise<{ client_id: string; client_secret: string | null }> {
    const clientId = randomBytes(16).toString('hex');
    const secret = isPublic ? null : randomBytes(32).toString('base64url');
    await this.pool.query(`INSERT INTO oauth_clients (client_id, name, secret_hash, redirect_uris, is_public) VALUES ($1, $2, $3, $4, $5)`, [
      clientId, name, secret ? sha256(secret) : null, [redirectUri], isPublic,
    ]);
    return { client_id: clientId, client_secret: secret };
  }

  /** Issues an access token straight from the token table (operator CLI and demo; OAuth uses the same table). */
  async issueToken(organisationId: string, email: string, clientId: string, scope: Scope) {
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
   * The caller behind a bearer token acting in `site` (the X-Site organisation): the token must be
   * live and its user a member of that organisation.
   */
  async authenticate(token: string, site: string): Promise<Caller | undefined> {
    const { rows } = await this.pool.query(
      `SELECT t.user_id, t.client_id, t.scope, m.role FROM access_tokens t
       JOIN memberships m ON m.user_id = t.user_id AND m.organisation_id = $2
       WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > now()`,
      [sha256(token), site],
    );
    if (rows.length === 0) return undefined;
    return { userId: rows[0].user_id, clientId: rows[0].client_id, organisationId: site, scope: rows[0].scope, role: rows[0].role };
  }
}
