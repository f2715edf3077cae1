/**
 * Sealed envelopes for personal data in events (crypto-shredding): AES-256-GCM with a key per data
 * subject, the subject's id as additional authenticated data (a sealed part cannot be moved onto
 * another subject's event unnoticed), a fresh 96-bit IV per envelope. Destroying the subject's key
 * makes every envelope sealed with it unreadable, in every copy of the event store.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface Sealed {
  alg: 'A256GCM';
  iv: string; // base64
  tag: string; // base64, 128-bit GCM tag
  data: string; // base64 ciphertext of the JSON text
}

export const KEY_BYTES = 32;
const IV_BYTES = 12;

export const newSubjectKey = (): Buffer => randomBytes(KEY_BYTES);

export function isSealed(value: unknown): value is Sealed {
  return typeof value === 'object' && value !== null && (value as Sealed).alg === 'A256GCM' && typeof (value as Sealed).data === 'string';
}

export function seal(value: unknown, key: Buffer, subjectId: string): Sealed {
  if (key.length !== KEY_BYTES) throw new Error('invariant violated: a subject key has 32 bytes');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(subjectId, 'utf8'));
  const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return { alg: 'A256GCM', iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

/** The sealed value; throws when the key, subject or ciphertext do not match (tampering, wrong key). */
export function open<T>(sealed: Sealed, key: Buffer, subjectId: string): T {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(Buffer.from(subjectId, 'utf8'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
  return JSON.parse(text) as T;
}
