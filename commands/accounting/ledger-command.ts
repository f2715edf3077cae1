/**
 * A command on one exercise's ledger, decided with the organisation as the caller loaded it: an exercise's
 * dates and periods never change once it is created, and these commands guard no deletion.
 */
import { AccountingErrors } from '../../domain/accounting/errors.ts';
import { decideLedger, type LedgerCommand } from '../../domain/accounting/ledger.ts';
import type { OrganisationState } from '../../domain/accounting/organisation.ts';
import { fail } from '../../domain/errors.ts';
import type { CommandContext } from '../aggregate-store.ts';
import type { CommandServices } from '../services.ts';
import { LedgerAggregate } from './aggregates.ts';

export function ledgerCommand(services: CommandServices, ctx: CommandContext, org: OrganisationState, exerciseId: string, command: LedgerCommand) {
  const exercise = org.exercises.get(exerciseId) ?? fail(AccountingErrors.exerciseNotFound, { id: exerciseId });
  return services.aggregates.execute(LedgerAggregate, exerciseId, ctx, (ledger) => decideLedger(command, ledger, exercise, org));
}
