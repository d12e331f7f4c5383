import type { Table } from 'dexie';
import type { MirrorDb } from '../../db/mirror-db.js';
import type { OutboxEntry, StoredRecord } from '../../db/sync-rows.js';
import { compareIds } from '../../ids/id.js';
import type { CollectionName } from '../../schema/collections.js';
import { HYDRATIONS, splitHydrations, type SplitChild } from './hydrations.js';
import { releaseFromQuarantine } from './quarantine.js';
import { overlay } from '../records/fields.js';

/** What applying a batch of server records did. */
export interface ApplyResult {
  /** Records written to their table (newer than the local copy, or new). */
  written: number;
  /** Records skipped because the local copy is as new or newer. */
  skipped: number;
  /** Records that have a pending local edit: the server state was noted on the outbox entry. */
  deferred: number;
  /** Highest `_v` among the records given (children excluded). */
  maxV: number;
}

/**
 * The tables a transaction applying records of `collection` must include: its table, the child
 * table its hydrations are split into, the outbox, and the quarantine (an applied record leaves it).
 */
export function applyTables(db: MirrorDb, collection: CollectionName | 'categories'): Table[] {
  // The child table its hydrations are split into, if it has one.
  const child = collection === 'categories' ? undefined : HYDRATIONS[collection]?.child;
  const names: string[] = child ? [collection, child] : [collection];
  return [...names.map((n) => db.table(n)), db._sync_outbox, db._sync_quarantine];
}

/**
 * Applies records that came from the server (a pull page, a webhook, a latest-orders poll)
 * to the mirror. Must run inside a read-write transaction over {@link applyTables}.
 *
 * Rules, in the order they are enforced:
 * - a record is written only if its `_v` is newer than the local copy's (so re-reading an
 *   overlap, or a late page, is a no-op);
 * - a record with a pending local edit is not overwritten: the server state is noted on the
 *   outbox entry (`entry.server`) for the push to rebase on, and the table gets the new server
 *   state with the app's changed fields laid on top, so the UI keeps showing the edit;
 * - hydrations are split into their own tables under the same rules;
 * - tombstones (`_d` != 0) are stored like any record and hidden by the query helpers;
 * - a record written (or noted on its outbox entry) leaves the quarantine: its row, if an earlier
 *   version was refused, is deleted (see `releaseFromQuarantine`).
 */
export async function applyServerRecords(
  db: MirrorDb,
  collection: CollectionName | 'categories',
  incoming: readonly StoredRecord[],
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const result: ApplyResult = { written: 0, skipped: 0, deferred: 0, maxV: 0 };
  if (incoming.length === 0) return result;

  const children: SplitChild[] = [];
  const latest = new Map<string, StoredRecord>();
  for (const raw of incoming) {
    const { record, children: split } = splitHydrations(raw);
    children.push(...split);
    if (record._v > result.maxV) result.maxV = record._v;
    const seen = latest.get(record.id);
    if (!seen || record._v > seen._v) latest.set(record.id, record);
  }

  const table = db.table<StoredRecord, string>(collection);
  const records = [...latest.values()];
  const ids = records.map((r) => r.id);
  const locals = options.contiguous ? await localsInRange(table, ids) : await table.bulkGet(ids);
  const entries = collection === 'categories' ? new Map<string, OutboxEntry>() : await outboxEntriesOf(db, collection, ids);

  const toPut: StoredRecord[] = [];
  const toUpdate: OutboxEntry[] = [];
  // The server records taken (written, or noted on their outbox entry).
  const taken: StoredRecord[] = [];
  records.forEach((record, i) => {
    const local = locals[i];
    const entry = entries.get(record.id);
    if (entry) {
      const known = entry.server ?? entry.base;
      if (known && record._v <= known._v) {
        result.skipped++;
        return;
      }
      toUpdate.push({ ...entry, server: record });
      // The new server state with the app's changed fields laid on top.
      toPut.push(local ? overlay(record, local, entry.changed) : record);
      taken.push(record);
      result.deferred++;
      return;
    }
    if (local && record._v <= local._v) {
      result.skipped++;
      return;
    }
    toPut.push(record);
    taken.push(record);
    result.written++;
  });

  if (toPut.length > 0) await table.bulkPut(toPut);
  if (toUpdate.length > 0) await db._sync_outbox.bulkPut(toUpdate);
  await releaseFromQuarantine(db, collection, taken);

  const byCollection = new Map<CollectionName, StoredRecord[]>();
  for (const child of children) {
    const list = byCollection.get(child.collection) ?? [];
    list.push(child.record);
    byCollection.set(child.collection, list);
  }
  for (const [child, list] of byCollection) await applyServerRecords(db, child, list);
  return result;
}

/** Options of {@link applyServerRecords}. */
export interface ApplyOptions {
  /**
   * The records are every server record in their id range (a page of a traversal without a
   * version filter). The local copies are then read with one key-range query instead of a
   * lookup per id, which costs next to nothing on a first sync, where the range is empty.
   */
  contiguous?: boolean;
}

/**
 * Local copies of `ids` read as one primary-key range. IndexedDB orders string keys code unit by
 * code unit, which is numeric order only between ids of the same length: other ranges fall back
 * to a lookup per id.
 */
async function localsInRange(table: Table<StoredRecord, string>, ids: string[]): Promise<(StoredRecord | undefined)[]> {
  let min = ids[0]!;
  let max = ids[0]!;
  for (const id of ids) {
    if (compareIds(id, min) < 0) min = id;
    if (compareIds(id, max) > 0) max = id;
  }
  if (min.length !== max.length) return table.bulkGet(ids);
  const found = new Map<string, StoredRecord>();
  for (const record of await table.where(':id').between(min, max, true, true).toArray()) found.set(record.id, record);
  return ids.map((id) => found.get(id));
}

/** The outbox entries of the records `ids` of `collection`, in any state, by record id. */
async function outboxEntriesOf(db: MirrorDb, collection: CollectionName, ids: string[]): Promise<Map<string, OutboxEntry>> {
  const found = new Map<string, OutboxEntry>();
  // Most pages meet an empty outbox: one cheap count instead of a lookup per record.
  if ((await db._sync_outbox.where('collection').equals(collection).count()) === 0) return found;
  const rows = await db._sync_outbox.where('[collection+id]').anyOf(ids.map((id) => [collection, id])).toArray();
  for (const row of rows) found.set(row.id, row);
  return found;
}
