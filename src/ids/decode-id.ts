import { describeValue, ValidationError } from '../errors/index.js';
import { ID_EPOCH, type IdParts } from './compose-id.js';
import { tryToId, type Id } from './id.js';

/**
 * Splits an id into its creation time, table id and random part (spec: creation time =
 * id / 32768 + epoch, table id = (id / 512) & 0x3f, random = the low 9 bits). Accepts an
 * {@link Id} or any digit string, a bigint, or a non-negative safe integer number.
 *
 * Throws a {@link ValidationError} (issue path `id`) for anything else: negative values,
 * fractions, numbers beyond 2^53 (their exact digits are already lost: pass the string),
 * strings with anything but digits, and other types.
 */
export function decodeId(id: Id | bigint | number): IdParts {
  const canonical = tryToId(id);
  if (canonical === undefined) {
    const message = `not an id: expected a non-negative integer (safe number), bigint or digit string, got ${describeValue(id)}${
      typeof id === 'number' && Number.isInteger(id) && id > 0 ? ' (beyond 2^53: its exact digits are lost, pass the id as a string)' : ''
    }`;
    throw new ValidationError(`decodeId: ${message}`, { issues: [{ path: ['id'], message }] });
  }
  const value = BigInt(canonical);
  return {
    createdAt: Number(value >> 15n) + ID_EPOCH,
    tableId: Number((value >> 9n) & 63n),
    random: Number(value & 511n),
  };
}
