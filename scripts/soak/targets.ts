/**
 * Which record an operation touches: the live records of a collection in id order, the first
 * {@link HOT_RECORDS} of them the hot ones everyone edits (so writers meet on the same records),
 * the rest picked at random (and the only ones deleted, so the hot ones stay).
 */
import { compareIds } from '../../src/ids/id.js';
import type { CollectionName } from '../../src/schema/collections.js';
import { isTombstone } from '../../src/sync/records/index.js';
import type { StoredRecord } from '../../src/db/sync-rows.js';
import { HOT_RECORDS } from './soak-fields.js';

/** The live records among `records`, in id order. */
export function liveRecords<R extends Record<string, unknown>>(collection: CollectionName, records: readonly R[]): R[] {
  return records.filter((r) => !isTombstone(collection, r as unknown as StoredRecord)).sort((a, b) => compareIds(String(a.id), String(b.id)));
}

/** The record at `pick` (0..1) among the hot records (`hot`) or the others; undefined when there is none. */
export function pickTarget<R>(live: readonly R[], hot: boolean, pick: number): R | undefined {
  const pool = hot || live.length <= HOT_RECORDS ? live.slice(0, HOT_RECORDS) : live.slice(HOT_RECORDS);
  return pool.length === 0 ? undefined : pool[Math.min(pool.length - 1, Math.floor(pick * pool.length))];
}

/** A record at `pick` (0..1) of a non-empty list, or undefined. */
export function pickAny<R>(records: readonly R[], pick: number): R | undefined {
  return records.length === 0 ? undefined : records[Math.min(records.length - 1, Math.floor(pick * records.length))];
}
