/**
 * RxDB's pull handler for a collection of the service: one page per call over the same HTTP
 * endpoint and the same strict reading as the naive loop, with the service's `_v` delta as the
 * checkpoint (within a traversal, the page cursor in the same `version_start`; at its end, the next
 * `version_start` past the highest `_v` seen). Not a benchmark itself.
 */
import type { StoredRecord } from '../../src/db/sync-rows.js';
import type { Id } from '../../src/ids/id.js';
import type { CollectionName } from '../../src/schema/collections.js';
import { isTombstone } from '../../src/sync/records/tombstone.js';
import type { Server } from './job.js';
import { fetchStrictPage } from './strict-page.js';

/** A record as RxDB holds it: the service's fields, and RxDB's deletion flag. */
export type RxRecord = StoredRecord & { _deleted: boolean };

/** Where a pull stands. */
export interface PullCheckpoint {
  /** `version_start` of the traversal under way (or of the next one). */
  versionStart: number;
  /** Id of the last record pulled in the traversal under way; absent between traversals. */
  idStart?: Id;
  /** Highest `_v` seen in the traversal under way. */
  maxV: number;
}

/**
 * The next batch after `checkpoint`. RxDB stops pulling on a batch shorter than `batchSize`, which
 * is the service's own end of traversal (a short page). A page with records the read face refused
 * would also be short and end the pull early: the benchmark checks every record arrived.
 */
export async function pullPage(
  server: Server,
  collection: CollectionName,
  checkpoint: PullCheckpoint | undefined | null,
  batchSize: number,
): Promise<{ documents: RxRecord[]; checkpoint: PullCheckpoint }> {
  const versionStart = checkpoint?.versionStart ?? 0;
  const page = await fetchStrictPage(server, collection, { versionStart, idStart: checkpoint?.idStart, limit: batchSize });
  let maxV = checkpoint?.maxV ?? 0;
  const documents = page.records.map((record) => {
    if (record._v > maxV) maxV = record._v;
    return toRxRecord(collection, record);
  });
  const next: PullCheckpoint =
    page.done || page.cursor === undefined ? { versionStart: Math.max(versionStart, maxV + 1), maxV: 0 } : { versionStart, idStart: page.cursor, maxV };
  return { documents, checkpoint: next };
}

/**
 * A record for RxDB: deleted when the service says so (`_d`, or a product's `visible` false), and
 * without hydrations (`__` fields such as a product's `__price_matrix_model`, whose rows come
 * through their own collection anyway): RxDB's Dexie storage reads a key starting with `__` back
 * as `|...` (its key-compression escape).
 */
function toRxRecord(collection: CollectionName, record: StoredRecord): RxRecord {
  const out: Record<string, unknown> = {};
  for (const key in record) if (!key.startsWith('__')) out[key] = record[key];
  out._deleted = isTombstone(collection, record);
  return out as RxRecord;
}
