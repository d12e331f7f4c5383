/**
 * The stores of schema version 8 as that release declared them (IndexedDB version 80), frozen here
 * so that the upgrade is tested from what databases out there hold, whatever the current ones become.
 */
export const VERSION_8_STORES: Readonly<Record<string, string>> = {
  products: 'id, _v, date_created, id_category, barcode, ean13, sku, name, *__search',
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
  categories: 'id, _v, id_category_parent, *__search',
  _sync_checkpoints: 'collection',
  _sync_quarantine: 'key, collection, at',
  _sync_outbox: '++seq, &[collection+id], collection, state',
  _sync_conflicts: 'key, collection, at',
  _sync_meta: 'key',
  _sync_inflight: '++key',
};
