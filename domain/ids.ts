/** Ids derived from other ids: deterministic, so deciders stay pure and replays give the same ids. */
import { v5 as uuidv5 } from 'uuid';

export function derivedId(parentId: string, kind: string, key: string): string {
  return uuidv5(`${kind}:${key}`, parentId);
}

/** A UUID in its 8-4-4-4-12 hex form, either case: what PostgreSQL's uuid type accepts from clients. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (text: unknown): text is string => typeof text === 'string' && UUID_PATTERN.test(text);

/**
 * The canonical (lower-case) form of an id given by a client, or undefined when it is not a UUID. Ids
 * are compared and used as stream names as text, so an id enters in this form or not at all.
 */
export const canonicalUuid = (text: unknown): string | undefined => (isUuid(text) ? text.toLowerCase() : undefined);
