import { COLLECTIONS } from '../schema/collections.js';
import type { ExtraIndexes } from './stores.js';
import { SYNC_TABLES } from './table-names.js';

/**
 * The collections' store definitions of schema versions 1 to 8, frozen as those releases declared
 * them: an older database holds these indexes, and the upgrade to version 9 (`buildStores`) drops
 * those no helper or sync step reads by. Never changed: Dexie upgrades a database from what each
 * version declared.
 */
const VERSION_1_COLLECTIONS: Readonly<Record<string, string>> = {
  products: 'id, _v, date_created, id_category, barcode, ean13, sku, name',
  customers: 'id, _v, date_created, email, barcode, lastname',
  product_price_matrix: 'id, _v, date_created, id_product',
  shops: 'id, _v',
  cash_registers: 'id, _v, id_shop',
  employees: 'id, _v, date_created',
  park_locations: 'id, _v, date_created',
  shifts: 'id, _v, date_created',
  stock_history: 'id, _v, date_created, id_stockup, id_warehouse, id_record, [id_warehouse+id_record]',
  stockup: 'id, _v, date_created, id_warehouse',
  transactions: 'id, _v, date_created, id_order, id_customer',
  warehouses: 'id, _v, date_created',
  orders: 'id, _v, date_created, id_cash_register, id_customer, id_shop, id_shift, id_employee, [id_cash_register+date_created]',
  order_details: 'id, _v, date_created, id_order, id_product, id_customer, id_cash_register',
  categories: 'id, _v, id_category_parent',
};

/**
 * The store definitions of schema version 1 (see {@link VERSION_1_COLLECTIONS}), with the app's
 * extra indexes appended as then: one table per collection, `categories` and the sync tables
 * (quarantine rows keyed by an auto-incremented `seq`, re-keyed by record from version 4 on).
 */
export function version1Stores(extra: ExtraIndexes = {}): Record<string, string> {
  const stores: Record<string, string> = {};
  for (const name of [...COLLECTIONS, 'categories'] as const) {
    const declared = VERSION_1_COLLECTIONS[name]!.split(', ');
    stores[name] = [...new Set([...declared, ...(extra[name] ?? [])])].join(', ');
  }
  stores[SYNC_TABLES.checkpoints] = 'collection';
  stores[SYNC_TABLES.quarantine] = '++seq, collection, at';
  stores[SYNC_TABLES.outbox] = '++seq, &[collection+id], collection, state';
  stores[SYNC_TABLES.conflicts] = 'key, collection, at';
  stores[SYNC_TABLES.meta] = 'key';
  return stores;
}
