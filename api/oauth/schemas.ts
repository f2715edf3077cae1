/**
 * The schemas the OAuth endpoints declare, for the OpenAPI document (api/openapi.ts: they describe; the
 * handlers check, answering RFC 6749 errors in JSON for clients and HTML pages for the browser).
 */
type Schema = Record<string, unknown>;

const FORM = ['application/x-www-form-urlencoded'];
const text = { type: 'string' };
const page = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const redirect = (description: string) => ({ description });
const scope = { type: 'string', enum: ['readonly', 'full_access'] };

/** RFC 6749 5.2's error object (and 429's `too_many_requests`, with Retry-After). */
const OAUTH_ERROR = {
  description: 'RFC 6749 5.2: invalid_client is 401 (with WWW-Authenticate after HTTP Basic), too_many_requests 429 with Retry-After.',
  type: 'object',
  required: ['error', 'error_description'],
  properties: {
    error: { type: 'string', enum: ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope', 'server_error', 'too_many_requests'] },
    error_description: text,
  },
};

/** Spec 5.3's token object. */
const TOKEN = {
  type: 'object',
  required: ['access_token', 'scopes', 'scope', 'token_type', 'expires_in', 'resource_owner_id'],
  properties: {
    access_token: text,
    scopes: scope,
    scope,
    token_type: { type: 'string', enum: ['Bearer'] },
    expires_in: { type: 'integer', minimum: 0 },
    refresh_token: text,
    resource_owner_id: { type: 'string', format: 'uuid', description: 'The organisation: send it as X-Site.' },
  },
};

const CLIENT_FIELDS = {
  client_id: { type: 'string', description: 'With client_secret, or alone for a public client; or HTTP Basic instead.' },
  client_secret: text,
};

function clientRoute(summary: string, body: Schema, ok: Record<number, Schema>): Schema {
  return {
    tags: ['oauth'],
    summary,
    consumes: FORM,
    security: [{ clientBasic: [] }, {}],
    body,
    response: { ...ok, '4xx': OAUTH_ERROR, '5xx': OAUTH_ERROR },
  };
}

export const TOKEN_ROUTE = clientRoute('Exchanges an authorization code, or a refresh token, for tokens (at the organisation\'s country group).', {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
    code: text,
    redirect_uri: text,
    code_verifier: { type: 'string', pattern: '^[A-Za-z0-9._~-]{43,128}$' },
    refresh_token: text,
    scope,
    ...CLIENT_FIELDS,
  },
}, { 200: TOKEN });

export const REVOKE_ROUTE = clientRoute('Revokes a token (RFC 7009); unknown tokens too answer 204.', {
  type: 'object', required: ['token'], properties: { token: text, token_type_hint: text, ...CLIENT_FIELDS },
}, { 204: { description: 'Revoked (or never known).', type: 'null' } });

const BROWSER = { tags: ['oauth'] };
const FAILED_PAGE = page('The request cannot go on: an error page (never a redirect before the client and redirect_uri are known good).');
const TOO_MANY = page('Too many attempts: an error page, with Retry-After.');

export const AUTHORIZE_ROUTE = {
  ...BROWSER,
  summary: 'Starts the authorization code flow: shows the sign-in page.',
  querystring: {
    type: 'object',
    required: ['response_type', 'client_id', 'redirect_uri'],
    properties: {
      response_type: { type: 'string', enum: ['code'] },
      client_id: text,
      redirect_uri: { type: 'string', description: 'Exactly one of the URIs registered for the client.' },
      scope: { ...scope, default: 'readonly' },
      scopes: { ...scope, description: 'The same as scope (the spec\'s name); send one.' },
      state: { type: 'string', maxLength: 1024 },
      code_challenge: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$', description: 'PKCE S256; required for public clients.' },
      code_challenge_method: { type: 'string', enum: ['S256'] },
    },
  },
  response: {
    200: page('The sign-in page.'),
    302: redirect('Back to redirect_uri with error, error_description and state.'),
    400: FAILED_PAGE,
    429: TOO_MANY,
  },
};

const PENDING = { request: text, csrf: text };

export const SIGN_IN_ROUTE = {
  ...BROWSER,
  summary: 'The sign-in form: email and password; shows the consent page.',
  consumes: FORM,
  body: { type: 'object', required: ['request', 'csrf', 'email', 'password'], properties: { ...PENDING, email: text, password: text } },
  response: {
    200: page('The consent page, or the sign-in page again after a wrong email or password.'),
    303: redirect('Back to redirect_uri with an error (access_denied, server_error, ...).'),
    400: FAILED_PAGE,
    403: page('The form was not sent from the page this browser opened (CSRF).'),
    429: TOO_MANY,
  },
};

export const CONSENT_ROUTE = {
  ...BROWSER,
  summary: 'The consent form: allow (for one of the user\'s organisations) or deny.',
  consumes: FORM,
  body: {
    type: 'object',
    required: ['request', 'csrf', 'decision'],
    properties: { ...PENDING, decision: { type: 'string', enum: ['approve', 'deny'] }, organisation: { type: 'string', format: 'uuid', description: 'Required to approve.' } },
  },
  response: {
    303: redirect('Back to redirect_uri: code, country and state when allowed; error=access_denied when denied.'),
    400: FAILED_PAGE,
    403: page('The form was not sent from the page this browser opened (CSRF).'),
    429: TOO_MANY,
  },
};
