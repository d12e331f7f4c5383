import type { MirrorDb } from '../../db/mirror-db.js';
import { inTransaction } from '../../db/in-transaction.js';
import type { StoredRecord } from '../../db/sync-rows.js';
import type { CollectionName } from '../../schema/collections.js';
import { edgeOf, isBeforeEdge } from '../pull/edge.js';

/** How far the window's edge moves before records that fell out of it are pruned again: an hour. */
export const PRUNE_INTERVAL_MS = 3_600_000;

/**
 * Deletes the records of `collection` created before `edge` (a time, ms: the history window's
 * edge now), and moves its checkpoint's `historyEdge` there. Due only once the edge has moved
 * {@link PRUNE_INTERVAL_MS} past the last one (so at most hourly), and only for a collection whose
 * first traversal is done under the window. Never deleted: a record with an outbox entry (an edit
 * not yet acknowledged, refused or in conflict) or a conflict row; an order one of whose items is
 * kept so, and every item of an order kept (items go with their orders). Resolves with
 * the number of records deleted.
 */
export async function pruneHistory(db: MirrorDb, collection: CollectionName, edge: number): Promise<number> {
  const row = await db._sync_checkpoints.get(collection);
  if (!row?.initialDone || row.historyEdge === undefined || edge - row.historyEdge < PRUNE_INTERVAL_MS) return 0;
  const edgeId = edgeOf(edge);
  const related: CollectionName | undefined = collection === 'orders' ? 'order_details' : collection === 'order_details' ? 'orders' : undefined;
  const tables = [db.table(collection), ...(related ? [db.table(related)] : []), db._sync_outbox, db._sync_conflicts, db._sync_checkpoints];
  return inTransaction(db, 'rw', tables, async (tx) => {
    const table = tx.table<StoredRecord, string>(collection);
    const keys = (await table.toCollection().primaryKeys()).filter((id) => isBeforeEdge({ id }, edgeId));
    if (keys.length === 0) {
      await tx._sync_checkpoints.update(collection, { historyEdge: edge });
      return 0;
    }
    const [entries, conflicts] = await Promise.all([tx._sync_outbox.toArray(), tx._sync_conflicts.toArray()]);
    const held = (c: CollectionName) => new Set([...entries.filter((e) => e.collection === c).map((e) => e.id), ...conflicts.filter((r) => r.collection === c).map((r) => r.id)]);
    const kept = held(collection);
    if (related) {
      // Items go with their orders: an order is kept while it or one of its items is held, and an
      // order kept keeps all its items (not only the held one), so no order is left in part.
      const [orders, items] = collection === 'orders' ? [kept, held(related)] : [held(related), kept];
      const itemsTable = tx.table<StoredRecord, string>('order_details');
      const heldItems = items.size > 0 ? await itemsTable.bulkGet([...items]) : [];
      for (const item of heldItems) if (item) orders.add(String(item.id_order));
      if (collection === 'order_details' && orders.size > 0) {
        const leaving = await table.bulkGet(keys);
        for (const item of leaving) if (item && orders.has(String(item.id_order))) kept.add(item.id);
      }
    }
    const doomed = keys.filter((id) => !kept.has(id));
    await Promise.all([table.bulkDelete(doomed), tx._sync_checkpoints.update(collection, { historyEdge: edge })]);
    return doomed.length;
  });
}
