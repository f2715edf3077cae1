/**
 * Closing and reopening an exercise (domain/accounting/year-end.ts), under the organisation's lock held alone: no
 * posting or deletion runs in any process meanwhile, so the balances read from the exercise's stream are the ones
 * the close appends against.
 *
 * Two streams, in this order: the exercise's ledger (closing entries, periods, closed), then the next exercise's
 * (its opening). A crash between the two leaves the exercise closed without its opening: closing it again adds
 * only the opening. Reopening goes the other way: the opening deleted first, then the exercise reopened with its
 * closing entries deleted. Every refusal is decided before the first append.
 */
import { nextDay } from '../../domain/calendar.ts';
import { AccountingErrors } from '../../domain/accounting/errors.ts';
import { decideLedger, type LedgerEvent, type LedgerState } from '../../domain/accounting/ledger.ts';
import type { ExerciseSpan, OrganisationState } from '../../domain/accounting/organisation.ts';
import {
  closingEntries, openingEntry, temporaryOpening, yearEndBalances, yearEndEntryId, type ExerciseRef, type YearEndEntry,
} from '../../domain/accounting/year-end.ts';
import { fail } from '../../domain/errors.ts';
import { derivedId } from '../../domain/ids.ts';
import { AggregateStore, LIMITS, type CommandContext } from '../aggregate-store.ts';
import { parse, type CommandHandler } from '../handler.ts';
import { aloneInOrganisation } from '../organisation-guards.ts';
import type { CommandServices } from '../services.ts';
import { LedgerAggregate } from './aggregates.ts';
import { IdInput } from './inputs.ts';

export const closeAccountingExercise: CommandHandler = aloneInOrganisation(async (services, ctx, raw) => {
  const { id } = parse(IdInput, raw);
  const replay = await services.aggregates.recorded(ctx);
  const org = await services.organisation(ctx.organisationId);
  const { exercise, next } = withNext(org, id);
  const ledger = (await services.aggregates.load(LedgerAggregate, id)).state;
  const events = await ledgerEvents(services, id);
  // What the opening carries: the exercise's balances as its close leaves them (the closing entry, which zeroes the
  // balance sheet, aside), or as closing it now will. An exercise closed before the year end posted anything still has
  // its income and expense: the opening carries their result all the same.
  const carried = temporaryOpening(org, yearEndBalances(events, ['CLOSURE_EXERCISE']));
  const round = ledger.closed ? ledger.closings : ledger.closings + 1;
  const opening = openingEntry(org, ref(exercise), ref(next), carried, yearEndEntryId((key) => derivedId(id, 'year-end', key), 'opening', round));
  const nextLedger = (await services.aggregates.load(LedgerAggregate, next.id)).state;
  const openingMissing = opening !== undefined && !nextLedger.entries.has(opening.entryId);
  if (ledger.closed && !openingMissing && !replay) fail(AccountingErrors.exerciseClosed, { exercise: label(exercise) });
  // Whatever the opening would be refused for (the next exercise closed, a lock date) is refused before anything is appended.
  if (opening && openingMissing) decideLedger({ type: 'PostOpeningEntry', entry: opening, now: services.now() }, nextLedger, next, org);
  let position = replay?.position ?? null;
  if (!ledger.closed && !replay) {
    const r = await services.aggregates.execute(LedgerAggregate, id, ctx, async (state) => {
      const balances = yearEndBalances(await ledgerEvents(services, id));
      const closing = closingEntries(org, ref(exercise), balances, (kind) => yearEndEntryId((key) => derivedId(id, 'year-end', key), kind, state.closings + 1));
      return decideLedger({ type: 'CloseAccountingExercise', closing, now: services.now() }, state, exercise, org);
    });
    position = r.position ?? position;
  }
  // Only onto a closed exercise (a retry of a close since reopened appends nothing).
  if (opening && openingMissing && (await services.aggregates.load(LedgerAggregate, id)).state.closed) {
    const r = await services.aggregates.execute(LedgerAggregate, next.id, derivedContext(ctx, opening.entryId, 'opening'), (state) =>
      state.entries.has(opening.entryId) ? [] : decideLedger({ type: 'PostOpeningEntry', entry: opening, now: services.now() }, state, next, org));
    position = r.position ?? position;
  }
  return { id, position };
});

export const reopenAccountingExercise: CommandHandler = aloneInOrganisation(async (services, ctx, raw) => {
  const { id } = parse(IdInput, raw);
  const replay = await services.aggregates.recorded<LedgerEvent>(ctx);
  if (replay) return { id, position: replay.position };
  const org = await services.organisation(ctx.organisationId);
  const exercise = org.exercises.get(id) ?? fail(AccountingErrors.exerciseNotFound, { id });
  const ledger = (await services.aggregates.load(LedgerAggregate, id)).state;
  const next = nextOf(org, exercise);
  const openingId = yearEndEntryId((key) => derivedId(id, 'year-end', key), 'opening', ledger.closings);
  const nextLedger = next && (await services.aggregates.load(LedgerAggregate, next.id)).state;
  const deleteOpening = { type: 'DeleteAccountingEntry' as const, entryId: openingId, yearEnd: true as const, now: services.now() };
  // Both decided before either is appended: a refusal (not closed, the hard lock, the next exercise closed) appends nothing.
  decideLedger({ type: 'ReopenAccountingExercise', now: services.now() }, ledger, exercise, org);
  const withOpening = (state: LedgerState) => ledger.closed && state.entries.has(openingId);
  if (next && nextLedger && withOpening(nextLedger)) {
    decideLedger(deleteOpening, nextLedger, next, org);
    await services.aggregates.execute(LedgerAggregate, next.id, derivedContext(ctx, openingId, 'opening-deleted'), (state) =>
      withOpening(state) ? decideLedger(deleteOpening, state, next, org) : []);
  }
  const r = await services.aggregates.execute(LedgerAggregate, id, ctx, (state) => decideLedger({ type: 'ReopenAccountingExercise', now: services.now() }, state, exercise, org));
  return { id, position: r.position };
});

const label = (e: ExerciseSpan) => (e.exercise ? String(e.exercise) : `${e.startDate}..${e.endDate}`);
const ref = (e: ExerciseSpan): ExerciseRef => ({ id: e.id, startDate: e.startDate, endDate: e.endDate, label: label(e) });

/** The exercise that starts the day after `exercise` ends, if the organisation has it. */
function nextOf(org: OrganisationState, exercise: ExerciseSpan): ExerciseSpan | undefined {
  const startDate = nextDay(exercise.endDate);
  for (const e of org.exercises.values()) if (e.startDate === startDate) return e;
  return undefined;
}

function withNext(org: OrganisationState, id: string): { exercise: ExerciseSpan; next: ExerciseSpan } {
  const exercise = org.exercises.get(id) ?? fail(AccountingErrors.exerciseNotFound, { id });
  const next = nextOf(org, exercise) ?? fail(AccountingErrors.nextExerciseMissing, { exercise: label(exercise), startDate: nextDay(exercise.endDate) });
  return { exercise, next };
}

/** The exercise's stream as stored (upcast), read once for its balances. */
async function ledgerEvents(services: CommandServices, exerciseId: string): Promise<LedgerEvent[]> {
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
 * The second stream's append runs under its own command id (event ids derive from it), derived from the request's
 * idempotency key (a retry finds it), random without one; in the request's correlation.
 */
function derivedContext(ctx: CommandContext, entryId: string, step: string): CommandContext {
  return {
    organisationId: ctx.organisationId, userId: ctx.userId, clientId: ctx.clientId,
    correlationId: ctx.correlationId ?? ctx.commandId, commandId: ctx.commandId && derivedId(ctx.commandId, step, entryId),
  };
}

export type { YearEndEntry };
