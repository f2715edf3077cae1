/**
 * Payment term lines (a payment term's, or a customer's/supplier's own), in Sage's shape: when each
 * instalment falls due (condition + days, optionally moved to fixed pay days of the month) and which share
 * of the total it is. Lines are taken in their `order` (Sage sends 1, 2, ... and 9999 for the last one).
 *
 * The rule the shares obey: either the last line is the one REMAINING_AMOUNT line (what the others leave:
 * the PERCENTAGE lines must leave something, FIXED_AMOUNT lines are amounts of the document's currency), or
 * there is no REMAINING_AMOUNT line, no FIXED_AMOUNT line, and the percentages add up to exactly 100.
 */
import { Reasons, fail } from '../errors.ts';
import type { PaymentTermLineCondition, PaymentTermLineType } from './enums.ts';
import { SettingsErrors } from './errors.ts';
import { Decimal, MAX_AMOUNT, ZERO } from '../money.ts';

export const PAYMENT_TERM_LIMITS = Object.freeze({ maxLines: 12, maxDays: 365, maxPayDays: 3, percentDecimals: 2, amountDecimals: 4, maxOrder: 9999 });
/** The order Sage gives the REMAINING_AMOUNT line, ours when a client leaves it out. */
export const REMAINING_AMOUNT_ORDER = PAYMENT_TERM_LIMITS.maxOrder;
const HUNDRED = new Decimal(100);

export interface PaymentTermLineInput {
  lineId: string;
  /** null: the line's position (1, 2, ...), or 9999 for a REMAINING_AMOUNT line. */
  order: number | null;
  condition: PaymentTermLineCondition;
  day: number | null;
  payDays: number[] | null;
  type: PaymentTermLineType;
  value: string | number | null;
  paymentMeanId: string | null;
}

export interface PaymentTermLine {
  lineId: string;
  order: number;
  condition: PaymentTermLineCondition;
  day: number;
  payDays: number[];
  type: PaymentTermLineType;
  /**
   * PERCENTAGE: percent, two decimals; FIXED_AMOUNT: the amount. REMAINING_AMOUNT: the percentage the
   * PERCENTAGE lines leave, or null when FIXED_AMOUNT lines make it a matter of each document's total.
   */
  value: string | null;
  paymentMeanId: string | null;
}

const bad = (field: string, reason: string, params: Record<string, string | number> = {}): never => fail(SettingsErrors.invalidPaymentTermLines, { field, reason, ...params });

function percentage(raw: string | number | null, field: string): Decimal {
  const text = raw === null ? '' : String(raw).trim();
  if (!/^\d{1,3}(\.\d{1,20})?$/.test(text)) return bad(field, Reasons.termPercentage);
  const value = new Decimal(text);
  if (value.lte(ZERO) || value.gt(HUNDRED) || value.decimalPlaces() > PAYMENT_TERM_LIMITS.percentDecimals) {
    bad(field, Reasons.termPercentage);
  }
  return value;
}

function fixedAmount(raw: string | number | null, field: string): string {
  const text = raw === null ? '' : String(raw).trim();
  const value = /^\d{1,20}(\.\d{1,20})?$/.test(text) ? new Decimal(text) : null;
  if (!value || value.lte(ZERO) || value.gt(MAX_AMOUNT) || value.decimalPlaces() > PAYMENT_TERM_LIMITS.amountDecimals) {
    return bad(field, Reasons.amountRange, { precision: PAYMENT_TERM_LIMITS.amountDecimals });
  }
  return value.toFixed(Math.max(2, value.decimalPlaces()));
}

/** Each line's order: as sent, else its position (a REMAINING_AMOUNT line: 9999); distinct, 1 to 9999. */
function ordered(lines: PaymentTermLineInput[], field: string): { line: PaymentTermLineInput; order: number; at: string }[] {
  const seen = new Set<number>();
  const out = lines.map((line, i) => {
    const at = `${field}[${i}]`;
    const order = line.order ?? (line.type === 'REMAINING_AMOUNT' ? REMAINING_AMOUNT_ORDER : i + 1);
    if (!Number.isInteger(order) || order < 1 || order > PAYMENT_TERM_LIMITS.maxOrder || seen.has(order)) bad(`${at}.order`, Reasons.termOrder, { maxOrder: PAYMENT_TERM_LIMITS.maxOrder });
    seen.add(order);
    return { line, order, at };
  });
  return out.sort((a, b) => a.order - b.order);
}

/** Validates and normalises the lines; `paymentMeanExists` checks references against the shared settings. */
export function decidePaymentTermLines(lines: PaymentTermLineInput[], paymentMeanExists: (id: string) => boolean, field = 'paymentTermLines'): PaymentTermLine[] {
  if (lines.length === 0) return [];
  if (lines.length > PAYMENT_TERM_LIMITS.maxLines) bad(field, Reasons.tooManyItems, { maximum: PAYMENT_TERM_LIMITS.maxLines });
  const sorted = ordered(lines, field);
  const last = sorted[sorted.length - 1];
  let percent = ZERO;
  let fixed = false;
  const out = sorted.map(({ line, order, at }): PaymentTermLine => {
    const day = line.day ?? 0;
    if (!Number.isInteger(day) || day < 0 || day > PAYMENT_TERM_LIMITS.maxDays) bad(`${at}.day`, Reasons.termDay, { maxDays: PAYMENT_TERM_LIMITS.maxDays });
    const payDays = [...new Set(line.payDays ?? [])].sort((a, b) => a - b);
    if (payDays.length > PAYMENT_TERM_LIMITS.maxPayDays || payDays.some((d) => !Number.isInteger(d) || d < 1 || d > 31)) {
      bad(`${at}.payDays`, Reasons.termPayDays, { maxPayDays: PAYMENT_TERM_LIMITS.maxPayDays });
    }
    // NONE is Sage's unset value: a line must say when it falls due and which share it is.
    if (line.condition === 'NONE') bad(`${at}.condition`, Reasons.notOneOf, { values: 'DAY_OF_PAYMENT, END_OF_MONTH' });
    if (line.paymentMeanId && !paymentMeanExists(line.paymentMeanId)) fail(SettingsErrors.settingNotFound, { entity: 'paymentMean', field: `${at}.paymentMeanId`, id: line.paymentMeanId });
    let value: string | null = null;
    switch (line.type) {
      case 'NONE':
        return bad(`${at}.type`, Reasons.notOneOf, { values: 'FIXED_AMOUNT, PERCENTAGE, REMAINING_AMOUNT' });
      case 'PERCENTAGE': {
        const share = percentage(line.value, `${at}.value`);
        percent = percent.plus(share);
        value = share.toFixed(2);
        break;
      }
      case 'FIXED_AMOUNT':
        fixed = true;
        value = fixedAmount(line.value, `${at}.value`);
        break;
      case 'REMAINING_AMOUNT':
        if (line !== last.line) bad(`${at}.type`, Reasons.remainderLast);
        break; // its value is known once every other line is
    }
    return { lineId: line.lineId, order, condition: line.condition, day, payDays, type: line.type, value, paymentMeanId: line.paymentMeanId };
  });
  const remaining = out[out.length - 1];
  if (remaining.type === 'REMAINING_AMOUNT') {
    if (percent.gte(HUNDRED)) bad(`${last.at}.type`, Reasons.remainderEmpty);
    remaining.value = fixed ? null : HUNDRED.minus(percent).toFixed(2);
    return out;
  }
  if (fixed) bad(field, Reasons.fixedNeedsRemainder);
  if (!percent.eq(HUNDRED)) bad(field, Reasons.termTotal, { total: percent.toFixed(2) });
  return out;
}
