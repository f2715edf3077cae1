/**
 * Upcasting at the store boundary: every adapter passes each event it reads through upcastEvent (readStream,
 * readAll and so subscriptions, findEvent, and the rebuild workers' decoding of stored batches), so an
 * event stored in an older shape is read in the current one. Stored events are never rewritten. Appends
 * record each type's current version (eventSchemaVersion) in the metadata's schemaVersion.
 */
import { EVENT_UPCASTERS, type EventUpcaster } from '../domain/upcasters.ts';
import type { RecordedEvent } from './port.ts';

interface Chain {
  /** The version the last step produces. */
  current: number;
  /** steps[v - 1] takes version v to v + 1. */
  steps: EventUpcaster['upcast'][];
}

/** Each type's steps, checked once: numbered 1, 2, ... without a gap or a duplicate. */
export function upcastChains(upcasters: readonly EventUpcaster[]): ReadonlyMap<string, Chain> {
  const byType = new Map<string, EventUpcaster[]>();
  for (const u of upcasters) byType.set(u.type, [...(byType.get(u.type) ?? []), u]);
  const chains = new Map<string, Chain>();
  for (const [type, list] of byType) {
    const sorted = [...list].sort((a, b) => a.from - b.from);
    sorted.forEach((u, i) => {
      if (u.from !== i + 1) throw new Error(`upcasters of ${type}: expected one from version ${i + 1}, found one from ${u.from}`);
    });
    chains.set(type, { current: sorted.length + 1, steps: sorted.map((u) => u.upcast) });
  }
  return chains;
}

const CHAINS = upcastChains(EVENT_UPCASTERS);

/** The schema version an append records for events of this type (1 until its shape first changes). */
export function eventSchemaVersion(type: string): number {
  return CHAINS.get(type)?.current ?? 1;
}

const FOLDED_STATE_UPCASTERS_LIMIT = 1000;

/**
 * The version a folded state (an aggregate's snapshot) is stored under: its layout version, and how many
 * upcasters the events it folds were read through. A snapshot folds events as they were read when it was
 * taken; an upcaster added since changes what they fold to, so snapshots of fewer upcasters are ignored
 * (loaded again from the events) like those of another layout. Upcasters are only ever added.
 */
export function foldedStateVersion(layoutVersion: number): number {
  if (EVENT_UPCASTERS.length >= FOLDED_STATE_UPCASTERS_LIMIT) throw new Error(`more than ${FOLDED_STATE_UPCASTERS_LIMIT - 1} upcasters: widen foldedStateVersion`);
  return layoutVersion * FOLDED_STATE_UPCASTERS_LIMIT + EVENT_UPCASTERS.length;
}
/** The event in its type's current shape: itself when it already is (one lookup and one comparison). */
export function upcastEvent<E extends RecordedEvent>(event: E): E {
  const chain = CHAINS.get(event.type);
  if (chain === undefined || event.metadata.schemaVersion === chain.current) return event;
  return upcastThrough(event, chain);
}

function upcastThrough<E extends RecordedEvent>(event: E, chain: Chain): E {
  // An event recorded without a version is of the first shape (no store of this service writes one).
  const from = event.metadata.schemaVersion ?? 1;
  if (!Number.isInteger(from) || from < 1) throw new Error(`event ${event.id} (${event.type}): schemaVersion ${String(from)} is not a version`);
  // Newer than this code knows: a newer process wrote it (a rolling upgrade); its shape is read as it is.
  if (from > chain.current) return event;
  let data = event.data;
  for (let v = from; v < chain.current; v++) data = chain.steps[v - 1](data);
  return { ...event, data, metadata: { ...event.metadata, schemaVersion: chain.current } };
}
