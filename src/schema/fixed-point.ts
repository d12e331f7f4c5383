import { describeValue, type ValidationError } from '../errors/index.js';
import { conversionError } from './conversion-error.js';

/** A decimal in plain or exponent notation: sign, integer digits, fraction digits, exponent. */
const DECIMAL = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/;

/** Beyond this many integer digits a scaled value cannot be a safe integer anyway. */
const MAX_DIGITS = 40;

/**
 * Writes an integer scaled by 10^`scale` as an exact decimal string with `scale` fraction
 * digits: `(12345, 3)` gives `"12.345"`, `(-5, 3)` gives `"-0.005"`. No float arithmetic is
 * involved, so no drift. Throws a ValidationError for NaN, fractions and unsafe integers.
 */
export function scaledToDecimalString(value: number | bigint, scale: number, what: string): string {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    throw conversionError(what, `expected a safe integer, got ${describeValue(value)}`);
  }
  if (typeof value !== 'number' && typeof value !== 'bigint') {
    throw conversionError(what, `expected an integer, got ${describeValue(value)}`);
  }
  const big = BigInt(value);
  const digits = (big < 0n ? -big : big).toString().padStart(scale + 1, '0');
  const sign = big < 0n ? '-' : '';
  if (scale === 0) return `${sign}${digits}`;
  return `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/**
 * Reads a decimal (string, or number by its shortest decimal form) and returns it scaled by
 * 10^`scale` as an integer, rounded half away from zero: `('0.1', 3)` gives 100, and
 * `(0.1 + 0.2, 3)` gives 300 because `0.30000000000000004` rounds at the third decimal.
 * Throws a ValidationError for text that is not a decimal, NaN, infinities, and results
 * outside the safe integer range.
 */
export function decimalToScaled(value: string | number, scale: number, what: string): number {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw conversionError(what, `expected a finite number, got ${describeValue(value)}`);
    text = String(value); // shortest decimal that reads back as this double, e.g. "1e-7"
  } else if (typeof value === 'string') {
    text = value;
  } else {
    throw conversionError(what, `expected a decimal string or number, got ${describeValue(value)}`);
  }
  const match = DECIMAL.exec(text);
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match ?? [];
  if (!match || whole.length + fraction.length === 0) {
    throw conversionError(what, `expected a decimal number, got ${describeValue(value)}`);
  }
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  // Position of the decimal point in `digits` once scaled: digits before it are the integer.
  const point = digits.length - fraction.length + Number(exponentText) + scale;
  if (digits === '' || point < 0) return 0;
  if (point > MAX_DIGITS) throw outOfRange(what, value);
  const integerDigits = digits.slice(0, point).padEnd(point, '0');
  const roundUp = (digits.charCodeAt(point) || 48) >= 53; // next digit >= '5'
  let scaled = BigInt(integerDigits === '' ? '0' : integerDigits) + (roundUp ? 1n : 0n);
  if (sign === '-') scaled = -scaled;
  if (scaled > BigInt(Number.MAX_SAFE_INTEGER) || scaled < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw outOfRange(what, value);
  }
  return Number(scaled) + 0; // + 0 turns -0 into 0
}

function outOfRange(what: string, value: unknown): ValidationError {
  return conversionError(what, `${describeValue(value)} is beyond the safe integer range once scaled`);
}
