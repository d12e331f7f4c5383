import type { CollectionName } from '../schema/collections.js';
import { SEARCH_FIELD } from './search-words.js';
import { SYNC_TABLES } from './table-names.js';

/** Extra indexes an app declares per collection, in Dexie's syntax (`'email'`, `'[id_shop+date_created]'`). */
export type ExtraIndexes = Partial<Record<CollectionName | 'categories', readonly string[]>>;

/**
 * The secondary indexes each table has by default (schema version 9 on), in Dexie's syntax. IndexedDB
 * updates every index of a row on every write, so each one is here because a query helper or a
 * step of the sync reads by it (docs/queries.md, "Default indexes", names
 * who), and a compound index stands for its first field too. An app indexes more with the option
 * `indexes`.
 *
 * - `_v` (every collection): the orphan check and the reconcile sweep find local creates the server
 *   never had (`_v` 0).
 * - products: `id_category` (`searchProducts`, the products of the categories a word reaches),
 *   `barcode`, `ean13`, `sku` (`productByCode`), `*__search` (`searchProducts`).
 * - product_price_matrix: `id_product` (`priceOf`).
 * - stock_history: `[id_warehouse+id_record]` (`stockRows`, with or without a product).
 * - orders: `[id_cash_register+date_created]` (`ordersOfRegister`).
 * - order_details: `id_order` (`itemsOfOrder`).
 * - categories: `*__search` (`searchProducts`); the tree is read whole, and never checked for orphans.
 */
export const DEFAULT_INDEXES: { readonly [T in CollectionName | 'categories']: readonly string[] } = {
  products: ['_v', 'id_category', 'barcode', 'ean13', 'sku', `*${SEARCH_FIELD}`],
  customers: ['_v'],
  product_price_matrix: ['_v', 'id_product'],
  shops: ['_v'],
  cash_registers: ['_v'],
  employees: ['_v'],
  park_locations: ['_v'],
  shifts: ['_v'],
  stock_history: ['_v', '[id_warehouse+id_record]'],
  stockup: ['_v'],
  transactions: ['_v'],
  warehouses: ['_v'],
  orders: ['_v', '[id_cash_register+date_created]'],
  order_details: ['_v', 'id_order'],
  categories: [`*${SEARCH_FIELD}`],
};

/**
 * The store definitions of the current schema version (9): one table per collection and
 * `categories` with primary key `id` (an Id string), the {@link DEFAULT_INDEXES} and the app's
 * `extra` ones, and the sync tables whose definitions changed since version 1 (their indexes as
 * lean: the outbox finds a collection's entries by `[collection+id]`, the conflicts are listed by
 * `at`, the quarantine is counted and cleared by `collection`).
 */
export function buildStores(extra: ExtraIndexes = {}): Record<string, string> {
  const stores: Record<string, string> = {};
  for (const [name, indexes] of Object.entries(DEFAULT_INDEXES) as [CollectionName | 'categories', readonly string[]][]) {
    stores[name] = ['id', ...new Set([...indexes, ...(extra[name] ?? [])])].join(', ');
  }
  stores[SYNC_TABLES.quarantine] = 'key, collection';
  stores[SYNC_TABLES.outbox] = '++seq, &[collection+id], state';
  stores[SYNC_TABLES.conflicts] = 'key, at';
  return stores;
}

/** The store definition of `_sync_quarantine` in schema versions 4 to 8: one row per record, keyed by `key`. */
export const QUARANTINE_STORE = 'key, collection, at';

/**
 * The store definition of `_sync_inflight` (schema version 6 on): the write-ahead snapshots of
 * batch POSTs, one row per batch, keyed by an auto-incremented `key` and read whole (the table is
 * empty between pushes), so no other index is paid for.
 */
export const INFLIGHT_STORE = '++key';

/** The table quarantine rows wait in while `_sync_quarantine` changes its primary key (schema versions 2 to 5). */
export const QUARANTINE_MOVING = '_sync_quarantine_moving';
