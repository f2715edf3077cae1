/** Where a rebuild writes (rebuild.ts, and its worker threads): names and how rows go in. */
import type { Resource } from './resource.ts';

const shadowNames = new WeakMap<Resource, string>();

/**
 * The table a rebuild fills with a resource's rows until the swap. One string per resource: the name is
 * a map key for every row a rebuild writes, and a string built anew is hashed anew each time.
 */
export function shadowTable(r: Resource): string {
  let name = shadowNames.get(r);
  if (name === undefined) shadowNames.set(r, (name = `${r.table}__rebuild`));
  return name;
}

/** A rebuild sends every insert as COPY (Writes.prepare's copyFromRows): into tables with no index yet, the cheapest way for any size. */
export const REBUILD_COPY_FROM_ROWS = 1;
