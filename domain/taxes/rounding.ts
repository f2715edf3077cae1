/** Rounding an amount to the currency's decimals, in the modes the countries' rules name. */
import { Decimal } from '../money.ts';
import type { RoundingMode } from './catalogue/types.ts';

// decimal.js's ROUND_HALF_UP rounds halves away from zero (-0.005 -> -0.01), as the euro rule does.
const MODES: Record<RoundingMode, Decimal.Rounding> = { HALF_AWAY_FROM_ZERO: Decimal.ROUND_HALF_UP, DOWN: Decimal.ROUND_DOWN };

export function roundAmount(value: Decimal, precision: number, mode: RoundingMode = 'HALF_AWAY_FROM_ZERO'): Decimal {
  return value.toDecimalPlaces(precision, MODES[mode]);
}

/**
 * Shares of `total` (already rounded) for amounts `exact`: each rounded to the nearest, then the cents the
 * total differs by go one each to the amounts whose rounding moved them furthest the other way (largest
 * remainder), so the shares add up to the total and each stays within one cent of its exact amount.
 */
export function apportion(exact: readonly Decimal[], total: Decimal, precision: number): Decimal[] {
  const shares = exact.map((value) => roundAmount(value, precision));
  const unit = new Decimal(1).dividedBy(new Decimal(10).pow(precision));
  const difference = total.minus(shares.reduce((s, v) => s.plus(v), new Decimal(0)));
  const steps = difference.dividedBy(unit).abs().toNumber();
  const step = difference.isNegative() ? unit.negated() : unit;
  const order = exact.map((value, i) => ({ i, pull: value.minus(shares[i]).times(step.s) })).sort((a, b) => b.pull.comparedTo(a.pull) || a.i - b.i);
  for (let k = 0; k < steps; k++) shares[order[k % order.length].i] = shares[order[k % order.length].i].plus(step);
  return shares;
}

/** `percentage` percent of `base`, rounded. */
export function percentOf(base: Decimal, percentage: Decimal, precision: number, mode: RoundingMode): Decimal {
  return roundAmount(base.times(percentage).dividedBy(100), precision, mode);
}
