/** Calendar dates (YYYY-MM-DD, no time zone) for accounting: entry dates, exercises, periods. */
import { Month } from './enums.ts';

export type IsoDate = string;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isIsoDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

/** Accepts a date or a DateTime (the spec's scalar) and keeps its calendar date. */
export function toIsoDate(input: string): IsoDate | undefined {
  const head = input.slice(0, 10);
  if (!isIsoDate(head)) return undefined;
  if (input.length > 10 && Number.isNaN(Date.parse(input))) return undefined;
  return head;
}

export function lastDayOfMonth(date: IsoDate): IsoDate {
  const [y, m] = date.split('-').map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${date.slice(0, 8)}${String(last).padStart(2, '0')}`;
}

export function nextDay(date: IsoDate): IsoDate {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

export interface PeriodSpan {
  month: Month;
  startDate: IsoDate;
  endDate: IsoDate;
}

export const MAX_PERIODS = 24;

/** Monthly periods covering [start, end]: the first and last may be partial months. */
export function monthlyPeriods(start: IsoDate, end: IsoDate): PeriodSpan[] {
  const periods: PeriodSpan[] = [];
  let cursor = start;
  while (cursor <= end) {
    if (periods.length >= MAX_PERIODS) throw new RangeError('too many periods');
    const monthEnd = lastDayOfMonth(cursor);
    const periodEnd = monthEnd < end ? monthEnd : end;
    periods.push({ month: Month[Number(cursor.slice(5, 7)) - 1], startDate: cursor, endDate: periodEnd });
    cursor = nextDay(periodEnd);
  }
  return periods;
}
