/**
 * An invoice's open items (pure): one per line of its payment terms (domain/settings/payment-terms.ts), each
 * with its due date and amount, the amounts adding up exactly to the invoice's totalLiquid.
 *
 * Due date: DAY_OF_PAYMENT counts `day` days from the document's date, END_OF_MONTH from the last day of its
 * month; with pay days, the date moves on to the first pay day on or after it (a pay day beyond a month's end is
 * its last day). Amount: PERCENTAGE is that share of the total rounded (halves away from zero) to the currency's
 * decimals, FIXED_AMOUNT its amount (at most what is left), REMAINING_AMOUNT what the others leave; the last
 * item takes whatever rounding left, so the sum is exact. No payment terms: one item due at the document's date.
 * A credit note's items are negative (each share of a negative total): they are what the organisation owes back.
 */
import type { IsoDate } from '../calendar.ts';
import { lastDayOfMonth } from '../calendar.ts';
import { assert } from '../errors.ts';
import { derivedId } from '../ids.ts';
import { Decimal, ZERO } from '../money.ts';
import type { PaymentTermLine } from '../settings/payment-terms.ts';
import { roundAmount } from '../taxes/rounding.ts';
import type { OpenItemDue } from './events.ts';

export interface InstalmentsInput {
  invoiceId: string;
  documentDate: IsoDate;
  totalLiquid: string;
  /** The document currency's decimals. */
  precision: number;
  paymentTermLines: readonly PaymentTermLine[];
}

const addDays = (date: IsoDate, days: number): IsoDate => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

/** The first of the month's pay days on or after `date` (a pay day past the month's end is its last day), else the next month's first. */
function onPayDay(date: IsoDate, payDays: readonly number[]): IsoDate {
  if (payDays.length === 0) return date;
  const sorted = [...payDays].sort((a, b) => a - b);
  const dayIn = (month: IsoDate, day: number) => {
    const last = lastDayOfMonth(month);
    return `${month.slice(0, 8)}${String(Math.min(day, Number(last.slice(8)))).padStart(2, '0')}`;
  };
  for (const day of sorted) if (dayIn(date, day) >= date) return dayIn(date, day);
  return dayIn(addDays(lastDayOfMonth(date), 1), sorted[0]);
}

export function dueDateOf(documentDate: IsoDate, line: Pick<PaymentTermLine, 'condition' | 'day' | 'payDays'>): IsoDate {
  const from = line.condition === 'END_OF_MONTH' ? lastDayOfMonth(documentDate) : documentDate;
  return onPayDay(addDays(from, line.day), line.payDays);
}

export function openItemsOf(input: InstalmentsInput): OpenItemDue[] {
  const totalAmount = new Decimal(input.totalLiquid);
  const text = (d: Decimal) => d.toFixed(input.precision);
  const itemId = (key: string) => derivedId(input.invoiceId, 'open-item', key);
  const lines = [...input.paymentTermLines].sort((a, b) => a.order - b.order);
  if (lines.length === 0) return [{ openItemId: itemId('1'), dueDate: input.documentDate, amount: text(totalAmount), paymentMeanId: null }];
  let left = totalAmount;
  const items = lines.map((line, i): OpenItemDue => {
    const sign = totalAmount.isNegative() ? -1 : 1;
    let amount: Decimal;
    if (i === lines.length - 1) amount = left; // REMAINING_AMOUNT, or the last share: what rounding left
    else if (line.type === 'FIXED_AMOUNT') amount = Decimal.min(roundAmount(new Decimal(line.value ?? 0), input.precision), left.abs()).times(sign);
    else amount = roundAmount(totalAmount.times(line.value ?? 0).dividedBy(100), input.precision);
    // A share never takes more than is left (a fixed amount above a small invoice's total).
    if (amount.abs().gt(left.abs())) amount = left;
    left = left.minus(amount);
    return { openItemId: itemId(String(line.order)), dueDate: dueDateOf(input.documentDate, line), amount: text(amount), paymentMeanId: line.paymentMeanId };
  });
  assert(items.reduce((s, item) => s.plus(item.amount), ZERO).eq(totalAmount), `open items of ${input.invoiceId} add up to its total`);
  return items;
}
