/**
 * Client authentication at the token and revocation endpoints (RFC 6749 2.3): HTTP Basic or
 * client_id/client_secret in the body, never both. Public clients send their client_id alone (they
 * prove possession through PKCE instead). Secrets are compared as SHA-256 digests in constant time.
 */
import { sameHash, sha256, type Identity, type OAuthClient } from '../auth/identity.ts';
import { OAuthError } from './errors.ts';

const MAX_CLIENT_ID = 128;
const MAX_CLIENT_SECRET = 256;

interface Credentials {
  clientId: string;
  secret: string | undefined;
  basic: boolean;
}

/** RFC 6749 2.3.1: the Basic user and password are form-urlencoded before base64. */
function formDecode(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

function basicCredentials(header: string): Credentials {
  const match = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 1) throw new OAuthError('invalid_client', 'The Authorization header is not HTTP Basic client_id:client_secret.', true);
  try {
    return { clientId: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)), basic: true };
  } catch {
    throw new OAuthError('invalid_client', 'The HTTP Basic credentials are not form-urlencoded.', true);
  }
}

export async function authenticateClient(identity: Identity, authorization: string | undefined, form: (name: string) => string | undefined): Promise<OAuthClient> {
  const bodyId = form('client_id');
  const bodySecret = form('client_secret');
  let credentials: Credentials;
  if (authorization?.toLowerCase().startsWith('basic ')) {
    credentials = basicCredentials(authorization);
    if (bodySecret !== undefined) throw new OAuthError('invalid_request', 'Use one client authentication method: HTTP Basic or client_secret in the body, not both.');
    if (bodyId !== undefined && bodyId !== credentials.clientId) throw new OAuthError('invalid_request', 'client_id in the body differs from the HTTP Basic client.');
  } else {
    if (bodyId === undefined) throw new OAuthError('invalid_client', 'Authenticate the client: HTTP Basic, or client_id (and client_secret) in the body.');
    credentials = { clientId: bodyId, secret: bodySecret, basic: false };
  }
  const fail = (description: string) => new OAuthError('invalid_client', description, credentials.basic);
  if (credentials.clientId.length > MAX_CLIENT_ID || (credentials.secret?.length ?? 0) > MAX_CLIENT_SECRET) throw fail('Client credentials too long.');
  const client = await identity.findClient(credentials.clientId);
  if (!client) throw fail('Unknown client.');
  if (client.isPublic) {
    if (credentials.secret) throw fail('This is a public client: it has no secret to send.');
    return client;
  }
  if (!credentials.secret) throw fail('This client is confidential: send its client_secret.');
  if (!client.secretHash || !sameHash(sha256(credentials.secret), client.secretHash)) throw fail('Client authentication failed.');
  return client;
}
