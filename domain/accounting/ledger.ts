/**
 * The Ledger aggregate: the book of one accounting exercise. It is the consistency boundary for what
 * must hold together: gap-free entry numbers, entries only in open periods of an open exercise, and
 * period/exercise closing. One stream per exercise: `Ledger-<exerciseId>`. The exercise's dates and
 * periods are decided by the Organisation aggregate and passed in as facts.
 *
 * Numbering: an entry's number is its position among the exercise's live entries (1..n, no gaps).
 * Deleting an entry renumbers the ones after it, as the books must stay gap-free.
 */
import type { IsoDate } from '../calendar.ts';
import { canonicalUuid, derivedId } from '../ids.ts';
import { CLOSING_ENTRY_TYPES, type AccountingEntryType, type SourceType } from './enums.ts';
import { Errors, Reasons, assert, fail, unknownEvent } from '../errors.ts';
import { AccountingErrors } from './errors.ts';
import { Decimal, MAX_AMOUNT, ZERO, formatAmount, parseAmount } from '../money.ts';
import { isPostingAccount, lockedThrough, type ExerciseSpan, type OrganisationState } from './organisation.ts';
import type { EntryInvoice, EntryPayment } from './entry-documents.ts';
import { LIMITS as YEAR_END_LIMITS, isYearEndEntry, type YearEndEntry } from './year-end.ts';

export interface PostedLine {
  lineId: string;
  order: number;
  subAccountId: string;
  debitAmount: string;
  creditAmount: string;
  description: string | null;
  /** The third party's code (for entries posted by ids before parties were resolved at posting: its id). */
  thirdCode: string | null;
  /** The third party's id and kind, recorded at posting (absent from lines stored before). */
  thirdPartyId?: string | null;
  thirdPartyOrigin?: ThirdPartyOrigin | null;
  /** A sales invoice's receivable line: the invoice it posts (absent from lines stored before, and on others). */
  invoice?: EntryInvoice | null;
  /** A settlement's receivable line: how it matches the invoice (absent from lines stored before, and on others). */
  payment?: EntryPayment | null;
}

/** The kinds of party a line's third party is (Sage's OriginType). */
export const ThirdPartyOrigin = ['CUSTOMER', 'EMPLOYEE', 'SUPPLIER'] as const;
export type ThirdPartyOrigin = (typeof ThirdPartyOrigin)[number];

export type LedgerEvent =
  | { type: 'AccountingEntryPosted'; data: { exerciseId: string; entryId: string; number: number; date: IsoDate; documentDate: IsoDate | null; documentNumber: string | null; description: string | null; journalTypeId: string; periodId: string; sessionId: string; currencyCode: string; entryType: AccountingEntryType; sourceType: SourceType; sourceEntityId?: string | null; lines: PostedLine[]; at: string; inClosedPeriod?: true } }
  | { type: 'AccountingEntryDeleted'; data: { exerciseId: string; entryId: string; number: number; at: string } }
  | { type: 'AccountingPeriodClosed'; data: { exerciseId: string; periodId: string; at: string } }
  | { type: 'AccountingPeriodReopened'; data: { exerciseId: string; periodId: string; at: string } }
  /** `closedPeriodIds`: the periods the close itself closed (absent from events stored before), which a reopening reopens. */
  | { type: 'AccountingExerciseClosed'; data: { exerciseId: string; closedPeriodIds?: string[]; at: string } }
  | { type: 'AccountingExerciseReopened'; data: { exerciseId: string; at: string } };

export const LEDGER_EVENT_TYPES = [
  'AccountingEntryPosted', 'AccountingEntryDeleted', 'AccountingPeriodClosed', 'AccountingPeriodReopened', 'AccountingExerciseClosed',
  'AccountingExerciseReopened',
] as const satisfies readonly LedgerEvent['type'][];

export interface EntryState {
  periodId: string;
  /** The entry's date and type: lock dates refuse deleting it; a year-end entry goes only with its exercise's reopening. */
  date: IsoDate;
  entryType: AccountingEntryType;
  journalTypeId: string;
  accountIds: string[];
  thirdCodes: string[];
}

export interface LedgerState {
  closed: boolean;
  /** How many times the exercise was closed: each close names its year-end entries apart (year-end.ts). */
  closings: number;
  /** The periods the last close closed itself, which reopening the exercise reopens. */
  closedWithExercise: string[];
  closedPeriods: Set<string>;
  /** Live entry ids in number order: number = index + 1. */
  entryOrder: string[];
  entries: Map<string, EntryState>;
  /** How many live lines post to each account / use each journal type (deletion guards). */
  accountUsage: Map<string, number>;
  journalTypeUsage: Map<string, number>;
  /** How many live lines name each third-party code (a party's code; its id on lines posted by ids before codes were kept). */
  thirdCodeUsage: Map<string, number>;
}

/**
 * What a line's third-party reference is counted by: an id in lower case (old lines held it as given, and it names
 * the party in any case, as the entries projection resolves it), a code as written (codes are case-sensitive).
 */
export const thirdReferenceKey = (reference: string): string => canonicalUuid(reference) ?? reference;

export const initialLedgerState = (): LedgerState => ({
  closed: false,
  closings: 0,
  closedWithExercise: [],
  closedPeriods: new Set(),
  entryOrder: [],
  entries: new Map(),
  accountUsage: new Map(),
  journalTypeUsage: new Map(),
  thirdCodeUsage: new Map(),
});

export interface LineInput {
  subAccountId: string;
  thirdCode: string | null;
  description: string | null;
  debitAmount: string | number | null;
  creditAmount: string | number | null;
  invoice?: EntryInvoice | null;
  payment?: EntryPayment | null;
}

export type LedgerCommand =
  | { type: 'PostAccountingEntry'; entryId: string; lineIds: string[]; date: IsoDate; documentDate: IsoDate | null; documentNumber: string | null; description: string | null; journalTypeId: string; lines: LineInput[]; sourceType: SourceType; sourceEntityId?: string | null; now: string }
  /** `yearEnd`: the year end undoing its own entry (a reopening); a client's deletion of one is refused. */
  | { type: 'DeleteAccountingEntry'; entryId: string; yearEnd?: true; now: string }
  | { type: 'CloseAccountingPeriod'; periodId: string; now: string }
  | { type: 'ReopenAccountingPeriod'; periodId: string; now: string }
  /** The closing entries (year-end.ts) are posted on the last day, then every open period and the exercise close. */
  | { type: 'CloseAccountingExercise'; closing?: readonly YearEndEntry[]; now: string }
  /** The next exercise's opening (year-end.ts), posted by the previous exercise's close. */
  | { type: 'PostOpeningEntry'; entry: YearEndEntry; now: string }
  /** Deletes the close's entries (reversals in the stream, never holes) and reopens the periods the close closed. */
  | { type: 'ReopenAccountingExercise'; now: string };

/** A live party of the organisation a line names as its third party. */
export interface ThirdParty {
  id: string;
  code: string;
  origin: ThirdPartyOrigin;
}
/** The live party of the organisation a line's third-party reference (a code, or an id for entries posted by ids) names. */
export type KnownThirdParty = (reference: string) => ThirdParty | undefined;
export const NO_THIRD_PARTIES: KnownThirdParty = () => undefined;

export const LIMITS = Object.freeze({ maxLinesPerEntry: 500, maxEntriesPerExercise: 10_000_000, maxTextLength: 500 });

type ParsedLine = { subAccountId: string; thirdCode: string | null; thirdParty: ThirdParty | null; description: string | null; debit: Decimal; credit: Decimal; invoice: EntryInvoice | null; payment: EntryPayment | null };

/**
 * Lines of one account, third party and side are merged into one line, as the live API does; a line that
 * carries an invoice or a payment stays apart (each invoice settled is matched on its own line).
 */
function mergeLines(lines: ParsedLine[]) {
  const merged = new Map<string, ParsedLine>();
  for (const [i, line] of lines.entries()) {
    const own = line.invoice || line.payment ? `|#${i}` : '';
    const key = `${line.subAccountId}|${line.thirdCode ?? ''}|${line.debit.isZero() ? 'C' : 'D'}${own}`;
    const into = merged.get(key);
    if (into) {
      into.debit = into.debit.plus(line.debit);
      into.credit = into.credit.plus(line.credit);
    } else merged.set(key, { ...line });
  }
  return [...merged.values()];
}

export function decideLedger(
  command: LedgerCommand,
  state: LedgerState,
  exercise: ExerciseSpan,
  organisation: OrganisationState,
  knownThirdParty: KnownThirdParty = NO_THIRD_PARTIES,
): LedgerEvent[] {
  const at = command.now;
  const exerciseId = exercise.id;
  const label = `${exercise.startDate}..${exercise.endDate}`;
  if (command.type === 'ReopenAccountingExercise') return reopenExercise(state, exercise, organisation, at);
  if (state.closed) fail(AccountingErrors.exerciseClosed, { exercise: label });
  switch (command.type) {
    case 'PostAccountingEntry': {
      const period = exercise.periods.find((p) => p.startDate <= command.date && command.date <= p.endDate);
      if (!period) fail(AccountingErrors.noExerciseForDate, { date: command.date });
      if (state.closedPeriods.has(period.periodId)) fail(AccountingErrors.periodClosed, { date: command.date, month: period.month });
      refuseLocked(organisation, command.date);
      if (state.entries.has(command.entryId)) fail(Errors.documentIdAlreadyExists, { id: command.entryId });
      const journalType = organisation.journalTypes.get(command.journalTypeId) ?? fail(AccountingErrors.journalTypeNotFound, { id: command.journalTypeId });
      if (journalType.deactivated) fail(AccountingErrors.journalTypeDeactivated, { code: journalType.code });
      if (command.lines.length < 2) fail(AccountingErrors.tooFewLines, { count: command.lines.length });
      if (command.lines.length > LIMITS.maxLinesPerEntry) fail(Errors.invalidInput, { field: 'accountingEntryLines', reason: Reasons.tooManyItems, maximum: LIMITS.maxLinesPerEntry });
      if (state.entryOrder.length >= LIMITS.maxEntriesPerExercise) fail(Errors.invalidInput, { field: 'date', reason: Reasons.tooMany, limit: LIMITS.maxEntriesPerExercise });
      const precision = organisation.currencyPrecision;
      const parsed = command.lines.map((line, i) => {
        const account = organisation.accounts.get(line.subAccountId) ?? fail(AccountingErrors.accountNotFound, { id: line.subAccountId, line: i + 1 });
        if (account.deactivated) fail(AccountingErrors.accountDeactivated, { code: account.code, line: i + 1 });
        if (!isPostingAccount(account)) fail(AccountingErrors.accountNotPostable, { code: account.code, line: i + 1 });
        // An empty third-party reference is no third party; any other must be a party, as an account must be one.
        // The line keeps the party's code (also when named by id: codes never change), its id and kind.
        const thirdParty = line.thirdCode ? (knownThirdParty(line.thirdCode) ?? fail(AccountingErrors.thirdPartyNotFound, { thirdParty: line.thirdCode, line: i + 1 })) : null;
        const debit = parseAmount(line.debitAmount, precision, `accountingEntryLines[${i}].debitAmount`);
        const credit = parseAmount(line.creditAmount, precision, `accountingEntryLines[${i}].creditAmount`);
        // Exactly one side carries a (positive) amount.
        if (debit.isZero() === credit.isZero()) fail(AccountingErrors.invalidLineAmount, { line: i + 1, reason: Reasons.oneSide, debit: debit.toString(), credit: credit.toString() });
        // It must also merge with lines that have none.
        return { subAccountId: account.id, thirdCode: thirdParty?.code ?? null, thirdParty, description: line.description, debit, credit, invoice: line.invoice ?? null, payment: line.payment ?? null };
      });
      const debits = parsed.reduce((sum, l) => sum.plus(l.debit), ZERO);
      const credits = parsed.reduce((sum, l) => sum.plus(l.credit), ZERO);
      if (!debits.eq(credits)) fail(AccountingErrors.unbalancedEntry, { debit: formatAmount(debits, precision), credit: formatAmount(credits, precision) });
      const merged = mergeLines(parsed);
      if (merged.some((l) => l.debit.plus(l.credit).gt(MAX_AMOUNT))) fail(AccountingErrors.invalidLineAmount, { reason: Reasons.mergedTooLarge });
      const lines = merged.map((l, i): PostedLine => ({
        lineId: command.lineIds[i] ?? fail(Errors.invalidInput, { field: 'lineIds' }),
        order: i + 1,
        subAccountId: l.subAccountId,
        debitAmount: formatAmount(l.debit, precision),
        creditAmount: formatAmount(l.credit, precision),
        description: l.description,
        thirdCode: l.thirdCode,
        thirdPartyId: l.thirdParty?.id ?? null,
        thirdPartyOrigin: l.thirdParty?.origin ?? null,
        // Only where there is one: other lines' shape stays as it was.
        ...(l.invoice && { invoice: l.invoice }),
        ...(l.payment && { payment: l.payment }),
      }));
      assert(organisation.defaultSessionId, 'an organisation has a default session');
      return [{
        type: 'AccountingEntryPosted',
        data: {
          exerciseId, entryId: command.entryId, number: state.entryOrder.length + 1, date: command.date,
          documentDate: command.documentDate, documentNumber: command.documentNumber, description: command.description,
          journalTypeId: journalType.id, periodId: period.periodId, sessionId: organisation.defaultSessionId,
          currencyCode: organisation.baseCurrency, entryType: 'GENERAL', sourceType: command.sourceType,
          ...(command.sourceEntityId && { sourceEntityId: command.sourceEntityId }), lines, at,
        },
      }];
    }
    case 'DeleteAccountingEntry': {
      const entry = state.entries.get(command.entryId) ?? fail(AccountingErrors.entryNotFound, { id: command.entryId });
      if (isYearEndEntry(entry.entryType) !== !!command.yearEnd) fail(command.yearEnd ? AccountingErrors.entryNotFound : AccountingErrors.yearEndEntry, { id: command.entryId });
      return [entryDeleted(state, exercise, organisation, command.entryId, at)];
    }
    case 'CloseAccountingPeriod': {
      if (!exercise.periods.some((p) => p.periodId === command.periodId)) fail(AccountingErrors.periodNotFound, { id: command.periodId });
      if (state.closedPeriods.has(command.periodId)) fail(AccountingErrors.periodAlreadyClosed, { id: command.periodId });
      return [{ type: 'AccountingPeriodClosed', data: { exerciseId, periodId: command.periodId, at } }];
    }
    case 'ReopenAccountingPeriod': {
      const period = exercise.periods.find((p) => p.periodId === command.periodId) ?? fail(AccountingErrors.periodNotFound, { id: command.periodId });
      if (!state.closedPeriods.has(command.periodId)) fail(AccountingErrors.periodNotClosed, { id: command.periodId });
      refuseHardLocked(organisation, period.startDate);
      return [{ type: 'AccountingPeriodReopened', data: { exerciseId, periodId: command.periodId, at } }];
    }
    case 'CloseAccountingExercise': {
      // The closing entries first (on the last day, in its period even if closed already), then every period still open.
      const closing = (command.closing ?? []).map((entry, i) => yearEndPosted(state, exercise, organisation, entry, state.entryOrder.length + 1 + i, at));
      const open = exercise.periods.filter((p) => !state.closedPeriods.has(p.periodId));
      return [
        ...closing,
        ...open.map((p): LedgerEvent => ({ type: 'AccountingPeriodClosed', data: { exerciseId, periodId: p.periodId, at } })),
        { type: 'AccountingExerciseClosed', data: { exerciseId, closedPeriodIds: open.map((p) => p.periodId), at } },
      ];
    }
    case 'PostOpeningEntry':
      if (state.entries.has(command.entry.entryId)) fail(Errors.documentIdAlreadyExists, { id: command.entry.entryId });
      return [yearEndPosted(state, exercise, organisation, command.entry, state.entryOrder.length + 1, at)];
  }
}

/** Nothing dated on or before a lock date is posted or deleted. */
function refuseLocked(organisation: OrganisationState, date: IsoDate): void {
  const locked = lockedThrough(organisation);
  if (locked && date <= locked.date) fail(AccountingErrors.dateLocked, { date, lockDate: locked.date, lock: locked.lock });
}

/** What holds a day on or before the hard lock date never reopens. */
function refuseHardLocked(organisation: OrganisationState, from: IsoDate): void {
  const hard = organisation.hardLockDate;
  if (hard && from <= hard) fail(AccountingErrors.dateLocked, { date: from, lockDate: hard, lock: 'hardLockDate' });
}

function entryDeleted(state: LedgerState, exercise: ExerciseSpan, organisation: OrganisationState, entryId: string, at: string): LedgerEvent {
  const entry = state.entries.get(entryId) ?? fail(AccountingErrors.entryNotFound, { id: entryId });
  // A year-end entry is dated in its exercise's last or first period, which its own close may have closed.
  if (!isYearEndEntry(entry.entryType) && state.closedPeriods.has(entry.periodId)) fail(AccountingErrors.entryClosed, { id: entryId });
  refuseLocked(organisation, entry.date);
  const number = state.entryOrder.indexOf(entryId) + 1;
  assert(number > 0, 'a live entry has a number');
  return { type: 'AccountingEntryDeleted', data: { exerciseId: exercise.id, entryId, number, at } };
}

/**
 * A year-end entry as posted: made by the service (YEAR_END_PROCESS) from balances, so it is checked for what
 * makes a posting valid in the books (its date, the lock dates, balanced, its accounts and journal exist), not for
 * what a client's posting is (a deactivated account with a balance is still carried forward).
 */
function yearEndPosted(state: LedgerState, exercise: ExerciseSpan, organisation: OrganisationState, entry: YearEndEntry, number: number, at: string): LedgerEvent {
  const period = exercise.periods.find((p) => p.startDate <= entry.date && entry.date <= p.endDate) ?? fail(AccountingErrors.noExerciseForDate, { date: entry.date });
  refuseLocked(organisation, entry.date);
  assert(isYearEndEntry(entry.entryType), `a year-end entry of type ${entry.entryType}`);
  assert(!state.entries.has(entry.entryId), `the year-end entry ${entry.entryId} exists already`);
  if (!organisation.journalTypes.has(entry.journalTypeId)) fail(AccountingErrors.journalTypeNotFound, { id: entry.journalTypeId });
  if (entry.lines.length > YEAR_END_LIMITS.maxLinesPerYearEndEntry) fail(Errors.invalidInput, { field: 'accountingEntryLines', reason: Reasons.tooManyItems, maximum: YEAR_END_LIMITS.maxLinesPerYearEndEntry });
  let debits = ZERO;
  let credits = ZERO;
  for (const l of entry.lines) {
    if (!organisation.accounts.has(l.subAccountId)) fail(AccountingErrors.accountNotFound, { id: l.subAccountId });
    // A balance summed over the year may exceed what one line holds, as merged posting lines may.
    if (new Decimal(l.debitAmount).plus(l.creditAmount).gt(MAX_AMOUNT)) fail(AccountingErrors.invalidLineAmount, { reason: Reasons.mergedTooLarge });
    debits = debits.plus(l.debitAmount);
    credits = credits.plus(l.creditAmount);
  }
  assert(entry.lines.length >= 2 && debits.eq(credits), `the year-end entry ${entry.entryId} is balanced`);
  assert(organisation.defaultSessionId, 'an organisation has a default session');
  return {
    type: 'AccountingEntryPosted',
    data: {
      exerciseId: exercise.id, entryId: entry.entryId, number, date: entry.date, documentDate: entry.date, documentNumber: null,
      description: entry.description, journalTypeId: entry.journalTypeId, periodId: period.periodId, sessionId: organisation.defaultSessionId,
      currencyCode: organisation.baseCurrency, entryType: entry.entryType, sourceType: 'YEAR_END_PROCESS',
      // Posted into a period closed already (the year end's alone may be): the entry is closed from the start.
      ...(state.closedPeriods.has(period.periodId) && { inClosedPeriod: true as const }),
      lines: entry.lines.map((l, i): PostedLine => ({
        lineId: derivedId(entry.entryId, 'line', String(i)), order: i + 1, subAccountId: l.subAccountId, debitAmount: l.debitAmount, creditAmount: l.creditAmount,
        description: null, thirdCode: l.thirdCode, thirdPartyId: l.thirdPartyId, thirdPartyOrigin: l.thirdPartyOrigin,
      })),
      at,
    },
  };
}

/**
 * Reopening a closed exercise: the close's own entries deleted (last first, so each keeps its number until it
 * goes), the periods the close closed reopened. Nothing at or behind the hard lock date reopens.
 */
function reopenExercise(state: LedgerState, exercise: ExerciseSpan, organisation: OrganisationState, at: string): LedgerEvent[] {
  const exerciseId = exercise.id;
  if (!state.closed) fail(AccountingErrors.exerciseNotClosed, { exercise: `${exercise.startDate}..${exercise.endDate}` });
  refuseHardLocked(organisation, exercise.startDate);
  const closing = state.entryOrder.filter((id) => (CLOSING_ENTRY_TYPES as readonly string[]).includes(state.entries.get(id)?.entryType ?? ''));
  const reopened: LedgerState = { ...state, closed: false };
  return [
    { type: 'AccountingExerciseReopened', data: { exerciseId, at } },
    ...closing.reverse().map((id) => entryDeleted(reopened, exercise, organisation, id, at)),
    ...state.closedWithExercise.map((periodId): LedgerEvent => ({ type: 'AccountingPeriodReopened', data: { exerciseId, periodId, at } })),
  ];
}

function count(map: Map<string, number>, key: string, delta: number): void {
  const next = (map.get(key) ?? 0) + delta;
  if (next === 0) map.delete(key);
  else map.set(key, next);
}

/**
 * Folds one stored event. An event the state cannot have produced (its decider refuses the same
 * command) means the store or our code is broken: it fails loudly instead of being skipped. The
 * exercise's periods are the Organisation's, so a period is checked against what this ledger did to it.
 */
export function evolveLedger(state: LedgerState, event: LedgerEvent): LedgerState {
  const type = event.type;
  if (type === 'AccountingExerciseReopened') {
    assert(state.closed, `${type} of an exercise that is not closed`);
    return { ...state, closed: false, closedWithExercise: [] };
  }
  // After its reopening, the close's entries are deleted (evolved as the exercise reopened: the event before).
  assert(!state.closed, `${type} after AccountingExerciseClosed`);
  switch (event.type) {
    case 'AccountingEntryPosted': {
      const d = event.data;
      assert(d.number === state.entryOrder.length + 1, `entry numbers are gap-free (got ${d.number})`);
      assert(!state.entries.has(d.entryId), `${type} of entry ${d.entryId}, which exists already`);
      assert(isYearEndEntry(d.entryType) || !state.closedPeriods.has(d.periodId), `${type} of entry ${d.entryId} in period ${d.periodId}, which is closed`);
      const accountIds = d.lines.map((l) => l.subAccountId);
      const thirdCodes = d.lines.map((l) => l.thirdCode).filter((c): c is string => c !== null);
      state.entries.set(d.entryId, { periodId: d.periodId, date: d.date, entryType: d.entryType, journalTypeId: d.journalTypeId, accountIds, thirdCodes });
      state.entryOrder.push(d.entryId);
      for (const id of accountIds) count(state.accountUsage, id, 1);
      for (const code of thirdCodes) count(state.thirdCodeUsage, thirdReferenceKey(code), 1);
      count(state.journalTypeUsage, d.journalTypeId, 1);
      return state;
    }
    case 'AccountingEntryDeleted': {
      const d = event.data;
      const entry = state.entries.get(d.entryId);
      assert(entry, `${type} of entry ${d.entryId}, which does not exist`);
      assert(state.entryOrder[d.number - 1] === d.entryId, `${type} of entry ${d.entryId} as number ${d.number}, which is not its number`);
      assert(isYearEndEntry(entry.entryType) || !state.closedPeriods.has(entry.periodId), `${type} of entry ${d.entryId} in period ${entry.periodId}, which is closed`);
      state.entryOrder.splice(d.number - 1, 1);
      state.entries.delete(d.entryId);
      for (const id of entry.accountIds) count(state.accountUsage, id, -1);
      for (const code of entry.thirdCodes) count(state.thirdCodeUsage, thirdReferenceKey(code), -1);
      count(state.journalTypeUsage, entry.journalTypeId, -1);
      return state;
    }
    case 'AccountingPeriodClosed':
      assert(!state.closedPeriods.has(event.data.periodId), `${type} of period ${event.data.periodId}, which is closed already`);
      state.closedPeriods.add(event.data.periodId);
      return state;
    case 'AccountingPeriodReopened':
      assert(state.closedPeriods.has(event.data.periodId), `${type} of period ${event.data.periodId}, which is not closed`);
      state.closedPeriods.delete(event.data.periodId);
      return state;
    case 'AccountingExerciseClosed':
      return { ...state, closed: true, closings: state.closings + 1, closedWithExercise: event.data.closedPeriodIds ?? [] };
    default:
      return unknownEvent('Ledger', event);
  }
}
