/** Ids derived from other ids: deterministic, so deciders stay pure and replays give the same ids. */
import { v5 as uuidv5 } from 'uuid';

export function derivedId(parentId: string, kind: string, key: string): string {
  return uuidv5(`${kind}:${key}`, parentId);
}
