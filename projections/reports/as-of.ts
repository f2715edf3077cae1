/**
 * A report's `asOf` input: the instant whose books it shows (the events recorded up to it, ms precision as the
 * store keeps recordedAt). Absent means now (the kept balances, no correction). An instant at or after now shows the
 * books as they are now, read as if absent: recordedAt comes from the database's clock, so clamping to this
 * process's clock could leave out the last lines of a skewed server. An instant before the organisation
 * existed needs no special case: no line was recorded by then, so the books are empty.
 */
import { GraphQLError } from 'graphql';

/** ISO 8601 date-times with an explicit offset (a bare date or a local time would depend on the server's zone). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** The instant `value` names, earlier than `now`; undefined when absent or not earlier (the books now). Refuses anything else as INVALID_QUERY naming `field`. */
export function asOfInstant(value: unknown, now: Date, field = 'input.asOf'): Date | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : '';
  const instant = ISO_INSTANT.test(text) && realDay(text) ? new Date(text) : new Date(NaN);
  if (Number.isNaN(instant.getTime())) {
    const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
    throw new GraphQLError(`${field}: ${shown} is not an instant (an ISO 8601 date-time with Z or an offset, e.g. 2026-03-31T23:59:59Z)`, { extensions: { code: 'INVALID_QUERY' } });
  }
  return instant >= now ? undefined : instant;
}

/** The calendar has the text's day (Date would roll 2026-02-30 over into March). */
function realDay(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDate() === d;
}
