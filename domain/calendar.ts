/** Calendar dates (YYYY-MM-DD, no time zone) for accounting: entry dates, exercises, periods. */
import { Month } from './accounting/enums.ts';

export type IsoDate = string;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A calendar day that exists: 2025-02-31 does not, nor year 0000 (PostgreSQL's calendar has no year 0). The year
 * is set with setUTCFullYear, as Date.UTC would take years 0-99 for 1900-1999.
 */
export function isIsoDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m || +m[1] < 1) return false;
  const d = new Date(0);
  d.setUTCFullYear(+m[1], +m[2] - 1, +m[3]);
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

/**
 * ISO 8601 as RFC 3339 profiles it: a date, or a date and time with `T`, seconds, an optional fraction
 * and a zone (`Z` or ±hh:mm). Nothing before or after, no other separator.
 */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d))?$/;

/**
 * The accounting date of a date or a DateTime (the spec's scalar). A date-time's date is the calendar
 * date as written, in its own offset: `2026-03-31T23:30:00-05:00` is 31 March, the day the client's
 * books live in, though it is already 1 April in UTC. An accounting date names a day, not an instant;
 * converting to UTC (or to the server's zone) would move late-evening entries into the next day,
 * period or exercise.
 */
export function toIsoDate(input: string): IsoDate | undefined {
  const date = DATE_TIME.exec(input)?.[1];
  return date !== undefined && isIsoDate(date) ? date : undefined;
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
