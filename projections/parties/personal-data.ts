/**
 * Decrypts the personal parts of a batch of events for a projection, inside the batch's transaction
 * (projection.prepare). Results are kept per event object in a WeakMap: the live daemon, a rebuild and
 * a replay may run the same projection object at once, each with its own event objects, and nothing
 * outlives the batch. A subject whose key is destroyed (erased) reads as null: anonymised.
 */
import type pg from 'pg';
import type { RecordedEvent } from '../../eventstore/port.ts';
import { isSealed, open } from '../../platform/sealed.ts';
import { loadSubjectKeys } from '../../platform/subject-keys.ts';

export class PersonalData<T> {
  private readonly opened = new WeakMap<RecordedEvent, T | null>();

  /** `subjectOf` names the data subject (the key's owner) of an event; `now` reads an opened part in its current shape. */
  constructor(
    private readonly subjectOf: (event: RecordedEvent) => string,
    private readonly now: (opened: T) => T = (opened) => opened,
  ) {}

  async prepare(events: RecordedEvent[], client: pg.PoolClient): Promise<void> {
    const sealed = events.filter((e) => isSealed(e.data.personal));
    if (sealed.length === 0) return;
    const keys = await loadSubjectKeys(client, sealed.map(this.subjectOf));
    for (const e of sealed) {
      const subject = this.subjectOf(e);
      const key = keys.get(subject);
      // A present key that does not open the envelope is tampering or a bug: stop rather than guess.
      this.opened.set(e, key ? this.now(open<T>(e.data.personal as never, key, subject)) : null);
    }
  }

  /** The event's personal part in clear; null when erased or when the event carries none. */
  of(event: RecordedEvent): T | null {
    return this.opened.get(event) ?? null;
  }
}
