/** Accounting dates: ISO 8601 (RFC 3339's profile) only, and a date-time's date is the day it names in its own offset. */
import t from 'tap';
import { toIsoDate } from '../../domain/calendar.ts';

t.test('a date, or a date-time with seconds, an optional fraction and a zone', async (t) => {
  for (const [input, date] of [
    ['2026-03-01', '2026-03-01'],
    ['2026-03-01T00:00:00Z', '2026-03-01'],
    ['2026-03-01T12:34:56.789Z', '2026-03-01'],
    ['2024-02-29T10:00:00+01:00', '2024-02-29'],
  ]) t.equal(toIsoDate(input), date, input);
});

t.test("an offset keeps the calendar date the client wrote, not the UTC one", async (t) => {
  t.equal(toIsoDate('2026-03-31T23:30:00-05:00'), '2026-03-31', 'already 1 April in UTC: still 31 March');
  t.equal(toIsoDate('2026-04-01T00:30:00+02:00'), '2026-04-01', 'still 31 March in UTC: already 1 April');
  t.equal(toIsoDate('2026-12-31T23:59:59.999999999+14:00'), '2026-12-31');
});

t.test('anything else is not a date', async (t) => {
  for (const input of [
    '2026-03-01junk', '2026-03-01 (anything)', '2026-03-01 ', ' 2026-03-01', '2026-03-01T', '2026-03-01T10:00Z', '2026-03-01T10:00:00',
    '2026-03-01 10:00:00Z', '2026-03-01t10:00:00z', '2026-03-01T24:00:00Z', '2026-03-01T10:60:00Z', '2026-03-01T10:00:00+24:00',
    '2026-03-01T10:00:00+0100', '2026-03-01T10:00:00.Z', '2026-02-29', '2026-13-01', '2026-3-1', '20260301', '+002026-03-01',
    'March 1, 2026', '2026-03-01T10:00:00Z\n', '',
  ]) t.equal(toIsoDate(input), undefined, JSON.stringify(input));
});
