/**
 * The year end, pure: an exercise's balances folded from its own stream (never from a read model), the entries
 * that close it and the one that opens the next exercise.
 *
 * Per country (the accounts and journals of domain/reference/charts.ts and journal-types.ts):
 * - ES (PGC): the regularisation (CLOSURE_ACCOUNTING) moves groups 6 and 7 to 129 "Resultado del ejercicio", then
 *   the closing entry (CLOSURE_EXERCISE) zeroes every balance-sheet account, both on the CLOSING journal (CIE).
 *   The opening (APE) reopens them, 129 with the year's result: applying it (112, 113, 120, 121) is the general
 *   meeting's decision, posted later as the PGC has it.
 * - FR (PCG): income and expense into 120 (profit) or 129 (loss) on CLO; no closing entry (the PCG posts none);
 *   the à-nouveaux (AN) carry 120/129 until the assembly allocates the result (110/119, reserves).
 * - DE (SKR 03): into 0860 Gewinnvortrag (profit) or 0868 Verlustvortrag (loss) on AB; opening on EB.
 * - GB, IE: into 3200 Profit and Loss Account on YE; opening on OB. US, CA: into 3900 Retained Earnings on CJ; OB.
 * Income and expense are the accounts of INCOME or EXPENSE nature (an account of unknown nature: by its code in the
 * master chart, else by its statement); every other account (balance sheet, off-balance) is carried forward, per
 * third party where its lines name one. An account or journal the organisation no longer has is a coded refusal.
 */
import type { IsoDate } from '../calendar.ts';
import type { OrganisationCountry } from '../enums.ts';
import { fail } from '../errors.ts';
import { Decimal, ZERO, formatAmount } from '../money.ts';
import { classifyAccountCode, masterChartFor } from '../reference/charts.ts';
import { standardJournalTypesFor } from '../reference/journal-types.ts';
import type { AccountNature, AccountingEntryType, JournalTypeType } from './enums.ts';
import { AccountingErrors } from './errors.ts';
import type { LedgerEvent, ThirdPartyOrigin } from './ledger.ts';
import type { AccountState, OrganisationState } from './organisation.ts';

/** The entry types the year end posts: posted and deleted only by closing and reopening an exercise. */
export const YEAR_END_ENTRY_TYPES: readonly AccountingEntryType[] = ['CLOSURE_ACCOUNTING', 'CLOSURE_EXERCISE', 'OPENING'];
export const isYearEndEntry = (entryType: AccountingEntryType | undefined): boolean => !!entryType && YEAR_END_ENTRY_TYPES.includes(entryType);

/** A year-end entry holds one line per account and third party: more than a posting's 500, within a bound. */
export const LIMITS = Object.freeze({ maxLinesPerYearEndEntry: 100_000 });

/** The result account codes per country: profit and loss (the same account where the chart has one). */
export const RESULT_ACCOUNTS: Readonly<Record<OrganisationCountry, { profit: string; loss: string }>> = {
  ES: { profit: '1290000', loss: '1290000' },
  FR: { profit: '120000', loss: '129000' },
  DE: { profit: '0860', loss: '0868' },
  GB: { profit: '3200', loss: '3200' },
  IE: { profit: '3200', loss: '3200' },
  US: { profit: '3900', loss: '3900' },
  CA: { profit: '3900', loss: '3900' },
};

/** Countries whose closing zeroes the balance sheet with a CLOSURE_EXERCISE entry before the opening. */
const CLOSES_BALANCE_SHEET: ReadonlySet<OrganisationCountry> = new Set(['ES']);

/** One account's (and third party's) balance: debit minus credit is what it holds. */
export interface YearEndBalance {
  subAccountId: string;
  thirdCode: string | null;
  thirdPartyId: string | null;
  thirdPartyOrigin: ThirdPartyOrigin | null;
  debit: Decimal;
  credit: Decimal;
}

/** A line the year end posts (amounts at the currency's precision, one side non-zero). */
export interface YearEndLine {
  subAccountId: string;
  thirdCode: string | null;
  thirdPartyId: string | null;
  thirdPartyOrigin: ThirdPartyOrigin | null;
  debitAmount: string;
  creditAmount: string;
}

export interface YearEndEntry {
  entryId: string;
  entryType: AccountingEntryType;
  journalTypeId: string;
  date: IsoDate;
  description: string;
  lines: YearEndLine[];
}

const balanceKey = (l: { subAccountId: string; thirdPartyId?: string | null; thirdCode: string | null }) => `${l.subAccountId}|${l.thirdPartyId ?? l.thirdCode ?? ''}`;

/**
 * The exercise's balances per account and third party, from its stream's events in order: live entries' lines
 * summed (a deletion takes its entry's lines out), entries of the types in `except` left out.
 */
export function yearEndBalances(events: Iterable<LedgerEvent>, except: readonly AccountingEntryType[] = []): YearEndBalance[] {
  const live = new Map<string, Extract<LedgerEvent, { type: 'AccountingEntryPosted' }>['data']>();
  for (const event of events) {
    if (event.type === 'AccountingEntryPosted') live.set(event.data.entryId, event.data);
    else if (event.type === 'AccountingEntryDeleted') live.delete(event.data.entryId);
  }
  const sums = new Map<string, YearEndBalance>();
  for (const entry of live.values()) {
    if (except.includes(entry.entryType)) continue;
    for (const l of entry.lines) {
      const key = balanceKey(l);
      const sum = sums.get(key) ?? { subAccountId: l.subAccountId, thirdCode: l.thirdCode, thirdPartyId: l.thirdPartyId ?? null, thirdPartyOrigin: l.thirdPartyOrigin ?? null, debit: ZERO, credit: ZERO };
      sums.set(key, { ...sum, debit: sum.debit.plus(l.debitAmount), credit: sum.credit.plus(l.creditAmount) });
    }
  }
  return [...sums.values()];
}

const ofIncomeStatement = (nature: AccountNature | null | undefined) => nature === 'INCOME' || nature === 'EXPENSE';

/**
 * Income and expense close into the result; an account of unknown nature by its code's class in the country's master
 * chart (a class 6 or 7 code is of the income statement whatever its statement says), else by its statement.
 */
export function closesIntoResult(account: AccountState | undefined, country: OrganisationCountry | null): boolean {
  if (!account) return false;
  if (account.nature) return ofIncomeStatement(account.nature);
  const chartNature = country ? classifyAccountCode(masterChartFor(country), account.code)?.nature : undefined;
  if (chartNature) return ofIncomeStatement(chartNature);
  return account.accountType === 'INCOME_STATEMENT';
}

const net = (b: { debit: Decimal; credit: Decimal }) => b.debit.minus(b.credit);

/** A line holding `amount` (debit when positive), or none when it is zero. */
function lineOf(b: Omit<YearEndBalance, 'debit' | 'credit'>, amount: Decimal, precision: number): YearEndLine[] {
  if (amount.isZero()) return [];
  const side = (v: Decimal) => formatAmount(v, precision);
  return [{
    subAccountId: b.subAccountId, thirdCode: b.thirdCode, thirdPartyId: b.thirdPartyId, thirdPartyOrigin: b.thirdPartyOrigin,
    debitAmount: side(amount.isPositive() ? amount : ZERO), creditAmount: side(amount.isNegative() ? amount.negated() : ZERO),
  }];
}

type Org = Pick<OrganisationState, 'country' | 'accounts' | 'accountIdByCode' | 'journalTypes' | 'journalTypeIdByCode' | 'currencyPrecision'>;

function countryOf(org: Org): OrganisationCountry {
  return org.country ?? fail(AccountingErrors.yearEndReferenceMissing, { kind: 'country', code: '' });
}

/** The result account the year's net (debit minus credit of income and expense) goes to. */
function resultAccountId(org: Org, result: Decimal): string {
  const accounts = RESULT_ACCOUNTS[countryOf(org)];
  // Income exceeding expense is a credit balance: a profit.
  const code = result.isNegative() || result.isZero() ? accounts.profit : accounts.loss;
  return org.accountIdByCode.get(code) ?? fail(AccountingErrors.yearEndReferenceMissing, { kind: 'account', code });
}

/** The organisation's journal of `type` the year end posts on: the country's standard one, else the first of that type. */
export function yearEndJournalId(org: Org, type: Extract<JournalTypeType, 'CLOSING' | 'CARRY_FORWARD'>): string {
  const standard = standardJournalTypesFor(countryOf(org)).find((j) => j.type === type)!;
  const byCode = org.journalTypeIdByCode.get(standard.code);
  if (byCode && org.journalTypes.get(byCode)?.type === type) return byCode;
  for (const j of org.journalTypes.values()) if (j.type === type) return j.id;
  return fail(AccountingErrors.yearEndReferenceMissing, { kind: 'journal', code: standard.code });
}

/**
 * The regularisation's lines: each income and expense balance reversed, the net into the result account.
 * Empty when the income statement holds nothing.
 */
export function regularisationLines(org: Org, balances: readonly YearEndBalance[]): YearEndLine[] {
  const closing = balances.filter((b) => closesIntoResult(org.accounts.get(b.subAccountId), org.country));
  const result = closing.reduce((sum, b) => sum.plus(net(b)), ZERO);
  const lines = closing.flatMap((b) => lineOf(b, net(b).negated(), org.currencyPrecision));
  if (lines.length === 0) return [];
  const result_ = { subAccountId: resultAccountId(org, result), thirdCode: null, thirdPartyId: null, thirdPartyOrigin: null };
  return [...lines, ...lineOf(result_, result, org.currencyPrecision)];
}

/** The balances once the regularisation is posted: income and expense at zero, the result in its account. */
function afterRegularisation(org: Org, balances: readonly YearEndBalance[]): YearEndBalance[] {
  const sums = new Map(balances.map((b) => [balanceKey(b), b]));
  for (const l of regularisationLines(org, balances)) {
    const key = balanceKey(l);
    const b = sums.get(key) ?? { ...l, debit: ZERO, credit: ZERO };
    sums.set(key, { ...b, debit: b.debit.plus(l.debitAmount), credit: b.credit.plus(l.creditAmount) });
  }
  return [...sums.values()];
}

/** The opening's lines: every account carried forward at its balance (income and expense are zero by then). */
export function openingLines(org: Org, balances: readonly YearEndBalance[]): YearEndLine[] {
  return balances
    .filter((b) => !closesIntoResult(org.accounts.get(b.subAccountId), org.country))
    .flatMap((b) => lineOf(b, net(b), org.currencyPrecision));
}

/** The balance sheet zeroed (ES's closing entry): each carried balance reversed. */
function closingLines(org: Org, balances: readonly YearEndBalance[]): YearEndLine[] {
  return openingLines(org, balances).map((l) => ({ ...l, debitAmount: l.creditAmount, creditAmount: l.debitAmount }));
}

/**
 * The virtual opening of an exercise while the previous one is still open (showTemporaryCarryForward): the lines
 * its opening entry would hold were the previous exercise closed now. Nothing is posted; reports add these lines.
 */
export function temporaryOpening(org: Org, previousExerciseBalances: readonly YearEndBalance[]): YearEndLine[] {
  return openingLines(org, afterRegularisation(org, previousExerciseBalances));
}

const DESCRIPTIONS: Record<'regularisation' | 'closing' | 'opening', Record<'es' | 'fr' | 'de' | 'en', string>> = {
  regularisation: { es: 'Regularización del ejercicio {exercise}', fr: "Détermination du résultat de l'exercice {exercise}", de: 'Abschluss der Erfolgskonten {exercise}', en: 'Year-end close of the income statement {exercise}' },
  closing: { es: 'Asiento de cierre del ejercicio {exercise}', fr: "Clôture de l'exercice {exercise}", de: 'Schlussbilanz {exercise}', en: 'Closing entry {exercise}' },
  opening: { es: 'Asiento de apertura (ejercicio {exercise})', fr: 'À-nouveaux (exercice {exercise})', de: 'Eröffnungsbuchung (Geschäftsjahr {exercise})', en: 'Opening balances (from {exercise})' },
};
const LANGUAGE: Record<OrganisationCountry, 'es' | 'fr' | 'de' | 'en'> = { ES: 'es', FR: 'fr', DE: 'de', GB: 'en', IE: 'en', US: 'en', CA: 'en' };
const describe = (org: Org, kind: keyof typeof DESCRIPTIONS, exercise: string) => DESCRIPTIONS[kind][LANGUAGE[countryOf(org)]].replace('{exercise}', exercise);

/** Ids of the year end's entries: derived from the exercise closed and how many times it was closed before. */
export const yearEndEntryId = (deriveId: (key: string) => string, kind: 'regularisation' | 'closing' | 'opening', round: number) => deriveId(`${kind}-${round}`);

export interface ExerciseRef { id: string; startDate: IsoDate; endDate: IsoDate; label: string }

/**
 * The entries closing `exercise` from its balances (before the close), on its last day: the regularisation,
 * then (ES) the closing entry. `entryId(kind)` names them.
 */
export function closingEntries(org: Org, exercise: ExerciseRef, balances: readonly YearEndBalance[], entryId: (kind: 'regularisation' | 'closing') => string): YearEndEntry[] {
  const journalTypeId = yearEndJournalId(org, 'CLOSING');
  const entries: YearEndEntry[] = [];
  const regularisation = regularisationLines(org, balances);
  if (regularisation.length > 0) {
    entries.push({ entryId: entryId('regularisation'), entryType: 'CLOSURE_ACCOUNTING', journalTypeId, date: exercise.endDate, description: describe(org, 'regularisation', exercise.label), lines: regularisation });
  }
  if (CLOSES_BALANCE_SHEET.has(countryOf(org))) {
    const lines = closingLines(org, afterRegularisation(org, balances));
    if (lines.length > 0) entries.push({ entryId: entryId('closing'), entryType: 'CLOSURE_EXERCISE', journalTypeId, date: exercise.endDate, description: describe(org, 'closing', exercise.label), lines });
  }
  return entries;
}

/**
 * The entry opening `next` with `lines` (openingLines of the balances `closed` ends with, its closing entry aside,
 * or temporaryOpening of those before its close): on next's first day, on the CARRY_FORWARD journal. Undefined
 * when nothing carries.
 */
export function openingEntry(org: Org, closed: ExerciseRef, next: ExerciseRef, lines: YearEndLine[], entryId: string): YearEndEntry | undefined {
  if (lines.length === 0) return undefined;
  return { entryId, entryType: 'OPENING', journalTypeId: yearEndJournalId(org, 'CARRY_FORWARD'), date: next.startDate, description: describe(org, 'opening', closed.label), lines };
}
