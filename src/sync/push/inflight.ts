import type { MirrorDb } from '../../db/mirror-db.js';
import type { InflightRow } from '../../db/sync-rows.js';
import type { CollectionName } from '../../schema/collections.js';
import type { OutgoingRecord } from './prepare.js';

/**
 * The write-ahead snapshot of one planned batch, as stored in `_sync_inflight` (see
 * `InflightRow`): one row per batch, written before the first POST of the collection, holding
 * what each element of the POST carries. Whatever settles entries of the batch (acknowledged,
 * refused, unknown outcome) takes them out of the row in its own transaction; the row goes once
 * it is empty.
 */
export interface InflightBatch {
  readonly key: number;
  /** The row as stored: the entries not settled yet. */
  readonly row: InflightRow;
}

/**
 * Writes one in-flight row per batch, in one transaction, before any of them is POSTed: a process
 * that dies after the server applied a POST still leaves what it sent (the next push, or the next
 * opening of the database, folds it into the entries' `sent` snapshots). Returns the batches'
 * handles, in batch order.
 */
export async function writeInflight(db: MirrorDb, collection: CollectionName, batches: readonly (readonly OutgoingRecord[])[]): Promise<InflightBatch[]> {
  const rows: InflightRow[] = batches.map((batch) => ({
    collection,
    entries: batch.map((item) => ({ seq: item.entry.seq, wire: item.wire, v: item.entry.base?._v ?? 0, fields: item.entry.changed })),
  }));
  const keys = await db._sync_inflight.bulkAdd(rows, { allKeys: true });
  return rows.map((row, i) => {
    row.key = keys[i]!;
    return { key: keys[i]!, row };
  });
}

/**
 * Takes settled items out of their batch's row: deletes the row when nothing is left in it, else
 * rewrites it with the rest. Run inside the transaction that settles the items (it must span
 * `_sync_inflight`), so the entries and the row change together.
 */
export async function settleInflight(db: MirrorDb, batch: InflightBatch | undefined, items: readonly OutgoingRecord[]): Promise<void> {
  if (!batch) return;
  const settled = new Set(items.map((i) => i.entry.seq));
  const rest = batch.row.entries.filter((e) => !settled.has(e.seq));
  if (rest.length === batch.row.entries.length) return;
  batch.row.entries = rest;
  if (rest.length === 0) await db._sync_inflight.delete(batch.key);
  else await db._sync_inflight.put(batch.row);
}

/** Deletes the rows of batches that were never POSTed (the push stopped before them). */
export async function dropInflight(db: MirrorDb, batches: readonly InflightBatch[]): Promise<void> {
  if (batches.length === 0) return;
  await db._sync_inflight.bulkDelete(batches.map((b) => b.key));
}
