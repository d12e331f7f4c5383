import { describeValue, ValidationError } from '../errors/index.js';
import { ID_EPOCH, MAX_RANDOM, checkTime, compose, firstRandom, randomFromDraw } from './compose-id.js';
import type { Id } from './id.js';
import { MAX_TABLE_ID, toTableId, type TableName } from './table-ids.js';

/** Per-call options of {@link IdGenerator.generate} (and `generateId`). */
export interface GenerateIdOptions {
  /**
   * The clock reading to use for this call, in ms. It is a clock reading, not a fixed creation
   * time: ids stay increasing, so a `now` before the table's last id gives an id after that one.
   * To compose an id for an exact past time, use `composeId`.
   * @default the generator's clock (`Date.now`)
   */
  now?: number;
  /**
   * Draws the random part of the first id of a millisecond: a number in [0, 1).
   * @default the generator's random source (`Math.random`)
   */
  random?: () => number;
}

/** Options of {@link createIdGenerator}. */
export interface IdGeneratorOptions {
  /** @default Date.now */
  clock?: () => number;
  /** @default Math.random */
  random?: () => number;
}

/** Makes ids with the documented composition; see {@link createIdGenerator}. */
export interface IdGenerator {
  /** A fresh id for `table` (a name of `TABLE_IDS` or a table id 0..63). */
  generate(table: TableName | number, options?: GenerateIdOptions): Id;
}

/** Ids per millisecond and table, at least: multiples of 10 among the 512 random values. */
export const IDS_PER_MS = 51;

/**
 * A generator of ids `((ms_since_epoch * 64 + table_id) * 512) + random`, each a multiple of
 * 10 like the reference algorithm, with its own state per table so that the ids of one table
 * are unique and strictly increasing in the order they are made:
 *
 * - The first id in a millisecond the table has not used yet takes a random multiple-of-10
 *   slot (the reference algorithm: a draw of 0..511 moved down to a multiple of 10).
 * - The next ids in that millisecond take the following slots, 10 apart. When the 51 or 52
 *   slots of a millisecond are used up, the generator borrows the next millisecond and starts
 *   at its lowest slot, so a burst packs every slot and runs ahead of the clock as little as
 *   the composition allows.
 * - A clock that goes backwards is not followed: ids continue after the last one.
 *
 * Bound: an id's creation time is never before the clock reading of its call, except after the
 * clock went backwards (then it is after the previous id's), and never more than ⌈n / 51⌉ ms
 * after the highest clock reading seen, where n counts the ids made for the table since the
 * clock last passed the generator's time. 100,000 ids in a tight loop run at most 1,961 ms
 * ahead; ids made at human pace carry their true creation time.
 *
 * Uniqueness across devices rests on the random slot, as in the reference algorithm: two
 * devices that make ids for the same table in the same millisecond collide with odds 1 in ~52.
 */
export function createIdGenerator(options: IdGeneratorOptions = {}): IdGenerator {
  const clock = options.clock ?? Date.now;
  const defaultRandom = options.random ?? Math.random;
  // Last id made per table, as (ms since the epoch, random part); -1 = none yet.
  const lastMs = new Float64Array(MAX_TABLE_ID + 1).fill(-1);
  const lastRandom = new Int16Array(MAX_TABLE_ID + 1);

  return {
    generate(table, callOptions = {}) {
      const tableId = toTableId(table, 'generateId');
      const now = callOptions.now ?? clock();
      checkTime(typeof now === 'number' ? Math.floor(now) : now, 'now', 'generateId');
      const ms = Math.floor(now) - ID_EPOCH;
      const previousMs = lastMs[tableId] as number;
      if (ms > previousMs) {
        const random = randomFromDraw(draw(callOptions.random ?? defaultRandom), ms, tableId);
        return remember(tableId, ms, random);
      }
      // Same millisecond, or the clock went back: continue after the last id of the table.
      const next = (lastRandom[tableId] as number) + 10;
      if (next <= MAX_RANDOM) return remember(tableId, previousMs, next);
      return remember(tableId, previousMs + 1, firstRandom(previousMs + 1, tableId));
    },
  };

  function remember(tableId: number, ms: number, random: number): Id {
    lastMs[tableId] = ms;
    lastRandom[tableId] = random;
    return compose(ms, tableId, random);
  }
}

function draw(random: () => number): number {
  const value = random();
  if (typeof value === 'number' && value >= 0 && value < 1) return value;
  const message = `must return a number in [0, 1), returned ${describeValue(value)}`;
  throw new ValidationError(`generateId: random ${message}`, { issues: [{ path: ['random'], message }] });
}
