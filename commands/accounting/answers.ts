/**
 * What accounting mutations answer, read from their events: as appended, or as recorded when a retry is
 * answered (the ids were derived from the idempotency key, so both name the same thing).
 */
import type { LedgerEvent } from '../../domain/accounting/ledger.ts';
import type { GlobalPosition } from '../../eventstore/port.ts';
import type { CommandResult } from '../handler.ts';

/** The command's event of `type`; a command that produced none is a bug in its decider. */
export function eventOf<E extends { type: string }, T extends E['type']>(events: E[], type: T): Extract<E, { type: T }> {
  const found = events.find((e): e is Extract<E, { type: T }> => e.type === type);
  if (!found) throw new Error(`invariant violated: the command recorded no ${type}`);
  return found;
}

/** A posting's answer: the entry's id and number. */
export function entryCreated(r: { events: LedgerEvent[]; position: GlobalPosition | null }): CommandResult & { number: number } {
  const posted = eventOf(r.events, 'AccountingEntryPosted').data;
  return { id: posted.entryId, number: posted.number, position: r.position };
}
