/**
 * A ledger's state as a snapshot: what an exercise's stream folds to at some revision, so that loading a
 * big ledger reads the snapshot and the events after it instead of every event since the first.
 *
 * Compact, because a ledger of a million entries is a million of them: account, period, journal type
 * and third-party ids are written once in a table and entries refer to them by index. Usage counts are
 * not written: they are recomputed from the entries, so a snapshot cannot disagree with itself.
 * Change LEDGER_SNAPSHOT_VERSION whenever LedgerState changes shape: older snapshots are then ignored.
 */
import type { AccountingEntryType } from './enums.ts';
import { initialLedgerState, thirdReferenceKey, type LedgerState } from './ledger.ts';

/** 2: entries keep their date and type (lock dates, the year end), the state its closings. */
export const LEDGER_SNAPSHOT_VERSION = 2;

export interface LedgerSnapshot {
  closed: boolean;
  closings: number;
  closedWithExercise: string[];
  closedPeriods: string[];
  /** Ids and codes entries refer to (periods, journal types, accounts, third-party codes). */
  names: string[];
  /** Live entry ids in number order. */
  order: string[];
  /** Per entry in `order`: period, date, entry type, journal type, account count, accounts, third-code count, codes (indexes into names). */
  entries: number[];
}

export function ledgerSnapshot(state: LedgerState): LedgerSnapshot {
  const names: string[] = [];
  const index = new Map<string, number>();
  const name = (value: string) => {
    let i = index.get(value);
    if (i === undefined) {
      i = names.push(value) - 1;
      index.set(value, i);
    }
    return i;
  };
  const entries: number[] = [];
  for (const entryId of state.entryOrder) {
    const entry = state.entries.get(entryId);
    if (!entry) throw new Error(`ledger state: entry ${entryId} is numbered but unknown`);
    entries.push(name(entry.periodId), name(entry.date), name(entry.entryType), name(entry.journalTypeId), entry.accountIds.length, ...entry.accountIds.map(name), entry.thirdCodes.length, ...entry.thirdCodes.map(name));
  }
  if (state.entries.size !== state.entryOrder.length) throw new Error('ledger state: entries and numbers differ');
  return { closed: state.closed, closings: state.closings, closedWithExercise: [...state.closedWithExercise], closedPeriods: [...state.closedPeriods], names, order: [...state.entryOrder], entries };
}

export function ledgerFromSnapshot(snapshot: LedgerSnapshot): LedgerState {
  const state = initialLedgerState();
  state.closed = snapshot.closed;
  state.closings = snapshot.closings;
  state.closedWithExercise = [...snapshot.closedWithExercise];
  for (const periodId of snapshot.closedPeriods) state.closedPeriods.add(periodId);
  const { names, entries } = snapshot;
  const take = (n: number, at: number) => entries.slice(at, at + n).map((i) => names[i]);
  let at = 0;
  for (const entryId of snapshot.order) {
    const periodId = names[entries[at]];
    const date = names[entries[at + 1]];
    const entryType = names[entries[at + 2]] as AccountingEntryType;
    const journalTypeId = names[entries[at + 3]];
    const accountIds = take(entries[at + 4], at + 5);
    at += 5 + accountIds.length;
    const thirdCodes = take(entries[at], at + 1);
    at += 1 + thirdCodes.length;
    state.entryOrder.push(entryId);
    state.entries.set(entryId, { periodId, date, entryType, journalTypeId, accountIds, thirdCodes });
    for (const id of accountIds) state.accountUsage.set(id, (state.accountUsage.get(id) ?? 0) + 1);
    for (const code of thirdCodes.map(thirdReferenceKey)) state.thirdCodeUsage.set(code, (state.thirdCodeUsage.get(code) ?? 0) + 1);
    state.journalTypeUsage.set(journalTypeId, (state.journalTypeUsage.get(journalTypeId) ?? 0) + 1);
  }
  if (at !== entries.length || state.entries.size !== snapshot.order.length) throw new Error('ledger snapshot: malformed entries');
  return state;
}
