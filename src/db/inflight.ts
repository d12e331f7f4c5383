import type { Table } from 'dexie';
import type { CollectionName } from '../schema/collections.js';
import type { InflightEntry, InflightRow, OutboxEntry, SentSnapshot } from './sync-rows.js';

/**
 * The write-ahead rows of the push, table `_sync_inflight` (see {@link InflightRow}), from the
 * write before the first POST to the fold of a row a dead process left behind: one row per batch,
 * holding what each element of the POST carries. Whatever settles entries of the batch
 * (acknowledged, refused, unknown outcome) takes them out of the row in its own transaction; the
 * row goes once it is empty.
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
export async function writeInflight(inflight: Table<InflightRow, number>, collection: CollectionName, batches: readonly (readonly InflightEntry[])[]): Promise<InflightBatch[]> {
  const rows: InflightRow[] = batches.map((entries) => ({ collection, entries: [...entries] }));
  const keys = await inflight.bulkAdd(rows, { allKeys: true });
  return rows.map((row, i) => {
    row.key = keys[i]!;
    return { key: keys[i]!, row };
  });
}

/**
 * Takes the settled entries (by `seq`) out of their batch's row: deletes the row when nothing is
 * left in it, else rewrites it with the rest. Run inside the transaction that settles the
 * entries (it must span `_sync_inflight`), so the entries and the row change together.
 */
export async function settleInflight(inflight: Table<InflightRow, number>, batch: InflightBatch | undefined, seqs: readonly number[]): Promise<void> {
  if (!batch) return;
  const settled = new Set(seqs);
  const rest = batch.row.entries.filter((e) => !settled.has(e.seq));
  if (rest.length === batch.row.entries.length) return;
  batch.row.entries = rest;
  if (rest.length === 0) await inflight.delete(batch.key);
  else await inflight.put(batch.row);
}

/** Deletes the rows of batches that were never POSTed (the push stopped before them). */
export async function dropInflight(inflight: Table<InflightRow, number>, batches: readonly InflightBatch[]): Promise<void> {
  if (batches.length === 0) return;
  await inflight.bulkDelete(batches.map((b) => b.key));
}

/**
 * Folds in-flight rows left behind (a process that died between a POST and the handling of its
 * answer) into their entries' `sent` snapshots, and deletes them. Run inside a transaction over
 * both tables. Only the rows of `collection` when one is given. Entries gone since are skipped;
 * of two rows naming one entry, the later (higher key) wins. Returns how many rows were folded.
 */
export async function foldInflightRows(
  outbox: Table<OutboxEntry, number>,
  inflight: Table<InflightRow, number>,
  collection?: string,
): Promise<number> {
  // The table is empty between pushes: reading it whole is one cheap request.
  const rows = (await inflight.toArray()).filter((r) => collection === undefined || r.collection === collection);
  if (rows.length === 0) return 0;
  const snapshots = new Map<number, SentSnapshot>();
  for (const row of rows) {
    for (const e of row.entries) snapshots.set(e.seq, { record: { ...e.wire, _v: e.v }, fields: [...e.fields] });
  }
  const seqs = [...snapshots.keys()];
  const entries = await outbox.bulkGet(seqs);
  const puts: OutboxEntry[] = [];
  entries.forEach((entry, i) => {
    if (entry) puts.push({ ...entry, sent: snapshots.get(seqs[i]!) });
  });
  if (puts.length > 0) await outbox.bulkPut(puts);
  await inflight.bulkDelete(rows.map((r) => r.key!));
  return rows.length;
}
