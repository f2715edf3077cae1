/**
 * Accounting exercises and their periods: an exercise is created on the organisation's stream (which keeps
 * the register of exercises and their dates); closing or reopening one of its periods is a command on its
 * ledger; closing and reopening the exercise itself are the year end's (year-end.ts).
 */
import { AccountingErrors } from '../../domain/accounting/errors.ts';
import { decideOrganisation } from '../../domain/accounting/organisation.ts';
import { fail } from '../../domain/errors.ts';
import { command, parse, type CommandHandler } from '../handler.ts';
import { OrganisationAggregate } from './aggregates.ts';
import { eventOf } from './answers.ts';
import { ExerciseCreateInput, IdInput } from './inputs.ts';
import { ledgerCommand } from './ledger-command.ts';
import { sharingOrganisation } from '../organisation-guards.ts';

export const createAccountingExercise = command({
  input: ExerciseCreateInput,
  aggregate: OrganisationAggregate,
  decide: (i, state, { newId, now }) => decideOrganisation({
    type: 'CreateAccountingExercise', exerciseId: newId('exercise'), exercise: i.exercise, startDate: i.startDate, endDate: i.endDate, numberPeriods: i.numberPeriods, description: i.description, now,
  }, state),
  answer: (events) => ({ id: eventOf(events, 'AccountingExerciseCreated').data.exerciseId }),
});

export const closeAccountingPeriod = periodCommand('CloseAccountingPeriod');
export const reopenAccountingPeriod = periodCommand('ReopenAccountingPeriod');

/**
 * Closes or reopens a period, on the ledger of the exercise whose periods include it. Under the organisation's
 * shared lock: lock dates change under it alone, so a reopening is decided with the hard lock date as it stands.
 */
function periodCommand(type: 'CloseAccountingPeriod' | 'ReopenAccountingPeriod'): CommandHandler {
  return sharingOrganisation(async (services, ctx, raw) => {
    const { id } = parse(IdInput, raw);
    const org = await services.organisation(ctx.organisationId);
    const exercise = [...org.exercises.values()].find((e) => e.periods.some((p) => p.periodId === id)) ?? fail(AccountingErrors.periodNotFound, { id });
    const r = await ledgerCommand(services, ctx, org, exercise.id, { type, periodId: id, now: services.now() });
    return { id, position: r.position };
  });
}
