/**
 * Id composition as the simulator uses it. Ids follow the spec's formula
 * `((ms_since_epoch * 64 + table_id) * 512) + random`, made a multiple of 10 like the reference
 * algorithm. Tables without a documented table id get a private one here (the service must
 * compose their ids somehow; clients cannot, and must not guess).
 */
import { ID_EPOCH, randomFromDraw } from '../ids/compose-id.js';
import { TABLE_IDS, createIdGenerator, type IdGenerator } from '../ids/index.js';
import type { Id } from '../ids/id.js';
import type { CollectionName } from '../schema/collections.js';
import type { Rng } from './rng.js';

/** Private table ids for the tables the spec gives none; chosen outside the documented ones. */
export const PRIVATE_TABLE_IDS = {
  shops: 40,
  cash_registers: 41,
  park_locations: 42,
  shifts: 43,
  categories: 44,
} as const;

/** A table that has ids: one of the 14 collections or the read-only categories. */
export type SimTable = CollectionName | 'categories';

/** The table id used when the simulator creates a record of `table`. */
export function tableIdOf(table: SimTable): number {
  const documented = (TABLE_IDS as Record<string, number>)[table];
  if (documented !== undefined) return documented;
  const own = (PRIVATE_TABLE_IDS as Record<string, number>)[table];
  if (own === undefined) throw new RangeError(`no table id for ${table}`);
  return own;
}

/**
 * The id for a creation time, table id and random draw in [0, 1), as a bigint (the bulk
 * generator keeps ids as 64-bit keys). The ids layer's epoch and random part (`randomFromDraw`,
 * a multiple of 10 as `generateId` makes), composed here in bigint rather than through the
 * string `compose` returns, so that a million ids can be made without string round trips;
 * tests check that both agree.
 */
export function composeId(ms: number, tableId: number, draw: number): bigint {
  const msSinceEpoch = ms - ID_EPOCH;
  return BigInt(msSinceEpoch) * 32768n + BigInt(tableId * 512 + randomFromDraw(draw, msSinceEpoch, tableId));
}

/**
 * The simulator's own id generator (the shared layer's, with the simulator's clock and seeded
 * draws): one per simulator, so that neither other simulators in the process nor a client's
 * ids move its clock.
 */
export function simIdGenerator(now: () => number, rng: Rng): IdGenerator {
  return createIdGenerator({ clock: now, random: () => rng.next() });
}

/**
 * A fresh id for a record of `table`; `taken` says whether an id is already used (a client may
 * have created it with its own id), in which case the generator's next id is tried.
 */
export function newId(generator: IdGenerator, table: SimTable, taken: (id: Id) => boolean): Id {
  const tableId = tableIdOf(table);
  for (;;) {
    const id = generator.generate(tableId);
    if (!taken(id)) return id;
  }
}
