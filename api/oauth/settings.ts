/**
 * Every lifetime and limit of the authorization server in one place. Defaults follow the spec and
 * RFC 9700; each can be changed by environment variable (OAUTH_*, read by platform/config.ts) or by the
 * plugin's `settings` option (tests shorten the code lifetime so they need not wait a minute).
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

/** Changes to the defaults (config.ts reads them from OAUTH_*; tests shorten lifetimes); each rate limit on its own. */
export type OAuthOverrides = Partial<Omit<OAuthSettings, 'rateLimits'>> & { rateLimits?: Partial<OAuthSettings['rateLimits']> };

/** The defaults with `overrides` applied. */
export function oauthSettings(overrides: OAuthOverrides = {}): OAuthSettings {
  const d = DEFAULT_OAUTH_SETTINGS;
  return { ...d, ...overrides, rateLimits: { ...d.rateLimits, ...overrides.rateLimits } };
}
