import { decimalToScaled, scaledToDecimalString } from './fixed-point.js';

/** `reduction_percent` is the percentage multiplied by 1000 (spec convention 3). */
const PERCENT_SCALE = 3;

/**
 * A `reduction_percent` integer as a percentage: `reductionPercentToPercent(500) === 0.5`
 * (0.5 %), `reductionPercentToPercent(12500) === 12.5`. The result is the double nearest the
 * exact decimal, so it converts back exactly for values of up to 15 digits. Throws a
 * ValidationError for NaN, fractions and unsafe integers.
 */
export function reductionPercentToPercent(value: number): number {
  return Number(scaledToDecimalString(value, PERCENT_SCALE, 'reductionPercentToPercent'));
}

/**
 * A percentage (number or decimal string) as a `reduction_percent` integer, without float
 * drift: `percentToReductionPercent(0.5) === 500`, `percentToReductionPercent('12.5') === 12500`.
 * Digits beyond the third decimal round half away from zero. Throws a ValidationError for bad input.
 */
export function percentToReductionPercent(percent: number | string): number {
  return decimalToScaled(percent, PERCENT_SCALE, 'percentToReductionPercent');
}
