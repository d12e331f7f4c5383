import { describeValue, ValidationError } from '../errors/index.js';

/**
 * A record id in its canonical form: a decimal string of digits with no leading zeros
 * (`"0"` means "none"). Ids of the service exceed 2^53, bigint is neither a valid
 * IndexedDB key nor JSON, so the library carries every id as this string and writes
 * it back to the wire as a bare JSON integer.
 */
export type Id = string;

const CANONICAL = /^(0|[1-9][0-9]*)$/;
const DIGITS = /^[0-9]+$/;

/** True when `value` is already a canonical id string. */
export function isId(value: unknown): value is Id {
  return typeof value === 'string' && CANONICAL.test(value);
}

/**
 * Converts a number, bigint or digit string to the canonical {@link Id}, or returns
 * `undefined` when the value cannot be an id (negative, fractional, unsafe number,
 * non-digit string). Unsafe numbers are refused because their digits are already lost.
 */
export function tryToId(value: unknown): Id | undefined {
  switch (typeof value) {
    case 'string': {
      if (CANONICAL.test(value)) return value;
      if (!DIGITS.test(value)) return undefined;
      const trimmed = value.replace(/^0+/, '');
      return trimmed === '' ? '0' : trimmed;
    }
    case 'number':
      return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
    case 'bigint':
      return value >= 0n ? value.toString() : undefined;
    default:
      return undefined;
  }
}

/** Like {@link tryToId} but throws a `ValidationError` naming the bad value's type. */
export function toId(value: unknown): Id {
  const id = tryToId(value);
  if (id === undefined) {
    const message = `expected a non-negative integer, bigint or digit string, got ${describeValue(value)}`;
    throw new ValidationError(`not an id: ${message}`, { issues: [{ path: [], message }] });
  }
  return id;
}

/**
 * Orders two canonical ids numerically (shorter is smaller, then digit by digit),
 * which is what the service means by "ascending by id". Never compare ids as plain
 * strings: "9" > "10" lexicographically.
 */
export function compareIds(a: Id, b: Id): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
