/** Rounding an amount to the currency's decimals, in the modes the countries' rules name. */
import { Decimal } from '../money.ts';
import type { RoundingMode } from './catalogue/types.ts';

// decimal.js's ROUND_HALF_UP rounds halves away from zero (-0.005 -> -0.01), as the euro rule does.
const MODES: Record<RoundingMode, Decimal.Rounding> = { HALF_AWAY_FROM_ZERO: Decimal.ROUND_HALF_UP, DOWN: Decimal.ROUND_DOWN };

export function roundAmount(value: Decimal, precision: number, mode: RoundingMode = 'HALF_AWAY_FROM_ZERO'): Decimal {
  return value.toDecimalPlaces(precision, MODES[mode]);
}

/** `percentage` percent of `base`, rounded. */
export function percentOf(base: Decimal, percentage: Decimal, precision: number, mode: RoundingMode): Decimal {
  return roundAmount(base.times(percentage).dividedBy(100), precision, mode);
}
