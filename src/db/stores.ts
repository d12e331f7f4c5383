import { COLLECTION_INFO } from '../schema/index.js';
import { COLLECTIONS, type CollectionName } from '../schema/collections.js';
import { SYNC_TABLES } from './table-names.js';

/** Extra indexes an app declares per collection, in Dexie's syntax (`'email'`, `'[id_shop+date_created]'`). */
export type ExtraIndexes = Partial<Record<CollectionName | 'categories', readonly string[]>>;

/**
 * Compound indexes the query helpers and examples need. Each index is paid for on every
 * write (IndexedDB updates every index of a row), so only what a helper queries is here.
 */
const COMPOUND_INDEXES: Partial<Record<CollectionName, readonly string[]>> = {
  orders: ['[id_cash_register+date_created]'],
  stock_history: ['[id_warehouse+id_record]'],
};

/**
 * The Dexie store definitions of version 1: one table per collection with primary key `id`
 * (an Id string), `_v`, `date_created` where the collection has it and the relation fields of
 * the schema registry; `categories` flattened with its parent indexed; and the sync tables.
 */
export function buildStores(extra: ExtraIndexes = {}): Record<string, string> {
  const stores: Record<string, string> = {};
  for (const name of COLLECTIONS) {
    const info = COLLECTION_INFO[name];
    const indexes = new Set<string>(['_v']);
    if (info.hasDateCreated) indexes.add('date_created');
    for (const field of info.indexes) indexes.add(field);
    for (const field of COMPOUND_INDEXES[name] ?? []) indexes.add(field);
    for (const field of extra[name] ?? []) indexes.add(field);
    stores[name] = ['id', ...indexes].join(', ');
  }
  stores.categories = ['id', '_v', 'id_category_parent', ...(extra.categories ?? [])].join(', ');
  stores[SYNC_TABLES.checkpoints] = 'collection';
  // Version 1 keyed quarantine rows by an auto-incremented `seq`; later versions key them by record.
  stores[SYNC_TABLES.quarantine] = '++seq, collection, at';
  stores[SYNC_TABLES.outbox] = '++seq, &[collection+id], collection, state';
  stores[SYNC_TABLES.conflicts] = 'key, collection, at';
  stores[SYNC_TABLES.meta] = 'key';
  return stores;
}

/** The store definition of `_sync_quarantine` from schema version 4 on: one row per record, keyed by `key`. */
export const QUARANTINE_STORE = 'key, collection, at';

/**
 * The store definition of `_sync_inflight` (schema version 6 on): the write-ahead snapshots of
 * batch POSTs, one row per batch, keyed by an auto-incremented `key` and read whole (the table is
 * empty between pushes), so no other index is paid for.
 */
export const INFLIGHT_STORE = '++key';

/** The table quarantine rows wait in while `_sync_quarantine` changes its primary key (schema versions 2 to 5). */
export const QUARANTINE_MOVING = '_sync_quarantine_moving';
