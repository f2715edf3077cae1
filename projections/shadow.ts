/** Where a rebuild writes (rebuild.ts, and its worker threads): names and how rows go in. */
import type { Resource } from './resource.ts';

/** The table a rebuild fills with a resource's rows until the swap. */
export const shadowTable = (r: Resource) => `${r.table}__rebuild`;

/** A rebuild sends every insert as COPY (Writes.prepare's copyFromRows): into tables with no index yet, the cheapest way for any size. */
export const REBUILD_COPY_FROM_ROWS = 1;
