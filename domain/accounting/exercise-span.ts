/**
 * An exercise's dates and label as a client states them: Sage's shape (startDate, numberPeriods, the year label
 * `exercise`) or ours (startDate, endDate), or both when they agree. Periods are calendar months (the first may
 * start mid-month), so `numberPeriods` months from the start end on the last day of the last of them.
 */
import { isIsoDate, lastDayOfMonth, MAX_PERIODS, type IsoDate } from '../calendar.ts';
import { Errors, Reasons, fail } from '../errors.ts';
import { AccountingErrors } from './errors.ts';

/** The last year a date of ours can have (YYYY-MM-DD). */
const LAST_YEAR = 9999;

export interface StatedExercise {
  startDate: IsoDate;
  endDate?: IsoDate | null;
  numberPeriods?: number | null;
  exercise?: number | null;
}

/** The last day of the `numberPeriods`-th calendar month counted from the start's month. */
export function endOfPeriods(startDate: IsoDate, numberPeriods: number): IsoDate {
  const [year, month] = startDate.split('-').map(Number);
  const last = new Date(Date.UTC(year, month - 1 + numberPeriods - 1, 1));
  return lastDayOfMonth(last.toISOString().slice(0, 10));
}

/**
 * The end date and year label. The label defaults to the start date's year: every exercise stored before the
 * label was sent carries that one, so old and new exercises label alike; a client that labels an exercise
 * spanning two years by its closing year sends that year, and any year the exercise covers is accepted.
 */
export function exerciseSpan(stated: StatedExercise): { endDate: IsoDate; exercise: number } {
  const { startDate } = stated;
  const numberPeriods = stated.numberPeriods ?? null;
  const statedEnd = stated.endDate ?? null;
  if (numberPeriods !== null && (!Number.isInteger(numberPeriods) || numberPeriods < 1 || numberPeriods > MAX_PERIODS)) {
    fail(Errors.invalidInput, { field: 'numberPeriods', value: String(numberPeriods), reason: Reasons.badValue });
  }
  if (numberPeriods === null && statedEnd === null) fail(Errors.invalidInput, { field: 'numberPeriods', reason: Reasons.required });
  if (!isIsoDate(startDate)) fail(AccountingErrors.exerciseInvalidDates, { startDate, endDate: statedEnd ?? '', maxPeriods: MAX_PERIODS });
  // Dates are four-digit years: an end past 9999 is refused before it is written (it would read +010000-...).
  const lastMonth = Number(startDate.slice(0, 4)) * 12 + Number(startDate.slice(5, 7)) - 1 + (numberPeriods ?? 1) - 1;
  if (Math.floor(lastMonth / 12) > LAST_YEAR) {
    fail(Errors.invalidInput, { field: 'numberPeriods', value: String(numberPeriods), reason: Reasons.badValue });
  }
  const derived = numberPeriods === null ? null : endOfPeriods(startDate, numberPeriods);
  if (derived !== null && statedEnd !== null && statedEnd !== derived) {
    fail(AccountingErrors.exerciseEndDateDisagrees, { startDate, numberPeriods: String(numberPeriods), endDate: statedEnd, expectedEndDate: derived });
  }
  const endDate = derived ?? statedEnd!;
  if (endDate < startDate) fail(AccountingErrors.exerciseInvalidDates, { startDate, endDate, maxPeriods: MAX_PERIODS });
  const exercise = stated.exercise ?? Number(startDate.slice(0, 4));
  if (exercise < Number(startDate.slice(0, 4)) || exercise > Number(endDate.slice(0, 4))) {
    fail(Errors.invalidInput, { field: 'exercise', value: String(exercise), reason: Reasons.badValue });
  }
  return { endDate, exercise };
}
