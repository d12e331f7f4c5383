import type { Table } from 'dexie';
import { conflictKey } from '../../db/conflict-key.js';
import { META_KEYS } from '../../db/meta-keys.js';
import type { MirrorDb } from '../../db/mirror-db.js';
import type { MovedCreate, OutboxEntry, StoredRecord } from '../../db/sync-rows.js';
import type { Id } from '../../ids/id.js';
import { generateId } from '../../ids/index.js';
import { COLLECTIONS, type CollectionName } from '../../schema/collections.js';
import { COLLECTION_INFO } from '../../schema/index.js';
import { checkEntry, knownServerState, type CheckOutcome } from '../conflicts/conflict-check.js';
import { readSent } from '../outbox/outbox-sent.js';
import { mayReference } from '../records/relations.js';
import { inTransaction } from '../../db/in-transaction.js';

/** How many of the latest moves the database keeps for the status. */
export const MOVED_CREATES_KEPT = 20;

/**
 * True when a pending entry is a create that meets another record under its id: the id was
 * generated here (`minted`), no POST has carried it (no `sent` snapshot: a write-ahead row of a
 * POST, answered or not, and one a dead process left, becomes one before the check), and the
 * check found the server holding different values under it (a conflict of a create). Such a
 * record cannot be this device's: two devices drew the same id. A create that did go out and
 * whose answer was lost is not one: the server's record is most likely its own, and it stays an
 * ordinary conflict (or is acknowledged when the values match).
 */
export function isIdCollision(entry: OutboxEntry, outcome: CheckOutcome | undefined): boolean {
  return outcome?.kind === 'conflict' && entry.minted === true && entry.base === null && entry.op !== 'update' && readSent(entry) === undefined;
}

/**
 * Moves each colliding create of `collection` (outbox entries by `seq`, see {@link isIdCollision})
 * to a fresh id, in one transaction over every table, so nothing is half-moved when it fails:
 * - the record goes to the fresh id with the fields the app set (what the server holds under the
 *   old id is another device's), and its entry follows, still a create, with no server state;
 * - the table keeps the other device's record under the old id, as the server has it;
 * - every pending edit that points at the old id (an order's items, a stock-up's stock rows, any
 *   `id_*` field an edit set to it) points at the fresh one, in its record and its conflict row.
 *   Records the server sent that point at the old id are the other device's and stay as they are.
 * Each entry is checked again inside the transaction (an edit may have come in between). The
 * moves are added to the latest ones kept for the status, and returned.
 */
export async function moveCollidingCreates(db: MirrorDb, collection: CollectionName, seqs: readonly number[], now: number): Promise<MovedCreate[]> {
  if (seqs.length === 0) return [];
  const tables = [...COLLECTIONS.map((c) => db.collection(c)), db._sync_outbox, db._sync_conflicts, db._sync_inflight, db._sync_meta];
  return inTransaction(db, 'rw', tables, async (db) => {
    const table = db.collection(collection);
    const carried = await seqsInFlight(db);
    const moves: MovedCreate[] = [];
    for (const entry of await db._sync_outbox.bulkGet([...seqs])) {
      if (!entry || entry.seq === undefined || entry.state !== 'pending' || carried.has(entry.seq)) continue;
      const local = await table.get(entry.id);
      const server = local && knownServerState(entry, local);
      if (!local || !server || !isIdCollision(entry, checkEntry(entry, local, server, 'merge'))) continue;
      const to = await freshId(table, collection, now);
      await table.put(server);
      await table.put(movedRecord(collection, entry, local, to));
      await db._sync_outbox.put({ ...entry, id: to, server: null, localVersion: entry.localVersion + 1 });
      await repointEdits(db, collection, entry.id, to, entry.seq);
      moves.push({ collection, from: entry.id, to, at: now });
    }
    if (moves.length > 0) {
      const kept = ((await db._sync_meta.get(META_KEYS.movedCreates))?.value as MovedCreate[] | undefined) ?? [];
      await db._sync_meta.put({ key: META_KEYS.movedCreates, value: [...kept, ...moves].slice(-MOVED_CREATES_KEPT) });
    }
    return moves;
  });
}

/** The latest creates moved to a fresh id (see {@link moveCollidingCreates}), oldest first. */
export async function readMovedCreates(db: MirrorDb): Promise<MovedCreate[]> {
  const value = (await db._sync_meta.get(META_KEYS.movedCreates))?.value;
  return Array.isArray(value) ? (value as MovedCreate[]) : [];
}

/** Outbox entries named by a write-ahead row: a POST may be carrying them. */
async function seqsInFlight(db: MirrorDb): Promise<Set<number>> {
  const rows = await db._sync_inflight.toArray();
  return new Set(rows.flatMap((row) => row.entries.map((e) => e.seq)));
}

/** An id the mirror has no record under, from the collection's table id (a minted create's collection has one). */
async function freshId(table: Table<StoredRecord, string>, collection: CollectionName, now: number): Promise<Id> {
  const tableId = COLLECTION_INFO[collection].tableId!;
  let id = generateId(tableId, { now });
  while ((await table.get(id)) !== undefined) id = generateId(tableId, { now });
  return id;
}

/**
 * The app's record under its fresh id: the fields it set (a pull laid them on the other device's
 * record under the old id), nothing of the other record, and a reference to itself moved too.
 */
function movedRecord(collection: CollectionName, entry: OutboxEntry, local: StoredRecord, to: Id): StoredRecord {
  const record: StoredRecord = { id: to, _v: 0 };
  if (local._t !== undefined) record._t = local._t;
  for (const field of entry.changed) {
    const value = local[field];
    if (value === undefined) continue;
    record[field] = value === entry.id && mayReference(collection, field, collection) ? to : value;
  }
  return record;
}

/**
 * Points every pending edit that refers to `from` (a record of `collection`) at `to`: the fields
 * an edit set (every field of a create) that may reference `collection` and hold `from`. Only
 * those: a field the edit did not set shows the server's value, which names the other record.
 */
async function repointEdits(db: MirrorDb, collection: CollectionName, from: Id, to: Id, own: number): Promise<void> {
  const entries = (await db._sync_outbox.toArray()).filter((e) => e.seq !== own && e.changed.some((f) => mayReference(e.collection, f, collection)));
  for (const entry of entries) {
    const table = db.collection(entry.collection);
    const record = await table.get(entry.id);
    if (!record) continue;
    const fields = entry.changed.filter((f) => record[f] === from && mayReference(entry.collection, f, collection));
    if (fields.length === 0) continue;
    const moved: StoredRecord = { ...record };
    for (const field of fields) moved[field] = to;
    await table.put(moved);
    await db._sync_outbox.put({ ...entry, localVersion: entry.localVersion + 1 });
    // A conflict row shows the record as the app now has it.
    if (entry.state === 'conflict') await db._sync_conflicts.update(conflictKey(entry.collection, entry.id), { local: moved });
  }
}
