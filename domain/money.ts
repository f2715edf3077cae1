/** Money arithmetic: decimal.js only, amounts travel as strings, never as JS floats. */
import { Decimal } from 'decimal.js';
import { Reasons, fail } from './errors.ts';
import { AccountingErrors } from './accounting/errors.ts';

Decimal.set({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });

export { Decimal };
export const ZERO = new Decimal(0);
/** Largest amount a line may carry: NUMERIC(19,4) holds it with room for sums. */
export const MAX_AMOUNT = new Decimal('999999999999999');

/** Parses an input amount; refuses NaN, infinities, negatives, more decimals than the currency has. */
export function parseAmount(raw: string | number | null | undefined, precision: number, field: string): Decimal {
  if (raw === null || raw === undefined || raw === '') return ZERO;
  const text = typeof raw === 'number' ? String(raw) : raw.trim();
  // Plain decimal notation only: decimal.js would also read hex, binary, octal and exponents.
  if (!/^\d{1,20}(\.\d{1,20})?$/.test(text)) return fail(AccountingErrors.invalidLineAmount, { field, value: String(raw), reason: Reasons.amountFormat });
  const value = new Decimal(text);
  if (!value.isFinite() || value.isNeg() || value.gt(MAX_AMOUNT) || value.decimalPlaces() > precision) {
    fail(AccountingErrors.invalidLineAmount, { field, value: String(raw), reason: Reasons.amountRange, precision });
  }
  return value;
}

/** Canonical text for storage and events: fixed to the currency's precision. */
export function formatAmount(value: Decimal, precision: number): string {
  return value.toFixed(precision);
}
