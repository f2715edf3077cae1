/**
 * Lock dates (Odoo's): set on the organisation's stream by an administrator, under the organisation's lock held
 * alone, so no posting or deletion decided with the previous dates lands after the change.
 */
import { AccountingErrors } from '../../domain/accounting/errors.ts';
import { decideOrganisation, type OrganisationState } from '../../domain/accounting/organisation.ts';
import type { IsoDate } from '../../domain/calendar.ts';
import { fail } from '../../domain/errors.ts';
import type { CommandServices } from '../services.ts';
import { parse, type CommandHandler } from '../handler.ts';
import { aloneInOrganisation } from '../organisation-guards.ts';
import { LedgerAggregate, OrganisationAggregate } from './aggregates.ts';
import { LockDatesInput } from './inputs.ts';
import { carriedForward, exerciseLabel } from './year-end-openings.ts';

export const updateAccountingLockDates: CommandHandler = aloneInOrganisation(async (services, ctx, raw) => {
  const i = parse(LockDatesInput, raw);
  if (i.hardLockDate) await refuseUnclosableBooks(services, await services.organisation(ctx.organisationId), i.hardLockDate);
  await services.aggregates.execute(OrganisationAggregate, ctx.organisationId, ctx, (state) =>
    decideOrganisation({ type: 'SetAccountingLockDates', lockDate: i.lockDate, hardLockDate: i.hardLockDate, now: services.now() }, state));
  // The dates as they stand (also when the request changed nothing). No read model waits on them: the accounting
  // set-up reads the organisation's stream (and no projection subscribes to the event), so there is no position to await.
  const org = await services.organisation(ctx.organisationId);
  return { id: ctx.organisationId, fields: { lockDate: org.lockDate, hardLockDate: org.hardLockDate }, position: null };
});

/**
 * The hard lock never moves back, and the year end posts on an exercise's last day and the next one's first: a hard
 * lock over an exercise not yet closed and carried forward (or over days still to come) would leave it unclosable.
 */
async function refuseUnclosableBooks(services: CommandServices, org: OrganisationState, hardLockDate: IsoDate): Promise<void> {
  if (hardLockDate === org.hardLockDate) return;
  const today = services.now().slice(0, 10);
  if (hardLockDate > today) fail(AccountingErrors.hardLockDateInFuture, { hardLockDate, today });
  // Only the exercises it newly covers: one behind the current hard lock is beyond help either way.
  const covered = [...org.exercises.values()].filter((e) => e.endDate <= hardLockDate && !(org.hardLockDate && e.endDate <= org.hardLockDate));
  for (const exercise of covered.sort((a, b) => (a.startDate < b.startDate ? -1 : 1))) {
    if (!(await carriedForward(services, org, exercise))) fail(AccountingErrors.hardLockDateOpenExercise, { hardLockDate, exercise: exerciseLabel(exercise) });
  }
  // An exercise the lock newly cuts into: if it is closed without its opening (a reopening stopped half-way), only
  // reopening it (which the lock would refuse, its first day locked) or closing it again can finish it.
  const cut = [...org.exercises.values()].filter((e) => e.startDate <= hardLockDate && hardLockDate < e.endDate && !(org.hardLockDate && e.startDate <= org.hardLockDate));
  for (const exercise of cut) {
    const { state } = await services.aggregates.load(LedgerAggregate, exercise.id);
    if (state.closed && !(await carriedForward(services, org, exercise, state))) fail(AccountingErrors.hardLockDateOpenExercise, { hardLockDate, exercise: exerciseLabel(exercise) });
  }
}
