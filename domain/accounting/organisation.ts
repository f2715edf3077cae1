/**
 * The Organisation aggregate: the organisation itself, its chart of accounts, its journal types and the
 * register of its accounting exercises (their date ranges must not overlap). One stream per
 * organisation: `Organisation-<id>`. Pure decider: decide(command, state) -> events; evolve(state, event).
 */
import { CODE_LENGTH, checkCode } from '../codes.ts';
import { monthlyPeriods, isIsoDate, type IsoDate, MAX_PERIODS } from '../calendar.ts';
import {
  AccountLevel,
  type AccountNature,
  AccountType,
  JournalTypeType,
  POSTING_LEVEL,
  SubAccountType,
  type CreditNoteReason,
  type Month,
} from './enums.ts';
import type { OrganisationCountry } from '../enums.ts';
import { Errors, Reasons, assert, fail, unknownEvent } from '../errors.ts';
import { accountNature, offBalanceAccountType, plainSubAccountType } from './account-nature.ts';
import { AccountingErrors } from './errors.ts';
import { exerciseSpan, type StatedExercise } from './exercise-span.ts';
import { derivedId } from '../ids.ts';
import { classifyAccountCode, masterChartFor } from '../reference/charts.ts';
import { BASE_CURRENCY, CURRENCIES } from '../reference/countries.ts';
import { standardJournalTypesFor } from '../reference/journal-types.ts';

export const Feature = ['CORE', 'ACCOUNTING', 'SALES', 'EMPLOYEE_MANAGEMENT'] as const;
export type Feature = (typeof Feature)[number];

export interface AccountFields {
  code: string;
  name: string;
  description: string | null;
  accountLevel: AccountLevel;
  accountType: AccountType;
  subAccountType: SubAccountType;
  applyVat: boolean;
  createdByUser: boolean;
  exportAccountNumber: string | null;
  exportAutomaticAccount: boolean;
  includedEurForGermany: boolean;
  taxonomy: number | null;
  deactivated: boolean;
  yearEndClosingAccountId: string | null;
  transitionalPrepaymentAccountId: string | null;
  taxTreatmentId: string | null;
  /** Internal, not an API field (account-nature.ts): what reports and the year end need; null when unknown. */
  nature: AccountNature | null;
}
/** Internal markers the upcasters set on events stored with our first values (organisation-upcasters.ts). */
export interface AccountMarkers {
  /** The statement is the organisation country's off-balance one (an event stored with our first OFF_BALANCE). */
  offBalanceByCountry?: true;
}
export type AccountChanges = Partial<Omit<AccountFields, 'code' | 'createdByUser' | 'accountLevel'>> & AccountMarkers & {
  /** Internal: the sub-type becomes the plain one of the account's nature (an update stored with our first GENERAL). */
  plainSubAccountType?: true;
};

export interface JournalTypeFields {
  code: string;
  name: string;
  type: JournalTypeType;
  isCreditNote: boolean;
  creditNoteReason: CreditNoteReason | null;
  accountingAccountId: string | null;
  deactivated: boolean;
}
export type JournalTypeChanges = Partial<Omit<JournalTypeFields, 'code'>>;

export interface PeriodDefinition {
  periodId: string;
  month: Month;
  startDate: IsoDate;
  endDate: IsoDate;
}

export type OrganisationEvent =
  | { type: 'OrganisationCreated'; data: { organisationId: string; name: string; country: OrganisationCountry; baseCurrency: string; currencyPrecision: number; features: Feature[]; chartKey: string; defaultSessionId: string; at: string } }
  | { type: 'AccountingAccountCreated'; data: { accountId: string; at: string } & AccountFields & AccountMarkers }
  | { type: 'AccountingAccountUpdated'; data: { accountId: string; changes: AccountChanges; at: string } }
  | { type: 'AccountingAccountDeleted'; data: { accountId: string; code: string; at: string } }
  | { type: 'JournalTypeCreated'; data: { journalTypeId: string; at: string } & JournalTypeFields }
  | { type: 'JournalTypeUpdated'; data: { journalTypeId: string; changes: JournalTypeChanges; at: string } }
  | { type: 'JournalTypeDeleted'; data: { journalTypeId: string; code: string; at: string } }
  | { type: 'AccountingExerciseCreated'; data: { exerciseId: string; exercise: number; startDate: IsoDate; endDate: IsoDate; description: string | null; periods: PeriodDefinition[]; at: string } }
  /** Both lock dates as they stand after the change (null: none). */
  | { type: 'AccountingLockDatesSet'; data: { organisationId: string; lockDate: IsoDate | null; hardLockDate: IsoDate | null; at: string } };

export const ORGANISATION_EVENT_TYPES = [
  'OrganisationCreated', 'AccountingAccountCreated', 'AccountingAccountUpdated', 'AccountingAccountDeleted',
  'JournalTypeCreated', 'JournalTypeUpdated', 'JournalTypeDeleted', 'AccountingExerciseCreated', 'AccountingLockDatesSet',
] as const satisfies readonly OrganisationEvent['type'][];

export interface AccountState {
  id: string;
  code: string;
  accountLevel: AccountLevel;
  accountType: AccountType;
  subAccountType: SubAccountType;
  nature: AccountNature | null;
  deactivated: boolean;
  /** Accounts this one names: not deleted while it does (chartRefererOf). */
  yearEndClosingAccountId: string | null;
  transitionalPrepaymentAccountId: string | null;
}
export interface JournalTypeState {
  id: string;
  code: string;
  /** What it journals (a sales invoice posts only to a SALES_INVOICE journal). */
  type: JournalTypeType;
  deactivated: boolean;
  /** The account it names: not deleted while it does (chartRefererOf). */
  accountingAccountId: string | null;
}
export interface ExerciseSpan {
  id: string;
  /** The exercise's year (its label). */
  exercise?: number;
  startDate: IsoDate;
  endDate: IsoDate;
  periods: PeriodDefinition[];
}

export interface OrganisationState {
  id: string | null;
  country: OrganisationCountry | null;
  baseCurrency: string;
  currencyPrecision: number;
  features: Feature[];
  defaultSessionId: string | null;
  accounts: Map<string, AccountState>;
  accountIdByCode: Map<string, string>;
  /** Codes of the accounts the organisation deleted: a chart upgrade never installs them again (InstallChartAccounts). */
  deletedAccountCodes: Set<string>;
  journalTypes: Map<string, JournalTypeState>;
  journalTypeIdByCode: Map<string, string>;
  exercises: Map<string, ExerciseSpan>;
  /**
   * Lock dates in Odoo's sense: nothing dated on or before either is posted or deleted. An administrator moves
   * `lockDate` either way or lifts it; `hardLockDate` only moves forward and is never lifted.
   */
  lockDate: IsoDate | null;
  hardLockDate: IsoDate | null;
}

export const initialOrganisationState = (): OrganisationState => ({
  id: null,
  country: null,
  baseCurrency: '',
  currencyPrecision: 2,
  features: [],
  defaultSessionId: null,
  accounts: new Map(),
  accountIdByCode: new Map(),
  deletedAccountCodes: new Set(),
  journalTypes: new Map(),
  journalTypeIdByCode: new Map(),
  exercises: new Map(),
  lockDate: null,
  hardLockDate: null,
});

export type OrganisationCommand =
  | { type: 'CreateOrganisation'; organisationId: string; name: string; country: OrganisationCountry; features: Feature[]; now: string }
  | { type: 'CreateAccountingAccount'; accountId: string; fields: Partial<AccountFields> & { code: string; name: string }; now: string }
  | { type: 'UpdateAccountingAccount'; accountId: string; changes: AccountChanges; now: string }
  | { type: 'DeleteAccountingAccount'; accountId: string; accountHasEntries: boolean; now: string }
  /** A chart upgrade: the master chart's posting accounts whose code the organisation has never had. */
  | { type: 'InstallChartAccounts'; now: string }
  | { type: 'CreateJournalType'; journalTypeId: string; fields: Partial<JournalTypeFields> & { code: string; name: string; type: JournalTypeType }; now: string }
  | { type: 'UpdateJournalType'; journalTypeId: string; changes: JournalTypeChanges; now: string }
  | { type: 'DeleteJournalType'; journalTypeId: string; journalTypeInUse: boolean; now: string }
  | ({ type: 'CreateAccountingExercise'; exerciseId: string; description: string | null; now: string } & StatedExercise)
  /** Lock dates to set: undefined leaves one as it is, null lifts it (the hard one cannot be). */
  | { type: 'SetAccountingLockDates'; lockDate?: IsoDate | null; hardLockDate?: IsoDate | null; now: string };

export const LIMITS = Object.freeze({ maxAccounts: 100_000, maxJournalTypes: 1_000, maxExercises: 200 });

function requireOrganisation(state: OrganisationState): asserts state is OrganisationState & { id: string; country: OrganisationCountry } {
  if (!state.id) fail(Errors.organisationNotFound);
}

function requireAccount(state: OrganisationState, accountId: string): AccountState {
  return state.accounts.get(accountId) ?? fail(AccountingErrors.accountNotFound, { id: accountId });
}

function requireJournalType(state: OrganisationState, journalTypeId: string): JournalTypeState {
  return state.journalTypes.get(journalTypeId) ?? fail(AccountingErrors.journalTypeNotFound, { id: journalTypeId });
}


function checkReferencedAccount(state: OrganisationState, id: string | null | undefined, field: string): void {
  if (id && !state.accounts.has(id)) fail(AccountingErrors.accountNotFound, { id, field });
}

type ChartLine = ReturnType<typeof masterChartFor>['lines'][number];

const chartAccount = (line: ChartLine): AccountFields => ({
  code: line.code,
  name: line.name,
  description: null,
  accountLevel: line.accountLevel,
  accountType: line.accountType,
  subAccountType: line.subAccountType,
  applyVat: line.applyVat,
  createdByUser: false,
  exportAccountNumber: null,
  exportAutomaticAccount: false,
  includedEurForGermany: false,
  taxonomy: null,
  deactivated: false,
  yearEndClosingAccountId: null,
  transitionalPrepaymentAccountId: null,
  taxTreatmentId: null,
  nature: line.nature,
});

/** A master chart line installed in the organisation: its id derives from the organisation and the code. */
const chartAccountCreated = (organisationId: string, line: ChartLine, at: string): OrganisationEvent => ({
  type: 'AccountingAccountCreated',
  data: { accountId: derivedId(organisationId, 'account', line.code), at, ...chartAccount(line) },
});

export function decideOrganisation(command: OrganisationCommand, state: OrganisationState): OrganisationEvent[] {
  const at = command.now;
  switch (command.type) {
    case 'CreateOrganisation': {
      if (state.id) fail(Errors.organisationAlreadyExists, { id: state.id });
      const chart = masterChartFor(command.country);
      const baseCurrency = BASE_CURRENCY[command.country];
      const currency = CURRENCIES.find((c) => c.code === baseCurrency);
      assert(currency, `currency ${baseCurrency} is in the reference list`);
      const orgId = command.organisationId;
      // Installing the country's chart and standard journal types is part of creating the organisation.
      return [
        { type: 'OrganisationCreated', data: { organisationId: orgId, name: command.name, country: command.country, baseCurrency, currencyPrecision: currency.precision, features: command.features, chartKey: chart.key, defaultSessionId: derivedId(orgId, 'session', 'default'), at } },
        ...chart.lines.map((line) => chartAccountCreated(orgId, line, at)),
        ...standardJournalTypesFor(command.country).map((j): OrganisationEvent => ({
          type: 'JournalTypeCreated',
          data: { journalTypeId: derivedId(orgId, 'journal-type', j.code), at, code: j.code, name: j.name, type: j.type, isCreditNote: j.isCreditNote, creditNoteReason: null, accountingAccountId: null, deactivated: false },
        })),
      ];
    }
    case 'CreateAccountingAccount': {
      requireOrganisation(state);
      const { code, name } = command.fields;
      checkCode(code, CODE_LENGTH.account);
      if (state.accountIdByCode.has(code)) fail(AccountingErrors.accountCodeAlreadyExists, { code });
      if (state.accounts.has(command.accountId)) fail(Errors.documentIdAlreadyExists, { id: command.accountId });
      if (state.accounts.size >= LIMITS.maxAccounts) fail(Errors.invalidInput, { field: 'code', reason: Reasons.tooMany, limit: LIMITS.maxAccounts });
      // Type and sub-type follow the code's class in the organisation's master chart unless given.
      const chartLine = classifyAccountCode(masterChartFor(state.country), code);
      if (!chartLine && !command.fields.accountType) fail(AccountingErrors.accountCodeNotInChart, { code });
      const f = command.fields;
      checkReferencedAccount(state, f.yearEndClosingAccountId, 'yearEndClosingAccountId');
      checkReferencedAccount(state, f.transitionalPrepaymentAccountId, 'transitionalPrepaymentAccountId');
      const accountType = f.accountType ?? chartLine!.accountType;
      const subAccountType = f.subAccountType ?? chartLine?.subAccountType ?? 'UNDEFINED';
      const fields: AccountFields = {
        code,
        name,
        description: f.description ?? null,
        accountLevel: f.accountLevel ?? POSTING_LEVEL,
        accountType,
        subAccountType,
        applyVat: f.applyVat ?? chartLine?.applyVat ?? false,
        createdByUser: true,
        exportAccountNumber: f.exportAccountNumber ?? null,
        exportAutomaticAccount: f.exportAutomaticAccount ?? false,
        includedEurForGermany: f.includedEurForGermany ?? false,
        taxonomy: f.taxonomy ?? null,
        deactivated: f.deactivated ?? false,
        yearEndClosingAccountId: f.yearEndClosingAccountId ?? null,
        transitionalPrepaymentAccountId: f.transitionalPrepaymentAccountId ?? null,
        taxTreatmentId: f.taxTreatmentId ?? null,
        nature: accountNature(accountType, subAccountType, chartLine?.nature),
      };
      return [{ type: 'AccountingAccountCreated', data: { accountId: command.accountId, at, ...fields } }];
    }
    case 'UpdateAccountingAccount': {
      requireOrganisation(state);
      const account = requireAccount(state, command.accountId);
      checkReferencedAccount(state, command.changes.yearEndClosingAccountId, 'yearEndClosingAccountId');
      checkReferencedAccount(state, command.changes.transitionalPrepaymentAccountId, 'transitionalPrepaymentAccountId');
      const { accountType, subAccountType } = command.changes;
      // A new statement or sub-type may say another nature: kept while it fits, else the sub-type's, else none.
      const changes = accountType === undefined && subAccountType === undefined ? command.changes
        : { ...command.changes, nature: accountNature(accountType ?? account.accountType, subAccountType ?? account.subAccountType, account.nature) };
      return [{ type: 'AccountingAccountUpdated', data: { accountId: command.accountId, changes, at } }];
    }
    case 'DeleteAccountingAccount': {
      requireOrganisation(state);
      const account = requireAccount(state, command.accountId);
      if (command.accountHasEntries) fail(AccountingErrors.accountHasEntries, { code: account.code });
      const referrer = chartRefererOf(state, account.id);
      if (referrer) fail(AccountingErrors.accountReferenced, { code: account.code, ...referrer });
      return [{ type: 'AccountingAccountDeleted', data: { accountId: account.id, code: account.code, at } }];
    }
    case 'InstallChartAccounts': {
      requireOrganisation(state);
      // Organisations created before the master chart gained a posting line lack it. Never one whose code the
      // organisation has (its own account is kept as is) or deleted on purpose; none at all once every line is there.
      const orgId = state.id;
      const missing = masterChartFor(state.country).lines.filter((line) => line.accountLevel === POSTING_LEVEL
        && !state.accountIdByCode.has(line.code) && !state.deletedAccountCodes.has(line.code)
        && !state.accounts.has(derivedId(orgId, 'account', line.code)));
      if (state.accounts.size + missing.length > LIMITS.maxAccounts) fail(Errors.invalidInput, { field: 'code', reason: Reasons.tooMany, limit: LIMITS.maxAccounts });
      return missing.map((line) => chartAccountCreated(orgId, line, at));
    }
    case 'CreateJournalType': {
      requireOrganisation(state);
      const f = command.fields;
      checkCode(f.code, CODE_LENGTH.journalType);
      if (state.journalTypeIdByCode.has(f.code)) fail(AccountingErrors.journalTypeCodeAlreadyExists, { code: f.code });
      if (state.journalTypes.has(command.journalTypeId)) fail(Errors.documentIdAlreadyExists, { id: command.journalTypeId });
      if (state.journalTypes.size >= LIMITS.maxJournalTypes) fail(Errors.invalidInput, { field: 'code', reason: Reasons.tooMany, limit: LIMITS.maxJournalTypes });
      checkReferencedAccount(state, f.accountingAccountId, 'accountingAccountId');
      return [{
        type: 'JournalTypeCreated',
        data: { journalTypeId: command.journalTypeId, at, code: f.code, name: f.name, type: f.type, isCreditNote: f.isCreditNote ?? false, creditNoteReason: f.creditNoteReason ?? null, accountingAccountId: f.accountingAccountId ?? null, deactivated: f.deactivated ?? false },
      }];
    }
    case 'UpdateJournalType': {
      requireOrganisation(state);
      requireJournalType(state, command.journalTypeId);
      checkReferencedAccount(state, command.changes.accountingAccountId, 'accountingAccountId');
      return [{ type: 'JournalTypeUpdated', data: { journalTypeId: command.journalTypeId, changes: command.changes, at } }];
    }
    case 'DeleteJournalType': {
      requireOrganisation(state);
      const journalType = requireJournalType(state, command.journalTypeId);
      if (command.journalTypeInUse) fail(AccountingErrors.journalTypeInUse, { code: journalType.code });
      return [{ type: 'JournalTypeDeleted', data: { journalTypeId: journalType.id, code: journalType.code, at } }];
    }
    case 'CreateAccountingExercise': {
      requireOrganisation(state);
      const { startDate } = command;
      const { endDate, exercise } = exerciseSpan(command);
      if (!isIsoDate(startDate) || !isIsoDate(endDate) || endDate < startDate) {
        fail(AccountingErrors.exerciseInvalidDates, { startDate, endDate, maxPeriods: MAX_PERIODS });
      }
      if (state.exercises.has(command.exerciseId)) fail(Errors.documentIdAlreadyExists, { id: command.exerciseId });
      if (state.exercises.size >= LIMITS.maxExercises) fail(Errors.invalidInput, { field: 'startDate', reason: Reasons.tooMany, limit: LIMITS.maxExercises });
      for (const other of state.exercises.values()) {
        if (startDate <= other.endDate && other.startDate <= endDate) {
          fail(AccountingErrors.exerciseOverlaps, { startDate: other.startDate, endDate: other.endDate });
        }
      }
      const spans = (() => {
        try {
          return monthlyPeriods(startDate, endDate);
        } catch {
          return fail(AccountingErrors.exerciseInvalidDates, { startDate, endDate, maxPeriods: MAX_PERIODS });
        }
      })();
      const periods = spans.map((p) => ({ periodId: derivedId(command.exerciseId, 'period', p.startDate), ...p }));
      return [{
        type: 'AccountingExerciseCreated',
        data: { exerciseId: command.exerciseId, exercise, startDate, endDate, description: command.description, periods, at },
      }];
    }
    case 'SetAccountingLockDates': {
      requireOrganisation(state);
      const lockDate = command.lockDate === undefined ? state.lockDate : command.lockDate;
      const hardLockDate = command.hardLockDate === undefined ? state.hardLockDate : command.hardLockDate;
      if (state.hardLockDate && (hardLockDate === null || hardLockDate < state.hardLockDate)) {
        fail(AccountingErrors.hardLockDateBackwards, { hardLockDate: state.hardLockDate, ...(hardLockDate && { requested: hardLockDate }) });
      }
      if (lockDate === state.lockDate && hardLockDate === state.hardLockDate) return [];
      return [{ type: 'AccountingLockDatesSet', data: { organisationId: state.id, lockDate, hardLockDate, at } }];
    }
  }
}

/** The latest of the lock dates (nothing on or before it changes), and which one it is; undefined when none. */
export function lockedThrough(state: Pick<OrganisationState, 'lockDate' | 'hardLockDate'>): { date: IsoDate; lock: 'lockDate' | 'hardLockDate' } | undefined {
  const { lockDate, hardLockDate } = state;
  if (hardLockDate && (!lockDate || hardLockDate >= lockDate)) return { date: hardLockDate, lock: 'hardLockDate' };
  return lockDate ? { date: lockDate, lock: 'lockDate' } : undefined;
}

/**
 * Folds one stored event. An event the state cannot have produced (its decider refuses the same
 * command) means the store or our code is broken: it fails loudly instead of being skipped, so no
 * decision runs on a state that is silently wrong.
 */
export function evolveOrganisation(state: OrganisationState, event: OrganisationEvent): OrganisationState {
  const type = event.type;
  if (type !== 'OrganisationCreated') assert(state.id, `${type} before OrganisationCreated`);
  switch (event.type) {
    case 'OrganisationCreated': {
      const d = event.data;
      assert(!state.id, `${type} of organisation ${d.organisationId} over organisation ${state.id}`);
      return { ...state, id: d.organisationId, country: d.country, baseCurrency: d.baseCurrency, currencyPrecision: d.currencyPrecision, features: d.features, defaultSessionId: d.defaultSessionId };
    }
    case 'AccountingAccountCreated': {
      const d = event.data;
      assert(!state.accounts.has(d.accountId), `${type} of account ${d.accountId}, which exists already`);
      assert(!state.accountIdByCode.has(d.code), `${type} of account ${d.accountId} with code ${d.code}, which another account has`);
      const nature = d.nature ?? null;
      state.accounts.set(d.accountId, {
        id: d.accountId, code: d.code, accountLevel: d.accountLevel, nature, subAccountType: d.subAccountType,
        accountType: accountTypeIn(state, d.accountType, d), deactivated: d.deactivated,
        yearEndClosingAccountId: d.yearEndClosingAccountId ?? null, transitionalPrepaymentAccountId: d.transitionalPrepaymentAccountId ?? null,
      });
      state.accountIdByCode.set(d.code, d.accountId);
      return state;
    }
    case 'AccountingAccountUpdated': {
      const account = state.accounts.get(event.data.accountId);
      assert(account, `${type} of account ${event.data.accountId}, which does not exist`);
      const c = event.data.changes;
      if (c.deactivated !== undefined) account.deactivated = c.deactivated;
      if (c.yearEndClosingAccountId !== undefined) account.yearEndClosingAccountId = c.yearEndClosingAccountId;
      if (c.transitionalPrepaymentAccountId !== undefined) account.transitionalPrepaymentAccountId = c.transitionalPrepaymentAccountId;
      if (c.nature !== undefined) account.nature = c.nature;
      if (c.accountType !== undefined) account.accountType = accountTypeIn(state, c.accountType, c);
      if (c.subAccountType !== undefined) account.subAccountType = c.subAccountType;
      if (c.plainSubAccountType) account.subAccountType = plainSubAccountType(account.nature);
      return state;
    }
    case 'AccountingAccountDeleted': {
      const d = event.data;
      assert(state.accounts.get(d.accountId)?.code === d.code, `${type} of account ${d.accountId} with code ${d.code}, which does not exist`);
      state.accounts.delete(d.accountId);
      state.accountIdByCode.delete(d.code);
      state.deletedAccountCodes.add(d.code);
      return state;
    }
    case 'JournalTypeCreated': {
      const d = event.data;
      assert(!state.journalTypes.has(d.journalTypeId), `${type} of journal type ${d.journalTypeId}, which exists already`);
      assert(!state.journalTypeIdByCode.has(d.code), `${type} of journal type ${d.journalTypeId} with code ${d.code}, which another journal type has`);
      state.journalTypes.set(d.journalTypeId, { id: d.journalTypeId, code: d.code, type: d.type, deactivated: d.deactivated, accountingAccountId: d.accountingAccountId ?? null });
      state.journalTypeIdByCode.set(d.code, d.journalTypeId);
      return state;
    }
    case 'JournalTypeUpdated': {
      const jt = state.journalTypes.get(event.data.journalTypeId);
      assert(jt, `${type} of journal type ${event.data.journalTypeId}, which does not exist`);
      if (event.data.changes.deactivated !== undefined) jt.deactivated = event.data.changes.deactivated;
      if (event.data.changes.type !== undefined) jt.type = event.data.changes.type;
      if (event.data.changes.accountingAccountId !== undefined) jt.accountingAccountId = event.data.changes.accountingAccountId;
      return state;
    }
    case 'JournalTypeDeleted': {
      const d = event.data;
      assert(state.journalTypes.get(d.journalTypeId)?.code === d.code, `${type} of journal type ${d.journalTypeId} with code ${d.code}, which does not exist`);
      state.journalTypes.delete(d.journalTypeId);
      state.journalTypeIdByCode.delete(d.code);
      return state;
    }
    case 'AccountingExerciseCreated': {
      const d = event.data;
      assert(!state.exercises.has(d.exerciseId), `${type} of exercise ${d.exerciseId}, which exists already`);
      state.exercises.set(d.exerciseId, { id: d.exerciseId, exercise: d.exercise, startDate: d.startDate, endDate: d.endDate, periods: d.periods });
      return state;
    }
    case 'AccountingLockDatesSet': {
      const d = event.data;
      assert(!state.hardLockDate || (d.hardLockDate !== null && d.hardLockDate >= state.hardLockDate), `${type} moving the hard lock date ${state.hardLockDate} back`);
      return { ...state, lockDate: d.lockDate, hardLockDate: d.hardLockDate };
    }
    default:
      return unknownEvent('Organisation', event);
  }
}

/** Another account or a journal type of the chart that names the account `accountId`, if any. */
function chartRefererOf(state: OrganisationState, accountId: string): { entity: string; name: string } | undefined {
  for (const a of state.accounts.values()) {
    if (a.id !== accountId && (a.yearEndClosingAccountId === accountId || a.transitionalPrepaymentAccountId === accountId)) return { entity: 'account', name: a.code };
  }
  for (const j of state.journalTypes.values()) if (j.accountingAccountId === accountId) return { entity: 'journalType', name: j.code };
  return undefined;
}

/** An off-balance account stored with our first OFF_BALANCE (marked so by its upcaster) reads its country's statement. */
function accountTypeIn(state: OrganisationState, accountType: AccountType, markers: AccountMarkers): AccountType {
  return markers.offBalanceByCountry ? offBalanceAccountType(state.country) : accountType;
}

/** The exercise whose dates contain `date`, if any. */
export function exerciseForDate(state: OrganisationState, date: IsoDate): ExerciseSpan | undefined {
  for (const e of state.exercises.values()) if (e.startDate <= date && date <= e.endDate) return e;
  return undefined;
}

export const isPostingAccount = (a: AccountState) => a.accountLevel === POSTING_LEVEL;
