/** What a projection is: a name, the read models it owns, the events it reads, and how it applies them. */
import type pg from 'pg';
import type { RecordedEvent } from '../../eventstore/port.ts';
import type { Resource } from './resource.ts';
import type { Writes } from './writes.ts';

/** Physical table of a resource for this run: the live table, or its shadow during a rebuild. */
export type TableOf = (resource: Resource) => string;

export interface Projection {
  name: string;
  resources: Resource[];
  eventTypes: readonly string[];
  /**
   * Bumped by hand when apply() writes other values into the same columns (a field's meaning changed): the
   * stored version then differs and the projection is rebuilt at start (versions.ts). Default 0. A change of
   * the tables' columns needs no bump: the version digests them.
   */
  revision?: number;
  /**
   * The writes of one event. A function of the events alone (caches aside): a rebuild runs it on worker
   * threads, each given some of the batches, so nothing may carry over from one batch to the next.
   */
  apply(event: RecordedEvent, writes: Writes, tableOf: TableOf): void;
  /**
   * Optional, awaited inside the batch's transaction before apply/applyBatch: load what applying needs
   * from the database (e.g. data subjects' keys to decrypt personal fields) for the batch's events.
   */
  prepare?(events: RecordedEvent[], client: pg.PoolClient): Promise<void>;
  /** Optional: the batch's events at once (one statement instead of one per event; a rebuild's worker passes a slice at a time). Overrides apply. */
  applyBatch?(events: RecordedEvent[], writes: Writes, tableOf: TableOf): void;
}

/** A projection's writes for `events` (after loading what they need), into the tables `tableOf` names. */
export async function project(projection: Projection, events: RecordedEvent[], writes: Writes, tableOf: TableOf, client: pg.PoolClient): Promise<void> {
  if (events.length === 0) return;
  await projection.prepare?.(events, client);
  applyEvents(projection, events, writes, tableOf);
}

/** The writes of events whose projection needs nothing loaded first (no `prepare`, or done already). */
export function applyEvents(projection: Projection, events: RecordedEvent[], writes: Writes, tableOf: TableOf): void {
  if (projection.applyBatch) projection.applyBatch(events, writes, tableOf);
  else for (const e of events) projection.apply(e, writes, tableOf);
}

/** Where a projection is defined: the module file exporting it in `PROJECTIONS`, and its name. */
export interface ProjectionSource {
  module: string;
  name: string;
}

const SOURCES = new WeakMap<Projection, string>();

/**
 * An area's projections, remembered with the file that defines them (its import.meta.url, which exports
 * them as `PROJECTIONS`): a rebuild's worker thread loads only that file (starting is a few times quicker).
 */
export function projectionsOf(moduleUrl: string, projections: Projection[]): Projection[] {
  for (const projection of projections) SOURCES.set(projection, moduleUrl);
  return projections;
}

/** Where this very projection object is defined (what another thread would load), if it was registered. */
export function sourceOf(projection: Projection): ProjectionSource | undefined {
  const module = SOURCES.get(projection);
  return module === undefined ? undefined : { module, name: projection.name };
}
