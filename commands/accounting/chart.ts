/**
 * The chart of accounts and the journal types: created and updated as decisions on the organisation's
 * stream; deleted only while no live entry of any exercise uses them (the guard reads every ledger).
 */
import type { LedgerState } from '../../domain/accounting/ledger.ts';
import { decideOrganisation, type OrganisationCommand } from '../../domain/accounting/organisation.ts';
import { answerInputId, command, defined, parse, type CommandHandler } from '../handler.ts';
import { OrganisationAggregate } from './aggregates.ts';
import { withAllLedgers } from './all-ledgers.ts';
import { eventOf } from './answers.ts';
import { AccountCreateInput, AccountUpdateInput, IdInput, JournalTypeCreateInput, JournalTypeUpdateInput } from './inputs.ts';

export const createAccountingAccount = command({
  input: AccountCreateInput,
  aggregate: OrganisationAggregate,
  decide: (i, state, { newId, now }) => decideOrganisation({ type: 'CreateAccountingAccount', accountId: newId('account'), fields: defined(i) as typeof i, now }, state),
  answer: (events) => ({ id: eventOf(events, 'AccountingAccountCreated').data.accountId }),
});

export const updateAccountingAccount = command({
  input: AccountUpdateInput,
  aggregate: OrganisationAggregate,
  decide: ({ id, ...changes }, state, { now }) => decideOrganisation({ type: 'UpdateAccountingAccount', accountId: id, changes: defined(changes), now }, state),
  answer: answerInputId,
});

/** Refused while any exercise's ledger has a line on the account. */
export const deleteAccountingAccount = guardedDeletion((id, ledgers, now) => ({
  type: 'DeleteAccountingAccount', accountId: id, accountHasEntries: ledgers.some((l) => l.accountUsage.has(id)), now,
}));

export const createJournalType = command({
  input: JournalTypeCreateInput,
  aggregate: OrganisationAggregate,
  decide: (i, state, { newId, now }) => decideOrganisation({ type: 'CreateJournalType', journalTypeId: newId('journal-type'), fields: defined(i) as typeof i, now }, state),
  answer: (events) => ({ id: eventOf(events, 'JournalTypeCreated').data.journalTypeId }),
});

export const updateJournalType = command({
  input: JournalTypeUpdateInput,
  aggregate: OrganisationAggregate,
  decide: ({ id, ...changes }, state, { now }) => decideOrganisation({ type: 'UpdateJournalType', journalTypeId: id, changes: defined(changes), now }, state),
  answer: answerInputId,
});

/** Refused while any exercise's ledger has an entry in the journal. */
export const deleteJournalType = guardedDeletion((id, ledgers, now) => ({
  type: 'DeleteJournalType', journalTypeId: id, journalTypeInUse: ledgers.some((l) => l.journalTypeUsage.has(id)), now,
}));

/**
 * A deletion from the organisation's stream decided with every ledger loaded, under withAllLedgers' locks:
 * no entry lands between the check and the deletion. The ledgers' stream locks are held already, so the
 * append locks the organisation's stream only.
 */
function guardedDeletion(deletion: (id: string, ledgers: LedgerState[], now: string) => OrganisationCommand): CommandHandler {
  return async (services, ctx, raw) => {
    const { id } = parse(IdInput, raw);
    return withAllLedgers(services, ctx, async (ledgers) => {
      const now = services.now();
      const r = await services.aggregates.execute(OrganisationAggregate, ctx.organisationId, ctx, (state) => decideOrganisation(deletion(id, ledgers, now), state));
      return { id, position: r.position };
    });
  };
}
