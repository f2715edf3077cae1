/**
 * The chart of accounts and the journal types: created and updated as decisions on the organisation's
 * stream; deleted only while no live entry of any exercise uses them (the guard reads every ledger) and
 * no payment method, product or party refers to them (it reads the SharedSettings, Catalog and Parties streams).
 */
import { AccountingErrors } from '../../domain/accounting/errors.ts';
import type { LedgerState } from '../../domain/accounting/ledger.ts';
import { decideOrganisation, type OrganisationCommand, type OrganisationState } from '../../domain/accounting/organisation.ts';
import { productUsingAccount, type CatalogState } from '../../domain/catalog/products.ts';
import { fail } from '../../domain/errors.ts';
import { partyUsingAccount, type PartiesState } from '../../domain/parties/parties.ts';
import { settingUsingChart, type SettingsState } from '../../domain/settings/settings.ts';
import { AggregateStore } from '../aggregate-store.ts';
import { CatalogAggregate } from '../catalog/aggregates.ts';
import { PartiesAggregate } from '../parties/aggregates.ts';
import { SettingsAggregate } from '../settings/aggregates.ts';
import { answerInputId, command, defined, parse, type CommandHandler } from '../handler.ts';
import { sharingOrganisation } from '../organisation-guards.ts';
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

/**
 * Refused while any exercise's ledger has a line on the account, or another account (the decision), a payment
 * method, mean, product or party names it.
 */
export const deleteAccountingAccount = guardedDeletion((id, ledgers, now) => ({
  type: 'DeleteAccountingAccount', accountId: id, accountHasEntries: ledgers.some((l) => l.accountUsage.has(id)), now,
}), (id, org, { settings, catalog, parties }) => {
  const code = org.accounts.get(id)!.code; // the decision found it
  const setting = settingUsingChart(settings, id);
  if (setting !== undefined) fail(AccountingErrors.accountReferenced, { code, ...setting });
  const product = productUsingAccount(catalog, id);
  if (product !== undefined) fail(AccountingErrors.accountReferenced, { code, entity: 'product', name: product });
  const party = partyUsingAccount(parties, id);
  if (party !== undefined) fail(AccountingErrors.accountReferenced, { code, ...party });
});

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

/** Refused while any exercise's ledger has an entry in the journal, or a payment method posts through it. */
export const deleteJournalType = guardedDeletion((id, ledgers, now) => ({
  type: 'DeleteJournalType', journalTypeId: id, journalTypeInUse: ledgers.some((l) => l.journalTypeUsage.has(id)), now,
}), (id, org, { settings }) => {
  const setting = settingUsingChart(settings, id);
  if (setting !== undefined) fail(AccountingErrors.journalTypeReferenced, { code: org.journalTypes.get(id)!.code, ...setting });
});

/** What refers to the chart outside the ledgers: the organisation's payment methods and means, products and parties. */
interface Referrers { settings: SettingsState; catalog: CatalogState; parties: PartiesState }

/**
 * A deletion from the organisation's stream decided with every ledger loaded, under withAllLedgers' locks:
 * no entry lands between the check and the deletion. The Parties, SharedSettings and Catalog streams are held
 * too (before the organisation's, the order every command of theirs takes them in: withLocks takes one call's
 * streams sorted, and party commands hold Parties and SharedSettings before reading the organisation) and read,
 * so no payment method, product or party starts using the account or journal type meanwhile in this process; in others, those commands
 * run under the organisation's shared lock (referringToChart) and the deletion holds it alone. `referred`
 * refuses, after the ledgers' own refusals, when a payment method or product refers to the id.
 */
function guardedDeletion(
  deletion: (id: string, ledgers: LedgerState[], now: string) => OrganisationCommand,
  referred: (id: string, organisation: OrganisationState, referrers: Referrers) => void,
): CommandHandler {
  return async (services, ctx, raw) => {
    const { id } = parse(IdInput, raw);
    return withAllLedgers(services, ctx, async (ledgers) => {
      const now = services.now();
      const streams = [PartiesAggregate, SettingsAggregate, CatalogAggregate].map((a) => AggregateStore.streamId(a.category, ctx.organisationId));
      return services.aggregates.withLocks(streams, async () => {
        const referrers = {
          settings: (await services.aggregates.loadHeld(SettingsAggregate, ctx.organisationId)).state,
          catalog: (await services.aggregates.loadHeld(CatalogAggregate, ctx.organisationId)).state,
          parties: (await services.aggregates.loadHeld(PartiesAggregate, ctx.organisationId)).state,
        };
        const r = await services.aggregates.execute(OrganisationAggregate, ctx.organisationId, ctx, (state) => {
          const events = decideOrganisation(deletion(id, ledgers, now), state);
          referred(id, state, referrers);
          return events;
        });
        return { id, position: r.position };
      });
    });
  };
}

/**
 * A command that makes a payment method or mean, a product or a party refer to an account or journal type: run under the
 * organisation's shared lock, as postings are, so no guarded deletion in any process decides between its
 * check of the chart and its append.
 */
export const referringToChart: (handler: CommandHandler) => CommandHandler = sharingOrganisation;
