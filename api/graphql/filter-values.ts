/**
 * Values a list filter compares columns with, checked before they reach PostgreSQL: a value the column's type
 * cannot read would otherwise come back as PostgreSQL's own error text. UUID, DateTime and JSON are
 * pass-through scalars (api/graphql/scalars.ts), so their shape is checked here, per column type.
 */
import { DECIMAL_TEXT } from '../../commands/input-types.ts';
import { isIsoDate } from '../../domain/calendar.ts';
import type { Scalar } from '../../projections/engine/resource.ts';
import { isUuid } from '../../domain/ids.ts';
import { unstorableReason } from '../../platform/storable-text.ts';

/** ISO 8601: a calendar date, or a date and time with optional seconds, fraction and offset. */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/;
const INT32 = 2 ** 31;

function isIsoDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  if (!m || !isIsoDate(m[1])) return false;
  const [hours, minutes, seconds, offsetHours, offsetMinutes] = m.slice(2).map((v) => (v === undefined ? 0 : Number(v)));
  return hours <= 23 && minutes <= 59 && seconds <= 59 && offsetHours <= 15 && offsetMinutes <= 59;
}

const EXPECTED: Record<Scalar, { accepts(value: unknown): boolean; what: string }> = {
  UUID: { accepts: (v) => isUuid(v), what: 'a UUID (8-4-4-4-12 hexadecimal digits)' },
  DateTime: { accepts: (v) => typeof v === 'string' && isIsoDateTime(v), what: 'an ISO 8601 date (2026-03-01) or date and time (2026-03-01T09:30:00Z)' },
  Date: { accepts: (v) => typeof v === 'string' && isIsoDateTime(v), what: 'an ISO 8601 date (2026-03-01)' },
  String: { accepts: (v) => typeof v === 'string' && unstorableReason(v) === undefined, what: 'text without NUL characters or unpaired surrogates' },
  Int: { accepts: (v) => Number.isInteger(v) && Math.abs(v as number) < INT32, what: 'a 32-bit integer' },
  Boolean: { accepts: (v) => typeof v === 'boolean', what: 'true or false' },
  // The Decimal scalar has checked the notation already; this keeps other callers of the query builder to it.
  Decimal: { accepts: (v) => typeof v === 'string' && DECIMAL_TEXT.test(v), what: 'a decimal number in plain notation' },
};

/** Why `value` cannot be compared with a column of type `scalar`, or undefined when it can. */
export function filterValueProblem(scalar: Scalar, value: unknown): string | undefined {
  if (value === null) return undefined;
  const expected = EXPECTED[scalar];
  if (expected.accepts(value)) return undefined;
  const shown = typeof value === 'string' ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : String(value);
  return `${shown} is not ${expected.what}`;
}
