/**
 * Payment term lines (a payment term's, or a customer's/supplier's own): when each instalment falls
 * due (condition + days, optionally moved to fixed pay days of the month) and which share of the
 * total it is. The shares must add up to exactly 100%: either the percentages do, or a last REMAINDER
 * line takes what the others leave.
 */
import { Reasons, fail } from '../errors.ts';
import type { PaymentTermLineCondition, PaymentTermLineType } from './enums.ts';
import { SettingsErrors } from './errors.ts';
import { Decimal, ZERO } from '../money.ts';

export const PAYMENT_TERM_LIMITS = Object.freeze({ maxLines: 12, maxDays: 365, maxPayDays: 3, percentDecimals: 2 });
const HUNDRED = new Decimal(100);

export interface PaymentTermLineInput {
  lineId: string;
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
  /** The line's percentage of the total, two decimals (a REMAINDER line carries what it works out to). */
  value: string;
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

/** Validates and normalises the lines; `paymentMeanExists` checks references against the shared settings. */
export function decidePaymentTermLines(lines: PaymentTermLineInput[], paymentMeanExists: (id: string) => boolean, field = 'paymentTermLines'): PaymentTermLine[] {
  if (lines.length === 0) return [];
  if (lines.length > PAYMENT_TERM_LIMITS.maxLines) bad(field, Reasons.tooManyItems, { maximum: PAYMENT_TERM_LIMITS.maxLines });
  let total = ZERO;
  const out = lines.map((line, i): PaymentTermLine => {
    const at = `${field}[${i}]`;
    const day = line.day ?? 0;
    if (!Number.isInteger(day) || day < 0 || day > PAYMENT_TERM_LIMITS.maxDays) bad(`${at}.day`, Reasons.termDay, { maxDays: PAYMENT_TERM_LIMITS.maxDays });
    const payDays = [...new Set(line.payDays ?? [])].sort((a, b) => a - b);
    if (payDays.length > PAYMENT_TERM_LIMITS.maxPayDays || payDays.some((d) => !Number.isInteger(d) || d < 1 || d > 31)) {
      bad(`${at}.payDays`, Reasons.termPayDays, { maxPayDays: PAYMENT_TERM_LIMITS.maxPayDays });
    }
    if (line.paymentMeanId && !paymentMeanExists(line.paymentMeanId)) fail(SettingsErrors.settingNotFound, { entity: 'paymentMean', field: `${at}.paymentMeanId`, id: line.paymentMeanId });
    let value: Decimal;
    if (line.type === 'REMAINDER') {
      if (i !== lines.length - 1) bad(`${at}.type`, Reasons.remainderLast);
      value = HUNDRED.minus(total);
      if (value.lte(ZERO)) bad(`${at}.type`, Reasons.remainderEmpty);
    } else {
      value = percentage(line.value, `${at}.value`);
    }
    total = total.plus(value);
    return { lineId: line.lineId, order: i + 1, condition: line.condition, day, payDays, type: line.type, value: value.toFixed(2), paymentMeanId: line.paymentMeanId };
  });
  if (!total.eq(HUNDRED)) bad(field, Reasons.termTotal, { total: total.toFixed(2) });
  return out;
}
