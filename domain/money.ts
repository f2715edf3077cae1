/** Money arithmetic: decimal.js only, amounts travel as strings, never as JS floats. */
import { Decimal } from 'decimal.js';
import { Errors, fail } from './errors.ts';

Decimal.set({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });

export { Decimal };
export const ZERO = new Decimal(0);
/** Largest amount a line may carry: NUMERIC(19,4) holds it with room for sums. */
export const MAX_AMOUNT = new Decimal('999999999999999');

/** Parses an input amount; refuses NaN, infinities, negatives, more decimals than the currency has. */
export function parseAmount(raw: string | number | null | undefined, precision: number, field: string): Decimal {
  if (raw === null || raw === undefined || raw === '') return ZERO;
  let value: Decimal;
  try {
    value = new Decimal(typeof raw === 'number' ? String(raw) : raw.trim());
  } catch {
    return fail(Errors.invalidLineAmount, { field, value: String(raw) });
  }
  if (!value.isFinite() || value.isNeg() || value.gt(MAX_AMOUNT) || value.decimalPlaces() > precision) {
    fail(Errors.invalidLineAmount, { field, value: String(raw), precision });
  }
  return value;
}

/** Canonical text for storage and events: fixed to the currency's precision. */
export function formatAmount(value: Decimal, precision: number): string {
  return value.toFixed(precision);
}
