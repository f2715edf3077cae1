/**
 * Where an exercise stands in the chain of year ends, read from the write side: its neighbours, the opening its close
 * carries into the next exercise, and whether that opening is there. The close, the reopening and the hard lock date
 * decide with these (an exercise is closed only after the one before it, and never left unclosable).
 */
import { nextDay } from '../../domain/calendar.ts';
import type { LedgerEvent, LedgerState } from '../../domain/accounting/ledger.ts';
import type { ExerciseSpan, OrganisationState } from '../../domain/accounting/organisation.ts';
import { openingEntry, temporaryOpening, yearEndBalances, yearEndEntryId, type ExerciseRef, type YearEndEntry } from '../../domain/accounting/year-end.ts';
import { derivedId } from '../../domain/ids.ts';
import { AggregateStore, LIMITS } from '../aggregate-store.ts';
import type { CommandServices } from '../services.ts';
import { LedgerAggregate } from './aggregates.ts';

export const exerciseLabel = (e: ExerciseSpan) => (e.exercise ? String(e.exercise) : `${e.startDate}..${e.endDate}`);
export const exerciseRef = (e: ExerciseSpan): ExerciseRef => ({ id: e.id, startDate: e.startDate, endDate: e.endDate, label: exerciseLabel(e) });

/** The exercise that starts the day after `exercise` ends, if the organisation has it. */
export function nextOf(org: OrganisationState, exercise: ExerciseSpan): ExerciseSpan | undefined {
  const startDate = nextDay(exercise.endDate);
  for (const e of org.exercises.values()) if (e.startDate === startDate) return e;
  return undefined;
}

/** The exercise that ends the day before `exercise` starts, if the organisation has it. */
export function previousOf(org: OrganisationState, exercise: ExerciseSpan): ExerciseSpan | undefined {
  for (const e of org.exercises.values()) if (nextDay(e.endDate) === exercise.startDate) return e;
  return undefined;
}

/** The id of the opening the close of `exerciseId` numbered `round` posts in the next exercise. */
export const openingIdOf = (exerciseId: string, round: number) => yearEndEntryId((key) => derivedId(exerciseId, 'year-end', key), 'opening', round);

/** The exercise's stream as stored (upcast), read whole. */
export async function ledgerEvents(services: CommandServices, exerciseId: string): Promise<LedgerEvent[]> {
  const streamId = AggregateStore.streamId(LedgerAggregate.category, exerciseId);
  const events: LedgerEvent[] = [];
  for (let from = 0n; ;) {
    const page = await services.aggregates.store.readStream(streamId, { fromRevision: from, maxCount: LIMITS.pageSize });
    for (const e of page) events.push({ type: e.type, data: e.data } as LedgerEvent);
    if (page.length < LIMITS.pageSize) return events;
    from = page[page.length - 1].revision + 1n;
  }
}

/**
 * The opening the close numbered `round` of `exercise` carries into `next`, from the exercise's events: its balances as
 * its close leaves them (the closing entry, which zeroes the balance sheet, aside), or as closing it now will. An
 * exercise closed before the year end posted anything still has its income and expense: the opening carries their
 * result all the same. Undefined when nothing carries.
 */
export function openingOf(org: OrganisationState, exercise: ExerciseSpan, next: ExerciseSpan, events: readonly LedgerEvent[], round: number): YearEndEntry | undefined {
  const carried = temporaryOpening(org, yearEndBalances(events, ['CLOSURE_EXERCISE']));
  return openingEntry(org, exerciseRef(exercise), exerciseRef(next), carried, openingIdOf(exercise.id, round));
}

/** Whether the entry was ever posted on the exercise's stream (a live one, or one deleted since). */
export async function everPosted(services: CommandServices, exerciseId: string, entryId: string): Promise<boolean> {
  return (await ledgerEvents(services, exerciseId)).some((e) => e.type === 'AccountingEntryPosted' && e.data.entryId === entryId);
}

/**
 * Whether `exercise` is done with: closed, and its opening in the next exercise (or nothing to carry). A closed
 * exercise without its opening (a crash between the close's two appends, or a reopening's) is not.
 */
export async function carriedForward(services: CommandServices, org: OrganisationState, exercise: ExerciseSpan, ledger?: LedgerState): Promise<boolean> {
  const state = ledger ?? (await services.aggregates.load(LedgerAggregate, exercise.id)).state;
  if (!state.closed) return false;
  const next = nextOf(org, exercise);
  if (!next) return false;
  const { state: nextLedger } = await services.aggregates.load(LedgerAggregate, next.id);
  if (nextLedger.entries.has(openingIdOf(exercise.id, state.closings))) return true;
  return openingOf(org, exercise, next, await ledgerEvents(services, exercise.id), state.closings) === undefined;
}
