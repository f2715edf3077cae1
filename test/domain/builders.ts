/**
 * Shared builders for the pure domain tests: fold events into states, build an organisation with its
 * chart and an exercise, and drive the Ledger decider the way the command handlers do
 * (decide -> evolve). Note that both evolvers mutate the state they are given, so every test builds
 * its own states from scratch.
 */
import { randomUUID } from 'node:crypto';
import { derivedId } from '../../domain/ids.ts';
import type { TAP } from 'tap';
import { BusinessError } from '../../domain/errors.ts';
import type { SourceType } from '../../domain/accounting/enums.ts';
import type { OrganisationCountry } from '../../domain/enums.ts';
import {
  decideLedger,
  evolveLedger,
  initialLedgerState,
  type KnownThirdParty,
  type LedgerCommand,
  type LedgerEvent,
  type LedgerState,
  type LineInput,
} from '../../domain/accounting/ledger.ts';
import {
  decideOrganisation,
  evolveOrganisation,
  initialOrganisationState,
  type ExerciseSpan,
  type OrganisationCommand,
  type OrganisationEvent,
  type OrganisationState,
  type PeriodDefinition,
} from '../../domain/accounting/organisation.ts';

export const NOW = '2026-01-15T10:00:00.000Z';

export const id = (): string => randomUUID();
/** A stable party id per code, for ledgers that name parties by code. */
export const partyIdOf = (code: string): string => derivedId('00000000-0000-4000-8000-000000000000', 'party', code);

// ---------------------------------------------------------------------------------------------
// Folding

export const foldOrganisation = (events: OrganisationEvent[], state: OrganisationState = initialOrganisationState()): OrganisationState =>
  events.reduce(evolveOrganisation, state);

export const foldLedger = (events: LedgerEvent[], state: LedgerState = initialLedgerState()): LedgerState =>
  events.reduce(evolveLedger, state);

/** Runs `fn` and returns the BusinessError it throws (or undefined when it does not throw one). */
export function businessErrorOf(fn: () => unknown): BusinessError | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof BusinessError) return error;
    throw error;
  }
  return undefined;
}

/** The assertions `refuses` needs; any tap test (root or subtest) provides them. */
type Asserts = Pick<TAP, 'ok' | 'equal'>;

/** Asserts that `fn` is refused with the business error `code`. */
export function refuses(t: Asserts, fn: () => unknown, code: string, message = `refused with ${code}`): BusinessError | undefined {
  const error = businessErrorOf(fn);
  t.ok(error, `${message}: a BusinessError is thrown`);
  t.equal(error?.code, code, message);
  return error;
}

// ---------------------------------------------------------------------------------------------
// Organisation

export const createOrganisationCommand = (country: OrganisationCountry, organisationId = id()): OrganisationCommand => ({
  type: 'CreateOrganisation',
  organisationId,
  name: `Test ${country}`,
  country,
  features: ['CORE', 'ACCOUNTING'],
  now: NOW,
});

/** A fresh organisation state for `country`, with its chart and journal types installed. */
export function organisationState(country: OrganisationCountry = 'ES'): OrganisationState {
  return foldOrganisation(decideOrganisation(createOrganisationCommand(country), initialOrganisationState()));
}

/** decide + evolve on an organisation state; returns the emitted events. */
export function executeOrganisation(state: OrganisationState, command: OrganisationCommand): OrganisationEvent[] {
  const events = decideOrganisation(command, state);
  foldOrganisation(events, state);
  return events;
}

export const createExerciseCommand = (startDate: string, endDate: string, exerciseId = id()): OrganisationCommand => ({
  type: 'CreateAccountingExercise',
  exerciseId,
  startDate,
  endDate,
  description: null,
  now: NOW,
});

export function accountIdByCode(state: OrganisationState, code: string): string {
  const accountId = state.accountIdByCode.get(code);
  if (!accountId) throw new Error(`test setup: no account ${code}`);
  return accountId;
}

// ---------------------------------------------------------------------------------------------
// Ledger

export const debit = (subAccountId: string, amount: string | number, thirdCode: string | null = null): LineInput => ({
  subAccountId,
  thirdCode,
  description: null,
  debitAmount: amount,
  creditAmount: null,
});

export const credit = (subAccountId: string, amount: string | number, thirdCode: string | null = null): LineInput => ({
  subAccountId,
  thirdCode,
  description: null,
  debitAmount: null,
  creditAmount: amount,
});

export type PostCommand = Extract<LedgerCommand, { type: 'PostAccountingEntry' }>;

/**
 * One organisation (with its chart), one exercise and that exercise's ledger, kept in step with the
 * deciders. `decide` only decides; `execute` decides and applies the events to the ledger state.
 */
export class Book {
  readonly history: LedgerEvent[] = [];
  ledger: LedgerState = initialLedgerState();
  /** The organisation's parties as the ledger sees them: any code is a customer's, unless a test says otherwise. */
  knownThirdParty: KnownThirdParty = (code) => ({ id: partyIdOf(code), code, origin: 'CUSTOMER' });

  private constructor(
    public organisation: OrganisationState,
    readonly exercise: ExerciseSpan,
  ) {}

  static create(country: OrganisationCountry = 'ES', startDate = '2026-01-01', endDate = '2026-12-31'): Book {
    const organisation = organisationState(country);
    const exerciseId = id();
    executeOrganisation(organisation, createExerciseCommand(startDate, endDate, exerciseId));
    const exercise = organisation.exercises.get(exerciseId);
    if (!exercise) throw new Error('test setup: exercise not created');
    return new Book(organisation, exercise);
  }

  account(code: string): string {
    return accountIdByCode(this.organisation, code);
  }

  journal(code = 'GEN'): string {
    const journalTypeId = this.organisation.journalTypeIdByCode.get(code);
    if (!journalTypeId) throw new Error(`test setup: no journal type ${code}`);
    return journalTypeId;
  }

  /** The period containing `date`. */
  period(date: string): PeriodDefinition {
    const period = this.exercise.periods.find((p) => p.startDate <= date && date <= p.endDate);
    if (!period) throw new Error(`test setup: no period for ${date}`);
    return period;
  }

  postCommand(lines: LineInput[], overrides: Partial<PostCommand> = {}): PostCommand {
    return {
      type: 'PostAccountingEntry',
      entryId: id(),
      lineIds: lines.map(() => id()),
      date: '2026-01-15',
      documentDate: null,
      documentNumber: null,
      description: 'test entry',
      journalTypeId: this.journal(),
      lines,
      sourceType: 'ACCOUNTING' as SourceType,
      now: NOW,
      ...overrides,
    };
  }

  decide(command: LedgerCommand): LedgerEvent[] {
    return decideLedger(command, this.ledger, this.exercise, this.organisation, this.knownThirdParty);
  }

  execute(command: LedgerCommand): LedgerEvent[] {
    const events = this.decide(command);
    this.apply(events);
    return events;
  }

  apply(events: LedgerEvent[]): void {
    for (const event of events) {
      this.ledger = evolveLedger(this.ledger, event);
      this.history.push(event);
    }
  }

  /** Posts a balanced entry and returns its AccountingEntryPosted event. */
  post(lines: LineInput[], overrides: Partial<PostCommand> = {}): Extract<LedgerEvent, { type: 'AccountingEntryPosted' }> {
    const [event] = this.execute(this.postCommand(lines, overrides));
    if (event?.type !== 'AccountingEntryPosted') throw new Error('test setup: expected AccountingEntryPosted');
    return event;
  }

  /** A simple balanced entry: debit bank, credit customer. */
  postSimple(amount = '100.00', overrides: Partial<PostCommand> = {}) {
    return this.post([debit(this.account('5720000'), amount), credit(this.account('4300000'), amount)], overrides);
  }

  deleteEntry(entryId: string): LedgerEvent[] {
    return this.execute({ type: 'DeleteAccountingEntry', entryId, now: NOW });
  }

  closePeriod(periodId: string): LedgerEvent[] {
    return this.execute({ type: 'CloseAccountingPeriod', periodId, now: NOW });
  }

  reopenPeriod(periodId: string): LedgerEvent[] {
    return this.execute({ type: 'ReopenAccountingPeriod', periodId, now: NOW });
  }

  closeExercise(): LedgerEvent[] {
    return this.execute({ type: 'CloseAccountingExercise', now: NOW });
  }

  /** Applies an organisation event (e.g. deactivating an account) to the organisation state. */
  applyOrganisation(event: OrganisationEvent): void {
    this.organisation = evolveOrganisation(this.organisation, event);
  }
}
