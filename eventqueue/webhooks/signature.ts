/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of
 * the key; the signature is `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)) with the
 * timestamp in unix seconds. Several space-separated signatures may be sent (key rotation).
 */
import { createHmac } from 'node:crypto';

const PREFIX = 'whsec_';

export function secretKey(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new Error('empty webhook secret');
  return key;
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three Standard Webhooks headers (plus content type) for one attempt. */
export function webhookHeaders(secret: string, id: string, body: string, now = Date.now()): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(secret, id, timestamp, body),
  };
}
