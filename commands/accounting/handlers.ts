/**
 * Accounting command handlers: validate input (zod), resolve codes to ids, decide against the
 * Organisation and Ledger aggregates, append. Every handler returns what its mutation returns.
 */
import { randomUUID } from 'node:crypto';
import type { IsoDate } from '../../domain/calendar.ts';
import { Errors, fail } from '../../domain/errors.ts';
import { AccountingErrors } from '../../domain/accounting/errors.ts';
import { NO_THIRD_PARTIES, decideLedger, type KnownThirdParty, type LedgerEvent, type LedgerState, type LineInput } from '../../domain/accounting/ledger.ts';
import { decideOrganisation, exerciseForDate, type OrganisationCommand, type OrganisationState } from '../../domain/accounting/organisation.ts';
import type { GlobalPosition } from '../../eventstore/port.ts';
import type { OrganisationLocks } from '../organisation-locks.ts';
import { AggregateStore, type CommandContext } from '../aggregate-store.ts';
import { defined, newId, parse } from '../handler.ts';
import { LedgerAggregate, OrganisationAggregate } from './aggregates.ts';
import { AccountCreateInput, AccountUpdateInput, EntryUsingCodesInput, EntryUsingIdsInput, ExerciseCreateInput, IdInput, JournalTypeCreateInput, JournalTypeUpdateInput, OrganisationCreateInput } from './inputs.ts';
import { PartiesAggregate } from '../parties/aggregates.ts';

/** What a posting returns, from its event (as appended, or as recorded when a retry is answered). */
function entryCreated(r: { events: LedgerEvent[]; position: GlobalPosition | null }): EntryCreated {
  const posted = r.events[0];
  if (posted?.type !== 'AccountingEntryPosted') throw new Error('posting produced no entry');
  return { id: posted.data.entryId, number: posted.data.number, position: r.position };
}

/** How an entry's lines name their third party: by the party's code, or by its id. */
type ThirdPartyReference = 'code' | 'id';
type EntryHeader = { date: IsoDate; documentDate: IsoDate | null; documentNumber: string | null; description: string | null; journalTypeId: string };

export interface EntryCreated {
  id: string;
  number: number;
  position: GlobalPosition | null;
}

export class AccountingCommands {
  constructor(
    readonly aggregates: AggregateStore,
    /** Across processes: postings against guarded deletions (see organisation-locks.ts). */
    readonly locks: OrganisationLocks,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private now(): string {
    return this.clock().toISOString();
  }

  private organisationCommand(ctx: CommandContext, command: OrganisationCommand, alsoLock: string[] = []) {
    return this.aggregates.execute(OrganisationAggregate, ctx.organisationId, ctx, (state) => decideOrganisation(command, state), alsoLock);
  }

  async organisation(organisationId: string): Promise<OrganisationState> {
    const { state } = await this.aggregates.load(OrganisationAggregate, organisationId);
    if (!state.id) fail(Errors.organisationNotFound, { id: organisationId });
    return state;
  }

  async createOrganisation(ctx: Omit<CommandContext, 'organisationId'>, input: unknown, organisationId: string = randomUUID()) {
    const i = parse(OrganisationCreateInput, input);
    const result = await this.organisationCommand({ ...ctx, organisationId }, { type: 'CreateOrganisation', organisationId, name: i.name, country: i.country, features: i.features, now: this.now() });
    return { id: organisationId, position: result.position };
  }

  async createAccountingAccount(ctx: CommandContext, input: unknown) {
    const i = parse(AccountCreateInput, input);
    const accountId = newId(ctx, 'account');
    const r = await this.organisationCommand(ctx, { type: 'CreateAccountingAccount', accountId, fields: defined(i) as typeof i, now: this.now() });
    return { id: accountId, position: r.position };
  }

  async updateAccountingAccount(ctx: CommandContext, input: unknown) {
    const { id, ...changes } = parse(AccountUpdateInput, input);
    const r = await this.organisationCommand(ctx, { type: 'UpdateAccountingAccount', accountId: id, changes: defined(changes), now: this.now() });
    return { id, position: r.position };
  }

  /** Refused while any exercise's ledger has a line on the account; all ledgers are locked meanwhile. */
  async deleteAccountingAccount(ctx: CommandContext, input: unknown) {
    const { id } = parse(IdInput, input);
    return this.withAllLedgers(ctx, async (ledgers, lockNames) => {
      const r = await this.organisationCommand(ctx, {
        type: 'DeleteAccountingAccount', accountId: id, accountHasEntries: ledgers.some((l) => l.accountUsage.has(id)), now: this.now(),
      }, lockNames);
      return { id, position: r.position };
    });
  }

  async createJournalType(ctx: CommandContext, input: unknown) {
    const i = parse(JournalTypeCreateInput, input);
    const journalTypeId = newId(ctx, 'journal-type');
    const r = await this.organisationCommand(ctx, { type: 'CreateJournalType', journalTypeId, fields: defined(i) as typeof i, now: this.now() });
    return { id: journalTypeId, position: r.position };
  }

  async updateJournalType(ctx: CommandContext, input: unknown) {
    const { id, ...changes } = parse(JournalTypeUpdateInput, input);
    const r = await this.organisationCommand(ctx, { type: 'UpdateJournalType', journalTypeId: id, changes: defined(changes), now: this.now() });
    return { id, position: r.position };
  }

  async deleteJournalType(ctx: CommandContext, input: unknown) {
    const { id } = parse(IdInput, input);
    return this.withAllLedgers(ctx, async (ledgers, lockNames) => {
      const r = await this.organisationCommand(ctx, {
        type: 'DeleteJournalType', journalTypeId: id, journalTypeInUse: ledgers.some((l) => l.journalTypeUsage.has(id)), now: this.now(),
      }, lockNames);
      return { id, position: r.position };
    });
  }

  async createAccountingExercise(ctx: CommandContext, input: unknown) {
    const i = parse(ExerciseCreateInput, input);
    const exerciseId = newId(ctx, 'exercise');
    const r = await this.organisationCommand(ctx, { type: 'CreateAccountingExercise', exerciseId, startDate: i.startDate, endDate: i.endDate, description: i.description, now: this.now() });
    return { id: exerciseId, position: r.position };
  }

  async createAccountingEntryUsingCodes(ctx: CommandContext, input: unknown): Promise<EntryCreated> {
    const i = parse(EntryUsingCodesInput, input);
    // A retry is answered before the codes are resolved again: they may have changed since.
    const replay = await this.aggregates.recorded<LedgerEvent>(ctx);
    if (replay) return entryCreated(replay);
    return this.postEntry(ctx, 'code', (org) => ({
      header: { ...i, journalTypeId: org.journalTypeIdByCode.get(i.journalTypeCode) ?? fail(AccountingErrors.journalTypeNotFound, { code: i.journalTypeCode }) },
      lines: i.accountingEntryLines.map((l, n) => ({
        subAccountId: org.accountIdByCode.get(l.subAccountCode) ?? fail(AccountingErrors.accountNotFound, { code: l.subAccountCode, line: n + 1 }),
        thirdCode: l.thirdCode, description: l.description, debitAmount: l.debitAmount ?? null, creditAmount: l.creditAmount ?? null,
      })),
    }));
  }

  async createAccountingEntryUsingIds(ctx: CommandContext, input: unknown): Promise<EntryCreated> {
    const i = parse(EntryUsingIdsInput, input);
    const lines: LineInput[] = i.accountingEntryLines.map((l) => ({
      subAccountId: l.subAccountId, thirdCode: l.thirdId ?? null, description: l.description, debitAmount: l.debitAmount ?? null, creditAmount: l.creditAmount ?? null,
    }));
    return this.postEntry(ctx, 'id', () => ({ header: i, lines }));
  }

  /**
   * Posts the entry `resolve` makes of the organisation, loaded once (one cache lookup and one catch-up
   * read) under the organisation's shared lock: no guarded deletion (account, journal type, party) runs
   * in any process until the append, so the exercise is chosen and the entry decided on that one state,
   * also when a conflict with another process's posting decides again. Other changes to the organisation
   * (a new account, a deactivation) order the posting before them, as they would if they came later.
   */
  private postEntry(ctx: CommandContext, thirdPartiesBy: ThirdPartyReference, resolve: (org: OrganisationState) => { header: EntryHeader; lines: LineInput[] }): Promise<EntryCreated> {
    return this.locks.shared(ctx.organisationId, async () => {
      const org = await this.organisation(ctx.organisationId);
      const { header, lines } = resolve(org);
      const exercise = exerciseForDate(org, header.date) ?? fail(AccountingErrors.noExerciseForDate, { date: header.date });
      const entryId = newId(ctx, 'entry');
      const r = await this.aggregates.execute(LedgerAggregate, exercise.id, ctx, async (ledger) => {
        // The parties inside the ledger's lock: a party deletion holds every ledger's lock and the organisation's alone.
        const thirdParties = lines.some((l) => l.thirdCode) ? await this.knownThirdParty(ctx.organisationId, thirdPartiesBy) : NO_THIRD_PARTIES;
        return decideLedger({
          type: 'PostAccountingEntry', entryId, lineIds: lines.map((_, i) => newId(ctx, 'line', i)), ...header, lines, sourceType: 'API', now: this.now(),
        }, ledger, exercise, org, thirdParties);
      });
      return entryCreated(r);
    });
  }

  /** Whether a live customer, supplier or employee of the organisation has this code (or id). */
  private async knownThirdParty(organisationId: string, by: ThirdPartyReference): Promise<KnownThirdParty> {
    const { state } = await this.aggregates.load(PartiesAggregate, organisationId);
    return by === 'code' ? (code) => state.idByCode.has(code) : (id) => state.parties.has(id);
  }

  /**
   * Runs a ledger command on one exercise, deciding with the organisation as loaded by the caller: an
   * exercise's dates and periods never change once it is created, and these commands guard no deletion.
   */
  private async ledgerCommand(ctx: CommandContext, org: OrganisationState, exerciseId: string, command: Parameters<typeof decideLedger>[0]) {
    const exercise = org.exercises.get(exerciseId) ?? fail(AccountingErrors.exerciseNotFound, { id: exerciseId });
    return this.aggregates.execute(LedgerAggregate, exerciseId, ctx, (ledger) => decideLedger(command, ledger, exercise, org));
  }

  async deleteAccountingEntry(ctx: CommandContext, input: unknown) {
    const { id } = parse(IdInput, input);
    // A retry is answered before looking the entry up: the first attempt deleted it.
    const replay = await this.aggregates.recorded(ctx);
    if (replay) return { id, position: replay.position };
    const org = await this.organisation(ctx.organisationId);
    const exerciseId = (await this.exerciseOfEntry(org, id)) ?? fail(AccountingErrors.entryNotFound, { id });
    const r = await this.ledgerCommand(ctx, org, exerciseId, { type: 'DeleteAccountingEntry', entryId: id, now: this.now() });
    return { id, position: r.position };
  }

  /**
   * The exercise whose ledger holds the entry, from the write side: the organisation's exercises, newest
   * first (where entries are deleted), each ledger loaded until one holds it. An entry never moves between
   * ledgers, and the one found is loaded already for the deletion (the aggregate cache keeps it); a read
   * model could still lack an entry just posted, or hold one another process has just deleted.
   */
  private async exerciseOfEntry(org: OrganisationState, entryId: string): Promise<string | undefined> {
    const newestFirst = [...org.exercises.values()].sort((a, b) => (a.startDate < b.startDate ? 1 : -1));
    for (const exercise of newestFirst) {
      const { state } = await this.aggregates.load(LedgerAggregate, exercise.id);
      if (state.entries.has(entryId)) return exercise.id;
    }
    return undefined;
  }

  async closeAccountingPeriod(ctx: CommandContext, input: unknown, reopen = false) {
    const { id } = parse(IdInput, input);
    const org = await this.organisation(ctx.organisationId);
    const exercise = [...org.exercises.values()].find((e) => e.periods.some((p) => p.periodId === id)) ?? fail(AccountingErrors.periodNotFound, { id });
    const r = await this.ledgerCommand(ctx, org, exercise.id, { type: reopen ? 'ReopenAccountingPeriod' : 'CloseAccountingPeriod', periodId: id, now: this.now() });
    return { id, position: r.position };
  }

  async closeAccountingExercise(ctx: CommandContext, input: unknown) {
    const { id } = parse(IdInput, input);
    const r = await this.ledgerCommand(ctx, await this.organisation(ctx.organisationId), id, { type: 'CloseAccountingExercise', now: this.now() });
    return { id, position: r.position };
  }

  /** Loads every ledger of the organisation while holding their locks, and the organisation's alone (deletion guards). */
  private withAllLedgers<T>(ctx: CommandContext, fn: (ledgers: LedgerState[], lockNames: string[]) => Promise<T>): Promise<T> {
    return this.locks.exclusive(ctx.organisationId, () => this.withAllLedgersHeld(ctx, fn));
  }

  private async withAllLedgersHeld<T>(ctx: CommandContext, fn: (ledgers: LedgerState[], lockNames: string[]) => Promise<T>): Promise<T> {
    const org = await this.organisation(ctx.organisationId);
    const ids = [...org.exercises.keys()];
    const lockNames = ids.map((id) => AggregateStore.streamId(LedgerAggregate.category, id));
    return this.aggregates.withLocks(lockNames, async () => {
      const ledgers = await Promise.all(ids.map(async (id) => (await this.aggregates.loadHeld(LedgerAggregate, id)).state));
      // execute() takes the organisation's lock; the ledger locks are already ours.
      return fn(ledgers, []);
    });
  }
}
