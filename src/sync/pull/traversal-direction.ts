import type { CheckpointRow, TraversalCursor } from '../../db/sync-rows.js';
import type { CollectionName } from '../../schema/collections.js';
import type { TraversalQuery } from '../sync-client.js';

/** The order of a traversal (spec: Pagination): `forward` oldest first, `backward` newest first. */
export type TraversalDirection = TraversalQuery['direction'];

/**
 * The collections whose first full traversal (`version_start` 0) runs `backward`, newest first:
 * the history group of `DEFAULT_SYNC_GROUPS` (orders, their items, transactions, shifts,
 * stock-ups, stock history). A new tablet's first sync then has today's sales, and the stock moves
 * of today, in the mirror within the first pages of each of them, not at the end of years of
 * history. The catalogue and the reference collections stay `forward`: a person needs all of them,
 * in no particular order, before a sale. Delta traversals are always `forward`.
 *
 * The checkpoint rule does not depend on the direction (see `nextCheckpoint`), and an interrupted
 * traversal resumes in the direction its cursor recorded (see {@link resumedDirection}).
 */
export const NEWEST_FIRST: ReadonlySet<CollectionName> = new Set<CollectionName>(['orders', 'order_details', 'transactions', 'shifts', 'stockup', 'stock_history']);

/**
 * The direction of a new traversal of `collection` from `versionStart`: `backward` for the first
 * full traversal of a {@link NEWEST_FIRST} collection, `forward` for every other (a delta reads few
 * records, and its order does not matter to anyone).
 */
export function traversalDirection(collection: CollectionName, versionStart: number): TraversalDirection {
  return versionStart === 0 && NEWEST_FIRST.has(collection) ? 'backward' : 'forward';
}

/**
 * The direction an interrupted traversal resumes in: the one its cursor recorded, never another
 * (spec: Pagination rule 4, a changed direction skips or repeats records). A cursor saved before
 * cursors recorded one (`direction` absent) is of a `forward` traversal: every traversal was.
 */
export function resumedDirection(cursor: TraversalCursor): TraversalDirection {
  return cursor.direction ?? 'forward';
}

/**
 * The interrupted traversal a checkpoint row holds, if any: its `forward` one (`cursor`, as every
 * release wrote it), else its `backward` one (`backwardCursor`). A row can hold both only when a
 * tab of an earlier release ran beside this one; either is a whole traversal from its own start,
 * so resuming either one misses nothing.
 */
export function savedCursor(row: Pick<CheckpointRow, 'cursor' | 'backwardCursor'> | undefined): TraversalCursor | undefined {
  return row?.cursor ?? row?.backwardCursor;
}

/**
 * The row with `cursor` saved as the traversal under way, in the field of its direction (see
 * `CheckpointRow.backwardCursor`), the other one cleared: once this release writes a cursor, the
 * row holds one traversal. `undefined` clears both (a traversal completed).
 */
export function withCursor<R extends CheckpointRow>(row: R, cursor: TraversalCursor | undefined): R {
  if (cursor === undefined) return { ...row, cursor: undefined, backwardCursor: undefined };
  return resumedDirection(cursor) === 'backward' ? { ...row, cursor: undefined, backwardCursor: cursor } : { ...row, cursor, backwardCursor: undefined };
}
