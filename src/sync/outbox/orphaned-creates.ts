import { META_KEYS } from '../../db/meta-keys.js';
import { quarantineKey } from '../../db/quarantine-key.js';
import type { MirrorDb } from '../../db/mirror-db.js';
import type { OrphanedCreate, OrphanedCreates, OutboxEntry } from '../../db/sync-rows.js';
import { writesTogether } from '../../db/writes-together.js';
import { inTransaction } from '../../db/in-transaction.js';
import type { Id } from '../../ids/id.js';
import type { CollectionName } from '../../schema/collections.js';
import { isMetaField } from '../records/fields.js';
import { isTombstone } from '../records/tombstone.js';
import { foldEdit } from './outbox-entry.js';

/** How many of the latest orphaned creates the database keeps for the status. */
export const ORPHANED_CREATES_KEPT = 20;

/** A record of a collection, by id. */
export interface RecordRef {
  collection: CollectionName;
  id: Id;
}

/**
 * The records of `collections` that look like local creates no push will send: `_v` 0 (the
 * server never gave them a version the mirror has seen) and no outbox entry in any state. A
 * create the server has just acknowledged looks so too until a pull brings the server's copy:
 * the caller tells the two apart (see `checkOrphanedCreates` and the reconcile sweep).
 */
export async function findUnsentCreates(db: MirrorDb, collections: readonly CollectionName[]): Promise<RecordRef[]> {
  const found: RecordRef[] = [];
  for (const collection of collections) {
    const ids = await db.collection(collection).where('_v').equals(0).primaryKeys();
    if (ids.length === 0) continue;
    const entries = await db._sync_outbox.where('[collection+id]').anyOf(ids.map((id) => [collection, id])).toArray();
    const queued = new Set(entries.map((e) => e.id));
    // A server copy the read schema refused is still the server's: that create landed.
    const held = await db._sync_quarantine.bulkGet(ids.map((id) => quarantineKey(collection, id, undefined)));
    ids.forEach((id, i) => {
      if (!queued.has(id) && !held[i]) found.push({ collection, id });
    });
  }
  return found;
}

/**
 * Queues each record again as a create under its own id (every field it holds counts as
 * changed), in one transaction, and adds them to the ones kept for the status. A record that
 * meanwhile got an entry, a version from the server, or left its table is skipped. Not marked
 * `minted`: if the server turns out to hold its id after all, the push compares the two and
 * acknowledges it (same values) or shows a conflict, never overwrites another record.
 */
export async function requeueCreates(db: MirrorDb, refs: readonly RecordRef[], now: number): Promise<OrphanedCreate[]> {
  if (refs.length === 0) return [];
  const tables = [...new Set(refs.map((r) => r.collection))].map((c) => db.collection(c));
  return inTransaction(db, 'rw', [...tables, db._sync_outbox, db._sync_meta], async (db) => {
    const requeued: OrphanedCreate[] = [];
    const entries: OutboxEntry[] = [];
    for (const { collection, id } of refs) {
      const record = await db.collection(collection).get(id);
      if (!record || record._v !== 0) continue;
      if ((await db._sync_outbox.where('[collection+id]').equals([collection, id]).count()) > 0) continue;
      const tombstone = isTombstone(collection, record);
      const changed = Object.keys(record).filter((f) => !isMetaField(f) && record[f] !== undefined);
      entries.push(foldEdit(undefined, { collection, id, op: tombstone ? 'delete' : 'create', changed, before: null, tombstone, at: now }));
      requeued.push({ collection, id, at: now });
    }
    if (requeued.length === 0) return [];
    const kept = await readOrphanedCreates(db);
    const value: OrphanedCreates = { total: kept.total + requeued.length, latest: [...kept.latest, ...requeued].slice(-ORPHANED_CREATES_KEPT) };
    // Together: the entries and their report go as one.
    await writesTogether([db._sync_outbox.bulkAdd(entries), db._sync_meta.put({ key: META_KEYS.orphanedCreates, value })]);
    return requeued;
  });
}

/** The orphaned creates found so far (see {@link requeueCreates}). */
export async function readOrphanedCreates(db: MirrorDb): Promise<OrphanedCreates> {
  const value = (await db._sync_meta.get(META_KEYS.orphanedCreates))?.value as Partial<OrphanedCreates> | undefined;
  return { total: typeof value?.total === 'number' ? value.total : 0, latest: Array.isArray(value?.latest) ? value.latest : [] };
}
