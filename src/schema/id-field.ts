import { z } from 'zod';
import { tryToId, type Id } from '../ids/id.js';
import { describeValue } from '../errors/index.js';

/**
 * An id as the wire may carry it: a non-negative safe integer, a bigint, or a digit string
 * (the strict JSON parser returns integers beyond 2^53 as exact digit strings, and customers
 * carry `id_c` as a string). Outputs the canonical {@link Id}: digits, no leading zeros.
 */
export const idField = z
  .custom<string | number | bigint>(canBeId, { error: (issue) => describeBadId(issue.input) })
  .transform((value) => tryToId(value) as Id);

/**
 * An id as the wire may carry it (as {@link idField} accepts it, with the same messages),
 * checked but not converted. The read faces use it and canonicalize every id field of the parsed
 * record in one pass afterwards (`normalizeIdFields`, which also covers undescribed `id_*`
 * fields), instead of a transform per field: the output is the canonical {@link Id} all the same.
 */
export const idValue = z.custom<Id>(canBeId, { error: (issue) => describeBadId(issue.input) });

/** {@link idField} that may also be `null` (the key must be present). */
export const nullableIdField = idField.nullable();

/** {@link idField} that may be missing. */
export const optionalIdField = idField.optional();

/** {@link idField} that may be missing or `null` (an optional reference). */
export const optionalNullableIdField = idField.nullable().optional();

/** True when `value` is a number, bigint or string {@link tryToId} accepts (without building the id). */
function canBeId(value: unknown): boolean {
  switch (typeof value) {
    case 'number':
      return Number.isSafeInteger(value) && value >= 0;
    case 'string':
      return DIGITS.test(value);
    case 'bigint':
      return value >= 0n;
    default:
      return false;
  }
}

const DIGITS = /^[0-9]+$/;

function describeBadId(value: unknown): string {
  if (value === undefined) return 'required';
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    return `must be an id: the number ${value} is beyond 2^53 and its exact digits are lost (send it as a string)`;
  }
  return `must be an id (a non-negative integer, bigint or digit string), got ${describeValue(value)}`;
}
