import { compose, ID_EPOCH } from '../../ids/compose-id.js';
import { compareIds, type Id } from '../../ids/id.js';
import type { StoredRecord } from '../../db/sync-rows.js';

/** One day in ms: the unit of a sync group's `days` and of the history window. */
export const DAY_MS = 86_400_000;

/**
 * The id edge of a time: the lowest id a record created at or after `time` can have (spec: "Id
 * composition", the time in the high bits, table id and random part 0). Ids are time-based, so a
 * record whose id is below it was created before `time`, whatever its table. A time before the
 * ids' epoch gives `"0"`, below every id.
 */
export function edgeOf(time: number): Id {
  return time <= ID_EPOCH ? '0' : compose(Math.floor(time) - ID_EPOCH, 0, 0);
}

/** True when `record` was created before the edge (its id is below `edge`). */
export function isBeforeEdge(record: Pick<StoredRecord, 'id'>, edge: Id): boolean {
  return compareIds(record.id, edge) < 0;
}

/**
 * The records of a backward traversal's pages (newest first) that are at or after `edge`, page by
 * page, and whether the edge was reached: a page held a record below it. The pages after that one
 * are older still, and left out whole.
 */
export function cutAtEdge(pages: readonly (readonly StoredRecord[])[], edge: Id): { kept: StoredRecord[][]; reached: boolean } {
  const kept: StoredRecord[][] = [];
  for (const page of pages) {
    const newer = page.filter((record) => !isBeforeEdge(record, edge));
    kept.push(newer);
    if (newer.length < page.length) return { kept, reached: true };
  }
  return { kept, reached: false };
}
