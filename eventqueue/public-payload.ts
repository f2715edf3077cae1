/**
 * What a consumer reads of a queued payload, rendered each time a message is listed or delivered (a
 * redelivery renders it again): an event with a sealed part (a party's personal fields) carries that
 * part opened and merged into its public data while the data subject's key exists; once the key is
 * destroyed (applyGdpr*) it carries neither the clear values nor the sealed envelope, and says
 * `personalDataErased: true` (`personalDataUnavailable: true` if the key does not open it). The keys of a whole
 * page or batch are loaded in one query.
 */
import type pg from 'pg';
import { isSealed, open } from '../platform/sealed.ts';
import { loadSubjectKeys } from '../platform/subject-keys.ts';
import { upcastEvent } from '../eventstore/upcasters.ts';
import type { RecordedEvent } from '../eventstore/port.ts';
import { CATALOG, publicMetadata } from './catalog.ts';
import { contextReadOf, publicDataOf, sealedPartOf, type ContextRead } from './event-catalog.ts';

export type QueuedPayload = Record<string, any>;

/** Public payloads for `payloads` (same order), with one key lookup for all of them. */
export async function publicPayloads(db: Pick<pg.Pool, 'query'> | pg.PoolClient, queued: QueuedPayload[]): Promise<QueuedPayload[]> {
  const payloads = queued.map(currentShape);
  const sealed = payloads.map((p) => {
    const part = sealedPartOf(CATALOG[p?.type]);
    return part && p.data ? { part, subject: part.subjectOf(p.data) as string } : undefined;
  });
  const subjects = sealed.flatMap((s, i) => (s && isSealed(payloads[i].data[s.part.field]) ? [s.subject] : []));
  const keys = subjects.length > 0 ? await loadSubjectKeys(db, subjects) : new Map<string, Buffer>();
  const contexts = await readContexts(db, payloads);
  return payloads.map((stored, i) => {
    // Rows queued before the fingerprint was left out of payloads lose it here too.
    const payload = stored?.metadata ? { ...stored, metadata: publicMetadata(stored.metadata) } : stored;
    const s = sealed[i];
    if (!s) {
      const render = publicDataOf(CATALOG[payload?.type]);
      return render && payload.data ? { ...payload, data: render(payload.data, contexts.get(i)) } : payload;
    }
    const envelope = payload.data[s.part.field];
    if (!isSealed(envelope)) return { ...payload, data: s.part.publicData(payload.data, null) };
    const key = keys.get(s.subject);
    if (!key) return { ...payload, data: s.part.publicData(payload.data, null), personalDataErased: true };
    try {
      return { ...payload, data: s.part.publicData(payload.data, open(envelope, key, s.subject)) };
    } catch {
      // A key that does not open the envelope is tampering or a bug: this message goes out without the personal
      // part (closed, not guessed), and its page or batch with it: one damaged event stops no one's delivery.
      return { ...payload, data: s.part.publicData(payload.data, null), personalDataUnavailable: true };
    }
  });
}

/** The read models' context of the messages whose rendering needs it (by index): one query per kind of context for all of them. */
async function readContexts(db: Pick<pg.Pool, 'query'> | pg.PoolClient, payloads: QueuedPayload[]): Promise<Map<number, unknown>> {
  const wanted = new Map<ContextRead, number[]>();
  payloads.forEach((p, i) => {
    const read = contextReadOf(CATALOG[p?.type]);
    if (read && p.data && p.metadata && read.needs(p as never)) wanted.set(read, [...(wanted.get(read) ?? []), i]);
  });
  const contexts = new Map<number, unknown>();
  for (const [read, at] of wanted) {
    const found = await read.read(db, at.map((i) => payloads[i] as never));
    at.forEach((i, n) => contexts.set(i, found[n]));
  }
  return contexts;
}

/**
 * A row queued before its event type changed shape (a previous version's, still unsent) is read in the
 * current shape, as the store reads the event itself: one consumer never sees two shapes of one type.
 */
function currentShape(payload: QueuedPayload): QueuedPayload {
  if (typeof payload?.type !== 'string' || typeof payload.metadata !== 'object' || payload.metadata === null) return payload;
  const { data, metadata } = upcastEvent({ id: payload.id, type: payload.type, data: payload.data, metadata: payload.metadata } as RecordedEvent);
  return data === payload.data ? payload : { ...payload, data, metadata };
}
