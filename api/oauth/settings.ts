/**
 * Every lifetime and limit of the authorization server in one place. Defaults follow the spec and
 * RFC 9700; each can be changed by environment variable or by the plugin's `settings` option (tests
 * shorten the code lifetime so they need not wait a minute).
 */
import { IDENTITY_LIMITS } from '../auth/identity.ts';

export interface OAuthSettings {
  /** Authorization codes live 60 s (spec and RFC 6749 4.1.2: short-lived, 10 minutes at most). */
  codeTtlSeconds: number;
  /** Access tokens: the lifetime the rest of the service already issues. */
  accessTokenSeconds: number;
  /** A refresh token stays usable this long after it was issued; each rotation starts a new period. */
  refreshTokenSeconds: number;
  /**
   * After a rotation, the retired refresh token is answered with the same new pair for this long, so
   * two processes of one client refreshing at once both succeed. Past it, presenting it is reuse.
   */
  refreshGraceSeconds: number;
  /** Time a person has between the authorize redirect and the consent (sign-in form, consent form). */
  authorizationRequestSeconds: number;
  /** Requests per minute; each limiter answers 429 once its key exceeds its number. */
  rateLimits: {
    /** Sign-in attempts per IP address and email: password guessing against one account. */
    signInPerEmail: number;
    /** Sign-in attempts per IP address over all emails: guessing across accounts. */
    signInPerIp: number;
    /** Authorize page loads and consent posts per IP address (each load stores a request row). */
    authorizePerIp: number;
    /** Token requests of a client authenticated by its secret (client-requests.ts): flooding by one client. */
    tokenPerClient: number;
    /** Token requests per IP address of no authenticated client (failed client authentication, public clients). */
    tokenUnauthenticatedPerIp: number;
    /** Revocation requests of a client authenticated by its secret. */
    revokePerClient: number;
    /** Revocation requests per IP address of no authenticated client. */
    revokeUnauthenticatedPerIp: number;
  };
}

export const DEFAULT_OAUTH_SETTINGS: OAuthSettings = Object.freeze({
  codeTtlSeconds: 60,
  accessTokenSeconds: IDENTITY_LIMITS.accessTokenSeconds,
  refreshTokenSeconds: 30 * 24 * 3600,
  refreshGraceSeconds: 10,
  authorizationRequestSeconds: 600,
  rateLimits: Object.freeze({ signInPerEmail: 10, signInPerIp: 100, authorizePerIp: 120, tokenPerClient: 60, tokenUnauthenticatedPerIp: 60, revokePerClient: 60, revokeUnauthenticatedPerIp: 60 }),
});

/** The window of every rate limit. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

function envInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return n;
}

/** Defaults, then environment (OAUTH_*), then explicit overrides. */
export function oauthSettings(overrides: Partial<OAuthSettings> = {}, env = process.env): OAuthSettings {
  const d = DEFAULT_OAUTH_SETTINGS;
  const r = d.rateLimits;
  const fromEnv: OAuthSettings = {
    codeTtlSeconds: envInt(env, 'OAUTH_CODE_TTL_SECONDS', d.codeTtlSeconds),
    accessTokenSeconds: envInt(env, 'OAUTH_ACCESS_TOKEN_SECONDS', d.accessTokenSeconds),
    refreshTokenSeconds: envInt(env, 'OAUTH_REFRESH_TOKEN_SECONDS', d.refreshTokenSeconds),
    refreshGraceSeconds: envInt(env, 'OAUTH_REFRESH_GRACE_SECONDS', d.refreshGraceSeconds),
    authorizationRequestSeconds: envInt(env, 'OAUTH_AUTHORIZATION_REQUEST_SECONDS', d.authorizationRequestSeconds),
    rateLimits: {
      signInPerEmail: envInt(env, 'OAUTH_SIGNIN_PER_EMAIL_PER_MINUTE', r.signInPerEmail),
      signInPerIp: envInt(env, 'OAUTH_SIGNIN_PER_IP_PER_MINUTE', r.signInPerIp),
      authorizePerIp: envInt(env, 'OAUTH_AUTHORIZE_PER_IP_PER_MINUTE', r.authorizePerIp),
      tokenPerClient: envInt(env, 'OAUTH_TOKEN_PER_CLIENT_PER_MINUTE', r.tokenPerClient),
      tokenUnauthenticatedPerIp: envInt(env, 'OAUTH_TOKEN_UNAUTHENTICATED_PER_IP_PER_MINUTE', r.tokenUnauthenticatedPerIp),
      revokePerClient: envInt(env, 'OAUTH_REVOKE_PER_CLIENT_PER_MINUTE', r.revokePerClient),
      revokeUnauthenticatedPerIp: envInt(env, 'OAUTH_REVOKE_UNAUTHENTICATED_PER_IP_PER_MINUTE', r.revokeUnauthenticatedPerIp),
    },
  };
  return { ...fromEnv, ...overrides, rateLimits: { ...fromEnv.rateLimits, ...overrides.rateLimits } };
}
