/**
 * A mirror's database as the previous release left it: schema version 6 (Dexie; IndexedDB version
 * 60), before products were indexed by their search words (version 7). The store definitions are
 * frozen here as that release declared them, so the upgrade is always tested from what is really
 * out there, whatever the current ones become.
 */
import { Dexie } from 'dexie';

/** The stores of schema version 6, as the release before version 7 declared them. */
export const VERSION_6_STORES: Readonly<Record<string, string>> = {
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
  _sync_checkpoints: 'collection',
  _sync_quarantine: 'key, collection, at',
  _sync_outbox: '++seq, &[collection+id], collection, state',
  _sync_conflicts: 'key, collection, at',
  _sync_meta: 'key',
  _sync_inflight: '++key',
};

/**
 * Creates database `name` at schema version 6 and fills its tables with `rows` (table name to rows,
 * outbox entries included), as a tab of the previous release would have left it; then closes it.
 */
export async function createVersion6Database(name: string, rows: Record<string, object[]>): Promise<number> {
  const db = new Dexie(name);
  db.version(6).stores(VERSION_6_STORES);
  await db.open();
  try {
    await db.transaction('rw', Object.keys(rows), async () => {
      for (const [table, list] of Object.entries(rows)) await db.table(table).bulkAdd(list);
    });
    return db.backendDB().version;
  } finally {
    db.close();
  }
}
