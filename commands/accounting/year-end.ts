/**
 * Closing and reopening an exercise (domain/accounting/year-end.ts), under the organisation's lock held alone: no
 * posting or deletion runs in any process meanwhile, so the balances read from the exercise's stream are the ones
 * the close appends against.
 *
 * Two streams, in this order: the exercise's ledger (closing entries, periods, closed), then the next exercise's
 * (its opening). A crash between the two leaves the exercise closed without its opening: closing it again adds
 * only the opening. Reopening goes the other way: the opening deleted first, then the exercise reopened with its
 * closing entries deleted; a crash between those two leaves the exercise closed with its opening deleted, and closing
 * it again finishes the reopening first (no entry id is ever posted twice: the read models keep deleted ones). Exercises
 * close in order and reopen in the reverse order. Every refusal is decided before the first append.
 */
import { nextDay } from '../../domain/calendar.ts';
import { AccountingErrors } from '../../domain/accounting/errors.ts';
import { decideLedger, type LedgerEvent, type LedgerState } from '../../domain/accounting/ledger.ts';
import type { ExerciseSpan, OrganisationState } from '../../domain/accounting/organisation.ts';
import { closingEntries, yearEndBalances, yearEndEntryId, type YearEndEntry } from '../../domain/accounting/year-end.ts';
import { fail } from '../../domain/errors.ts';
import { derivedId } from '../../domain/ids.ts';
import type { CommandContext } from '../aggregate-store.ts';
import { parse, type CommandHandler } from '../handler.ts';
import { aloneInOrganisation } from '../organisation-guards.ts';
import { LedgerAggregate } from './aggregates.ts';
import { IdInput } from './inputs.ts';
import {
  carriedForward, everPosted, exerciseLabel as label, exerciseRef as ref, ledgerEvents, nextOf, openingIdOf, openingOf, previousOf,
} from './year-end-openings.ts';

export const closeAccountingExercise: CommandHandler = aloneInOrganisation(async (services, ctx, raw) => {
  const { id } = parse(IdInput, raw);
  const replay = await services.aggregates.recorded(ctx);
  const org = await services.organisation(ctx.organisationId);
  const { exercise, next } = withNext(org, id);
  // Exercises close in order: N+1 opens with what N carries, so N's own opening must be in it first.
  const previous = previousOf(org, exercise);
  if (previous && !replay && !(await carriedForward(services, org, previous))) {
    fail(AccountingErrors.previousExerciseOpen, { exercise: label(exercise), previous: label(previous) });
  }
  let ledger = (await services.aggregates.load(LedgerAggregate, id)).state;
  // A reopening that deleted the opening and stopped before reopening the exercise is finished first: posting the
  // opening again under its deleted id would give the read models an entry they hold as deleted.
  if (ledger.closed && !replay && !(await services.aggregates.load(LedgerAggregate, next.id)).state.entries.has(openingIdOf(id, ledger.closings))
    && (await everPosted(services, next.id, openingIdOf(id, ledger.closings)))) {
    await services.aggregates.execute(LedgerAggregate, id, derivedContext(ctx, id, 'reopening-finished'), (state) =>
      state.closed ? decideLedger({ type: 'ReopenAccountingExercise', now: services.now() }, state, exercise, org) : []);
    ledger = (await services.aggregates.load(LedgerAggregate, id)).state;
  }
  // Read once: under the organisation's lock held alone, nothing is appended to the exercise meanwhile.
  const events = await ledgerEvents(services, id);
  const round = ledger.closed ? ledger.closings : ledger.closings + 1;
  const opening = openingOf(org, exercise, next, events, round);
  const nextLedger = (await services.aggregates.load(LedgerAggregate, next.id)).state;
  const openingMissing = opening !== undefined && !nextLedger.entries.has(opening.entryId);
  if (ledger.closed && !openingMissing && !replay) fail(AccountingErrors.exerciseClosed, { exercise: label(exercise) });
  // Whatever the opening would be refused for (the next exercise closed, a lock date) is refused before anything is appended.
  if (opening && openingMissing) decideLedger({ type: 'PostOpeningEntry', entry: opening, now: services.now() }, nextLedger, next, org);
  let position = replay?.position ?? null;
  if (!ledger.closed && !replay) {
    const balances = yearEndBalances(events);
    const r = await services.aggregates.execute(LedgerAggregate, id, ctx, (state) => {
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
  const openingId = openingIdOf(id, ledger.closings);
  const nextLedger = next && (await services.aggregates.load(LedgerAggregate, next.id)).state;
  const deleteOpening = { type: 'DeleteAccountingEntry' as const, entryId: openingId, yearEnd: true as const, now: services.now() };
  // Both decided before either is appended: a refusal (not closed, the hard lock, the next exercise closed) appends nothing.
  decideLedger({ type: 'ReopenAccountingExercise', now: services.now() }, ledger, exercise, org);
  // The next exercise closed carries what this one ends with: reopened later first, whether or not its opening is there.
  if (next && nextLedger?.closed) fail(AccountingErrors.nextExerciseClosed, { exercise: label(exercise), next: label(next) });
  const withOpening = (state: LedgerState) => ledger.closed && state.entries.has(openingId);
  if (next && nextLedger && withOpening(nextLedger)) {
    decideLedger(deleteOpening, nextLedger, next, org);
    await services.aggregates.execute(LedgerAggregate, next.id, derivedContext(ctx, openingId, 'opening-deleted'), (state) =>
      withOpening(state) ? decideLedger(deleteOpening, state, next, org) : []);
  }
  const r = await services.aggregates.execute(LedgerAggregate, id, ctx, (state) => decideLedger({ type: 'ReopenAccountingExercise', now: services.now() }, state, exercise, org));
  return { id, position: r.position };
});

function withNext(org: OrganisationState, id: string): { exercise: ExerciseSpan; next: ExerciseSpan } {
  const exercise = org.exercises.get(id) ?? fail(AccountingErrors.exerciseNotFound, { id });
  const next = nextOf(org, exercise) ?? fail(AccountingErrors.nextExerciseMissing, { exercise: label(exercise), startDate: nextDay(exercise.endDate) });
  return { exercise, next };
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
