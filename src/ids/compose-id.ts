import { describeValue, ValidationError } from '../errors/index.js';
import type { Id } from './id.js';
import { MAX_TABLE_ID } from './table-ids.js';

/** Reference epoch of the id composition: 1440000000000 ms (2015-08-19T16:00:00Z). */
export const ID_EPOCH = 1_440_000_000_000;

/** Largest random part: the composition keeps 9 bits for it. */
export const MAX_RANDOM = 511;

/** The three parts an id is made of (spec, "Id composition"). */
export interface IdParts {
  /** Creation time, ms since the Unix epoch (UTC), at or after {@link ID_EPOCH}. */
  createdAt: number;
  /** Table id, 0..63 (see `TABLE_IDS`). */
  tableId: number;
  /** Random suffix, 0..511. */
  random: number;
}

/**
 * The id `((ms_since_epoch * 64 + table_id) * 512) + random`, computed in bigint (ids pass
 * 2^53 since May 2024) and returned as its canonical decimal string. Pure and exact: use it
 * for a record whose creation time is known (imports, seeded data); `generateId` is the one
 * that makes fresh, unique ids. Throws a {@link ValidationError} naming a part out of range.
 */
export function composeId(parts: IdParts): Id {
  const { createdAt, tableId, random } = parts;
  checkTime(createdAt, 'createdAt', 'composeId');
  checkRange(tableId, MAX_TABLE_ID, 'tableId');
  checkRange(random, MAX_RANDOM, 'random');
  return compose(createdAt - ID_EPOCH, tableId, random);
}

/** Unchecked composition from ms since {@link ID_EPOCH}. */
export function compose(msSinceEpoch: number, tableId: number, random: number): Id {
  return (BigInt(msSinceEpoch) * 32768n + BigInt(tableId * 512 + random)).toString();
}

/**
 * The smallest random part that makes the id of (`msSinceEpoch`, `tableId`) a multiple of 10.
 * The rest of the id, `ms * 32768 + table * 512`, is even, so this is 0, 2, 4, 6 or 8, and a
 * millisecond holds 52 (from 0) or 51 such ids per table.
 */
export function firstRandom(msSinceEpoch: number, tableId: number): number {
  const rest = ((msSinceEpoch % 10) * 8 + tableId * 2) % 10; // 32768 ≡ 8 and 512 ≡ 2 (mod 10)
  return (10 - rest) % 10;
}

/**
 * The reference algorithm's random part for a draw in [0, 1): `floor(draw * 512)` moved down
 * to the nearest value that makes the id a multiple of 10 (up by 10 when that is below 0).
 */
export function randomFromDraw(draw: number, msSinceEpoch: number, tableId: number): number {
  const raw = Math.floor(draw * (MAX_RANDOM + 1));
  const first = firstRandom(msSinceEpoch, tableId);
  return raw < first ? first : raw - ((raw - first) % 10);
}

/** Throws unless `time` is a safe integer ms at or after {@link ID_EPOCH}. */
export function checkTime(time: unknown, name: string, caller: string): asserts time is number {
  if (typeof time === 'number' && Number.isSafeInteger(time) && time >= ID_EPOCH) return;
  const message = `must be a time in ms (an integer) at or after the id epoch ${ID_EPOCH} (2015-08-19T16:00:00Z), got ${describeValue(time)}`;
  throw new ValidationError(`${caller}: ${name} ${message}`, { issues: [{ path: [name], message }] });
}

function checkRange(value: unknown, max: number, name: string): void {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max) return;
  const message = `must be an integer in 0..${max}, got ${describeValue(value)}`;
  throw new ValidationError(`composeId: ${name} ${message}`, { issues: [{ path: [name], message }] });
}
