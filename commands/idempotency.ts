/**
 * Idempotency keys: a key names one request of one caller. The command id is derived from the
 * organisation, the client, the user and the key (api/graphql/plugin.ts), so callers never share
 * outcomes; the request's fingerprint travels in the metadata of the events the command appends (the same
 * append, so a crash never keeps one without the other), and a retry whose fingerprint differs is refused
 * (AggregateStore.recorded). A command that fails or changes nothing records nothing: its retry runs again.
 */
import { createHash } from 'node:crypto';

/** Object keys sorted at every depth, undefined members dropped: one text per request, however it was spelt. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const members = Object.keys(value).sort().filter((k) => (value as Record<string, unknown>)[k] !== undefined);
  return `{${members.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/**
 * A digest of what the request asked: the mutation's name and its input. Kept as a digest, not the
 * input itself, because inputs carry personal data that erasure must be able to make unreadable.
 */
export function requestFingerprint(mutation: string, input: unknown): string {
  return createHash('sha256').update(canonicalJson({ mutation, input })).digest('base64url');
}
