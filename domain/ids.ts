/** Ids derived from other ids: deterministic, so deciders stay pure and replays give the same ids. */
import { v5 as uuidv5 } from 'uuid';

export function derivedId(parentId: string, kind: string, key: string): string {
  return uuidv5(`${kind}:${key}`, parentId);
}

/** RFC 4122 shape (8-4-4-4-12 hex). Checked before an id reaches a uuid column, so junk is "not found", never a database error. */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_PATTERN.test(value);
