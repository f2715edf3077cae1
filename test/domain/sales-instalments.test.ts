/** An invoice's open items from its payment terms (domain/sales/instalments.ts): due dates and amounts by hand, sums exact. */
import fc from 'fast-check';
import t from 'tap';
import { Decimal, ZERO } from '../../domain/money.ts';
import { openItemsOf } from '../../domain/sales/instalments.ts';
import type { PaymentTermLine } from '../../domain/settings/payment-terms.ts';
import { expect, holds } from '../helpers/property.ts';

const INVOICE_ID = '6f1c2b1e-8a51-4c1e-9d2b-5b7c1d0e0a01';

const term = (order: number, fields: Partial<PaymentTermLine>): PaymentTermLine => ({
  lineId: `term-${order}`, order, condition: 'DAY_OF_PAYMENT', day: 0, payDays: [], type: 'PERCENTAGE', value: null, paymentMeanId: null, ...fields,
});
const items = (totalLiquid: string, lines: PaymentTermLine[], documentDate = '2026-01-15') =>
  openItemsOf({ invoiceId: INVOICE_ID, documentDate, totalLiquid, precision: 2, paymentTermLines: lines }).map((i) => [i.dueDate, i.amount]);

t.test('no payment terms: one item of the whole total, due at the document date', async (t) => {
  t.same(items('1854.77', []), [['2026-01-15', '1854.77']]);
});

t.test('30/60/90 days: thirds of 1000.00, the last taking the cent rounding left', async (t) => {
  const lines = [term(1, { day: 30, value: '33.33' }), term(2, { day: 60, value: '33.33' }), term(9999, { day: 90, type: 'REMAINING_AMOUNT', value: '33.34' })];
  // 15 Jan + 30 = 14 Feb; + 60 = 16 Mar; + 90 = 15 Apr. 333.30 + 333.30 + 333.40.
  t.same(items('1000.00', lines), [['2026-02-14', '333.30'], ['2026-03-16', '333.30'], ['2026-04-15', '333.40']]);
  // Percentages adding up to 100 with no REMAINING_AMOUNT line: the last still takes what rounding left.
  t.same(items('100.01', [term(1, { value: '50' }), term(2, { day: 30, value: '50' })]), [['2026-01-15', '50.01'], ['2026-02-14', '50.00']]);
});

t.test('END_OF_MONTH with pay days: from the month\'s last day, then on to the next pay day', async (t) => {
  // 31 Jan + 30 days = 2 Mar; pay days 5 and 20: 5 Mar.
  t.same(items('500.00', [term(1, { condition: 'END_OF_MONTH', day: 30, payDays: [20, 5], value: '100' })]), [['2026-03-05', '500.00']]);
  // 28 Feb + 0 days; pay day 31 falls on the month's last day: 28 Feb.
  t.same(items('10.00', [term(1, { condition: 'END_OF_MONTH', payDays: [31], value: '100' })], '2026-02-10'), [['2026-02-28', '10.00']]);
  // 15 Jan + 10 = 25 Jan, past the pay day 10: 10 Feb.
  t.same(items('10.00', [term(1, { day: 10, payDays: [10], value: '100' })]), [['2026-02-10', '10.00']]);
});

t.test('a fixed amount, a percentage and the rest; a fixed amount never takes more than the total', async (t) => {
  const lines = [term(1, { type: 'FIXED_AMOUNT', value: '100.00' }), term(2, { day: 30, value: '25' }), term(9999, { day: 60, type: 'REMAINING_AMOUNT' })];
  // 100.00; 25 % of 1210.00 = 302.50; 807.50 left.
  t.same(items('1210.00', lines), [['2026-01-15', '100.00'], ['2026-02-14', '302.50'], ['2026-03-16', '807.50']]);
  t.same(items('60.00', lines).map(([, amount]) => amount), ['60.00', '0.00', '0.00']);
});

t.test('a credit note\'s items are negative, shared as an invoice\'s', async (t) => {
  const lines = [term(1, { value: '33.33' }), term(9999, { day: 30, type: 'REMAINING_AMOUNT' })];
  t.same(items('-1000.00', lines), [['2026-01-15', '-333.30'], ['2026-02-14', '-666.70']]);
  t.same(items('-60.00', [term(1, { type: 'FIXED_AMOUNT', value: '100.00' }), term(9999, { type: 'REMAINING_AMOUNT' })]).map(([, a]) => a), ['-60.00', '0.00']);
});

t.test('property: the items add up exactly to totalLiquid, due on or after the document date', async (t) => {
  const share = fc.record({
    type: fc.constantFrom('PERCENTAGE' as const, 'FIXED_AMOUNT' as const),
    value: fc.integer({ min: 1, max: 3000 }).map((n) => (n / 100).toFixed(2)),
    condition: fc.constantFrom('DAY_OF_PAYMENT' as const, 'END_OF_MONTH' as const),
    day: fc.integer({ min: 0, max: 365 }),
    payDays: fc.uniqueArray(fc.integer({ min: 1, max: 31 }), { maxLength: 3 }),
  });
  holds(t, fc.property(fc.array(share, { maxLength: 11 }), fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.integer({ min: 0, max: 3 }), (shares, cents, precision) => {
    const total = new Decimal(cents).dividedBy(10 ** precision).toFixed(precision);
    const lines = [...shares.map((s, i) => term(i + 1, s)), term(9999, { type: 'REMAINING_AMOUNT', day: 10 })];
    const out = openItemsOf({ invoiceId: INVOICE_ID, documentDate: '2026-01-31', totalLiquid: total, precision, paymentTermLines: lines });
    expect(out.reduce((s, i) => s.plus(i.amount), ZERO).eq(total), `items of ${total} add up to it`);
    expect(out.every((i) => i.dueDate >= '2026-01-31' && new Decimal(i.amount).decimalPlaces() <= precision), 'due dates and decimals');
    expect(out.every((i) => new Decimal(i.amount).isZero() || new Decimal(i.amount).isNegative() === new Decimal(total).isNegative()), 'signed as the total');
  }));
});
