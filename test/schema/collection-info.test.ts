import { describe, expect, it } from 'vitest';
import { COLLECTIONS, COLLECTION_INFO, schemas } from '../../src/schema/index.js';

/** Table ids from the spec's "Id composition" table. */
const SPEC_TABLE_IDS: Record<string, number> = {
  customers: 2,
  employees: 4,
  order_details: 6,
  orders: 7,
  products: 11,
  product_price_matrix: 12,
  stock_history: 16,
  stockup: 18,
  transactions: 22,
  warehouses: 25,
};

describe('COLLECTION_INFO', () => {
  it('describes exactly the 14 collections, each named and typed after itself', () => {
    expect(Object.keys(COLLECTION_INFO).sort()).toEqual([...COLLECTIONS].sort());
    for (const name of COLLECTIONS) {
      expect(COLLECTION_INFO[name].name).toBe(name);
      expect(COLLECTION_INFO[name]._t).toBe(name);
    }
  });

  it('carries the spec table ids, and marks the rest as create-online-only', () => {
    for (const name of COLLECTIONS) {
      const info = COLLECTION_INFO[name];
      expect(info.tableId, name).toBe(SPEC_TABLE_IDS[name]);
      expect(info.createOnlineOnly, name).toBe(SPEC_TABLE_IDS[name] === undefined);
      expect(info.readOnly, name).toBe(false);
    }
    expect(COLLECTIONS.filter((c) => COLLECTION_INFO[c].createOnlineOnly).sort()).toEqual(
      ['cash_registers', 'park_locations', 'shifts', 'shops'],
    );
  });

  it('traverses orders, transactions and shifts backward, the rest forward', () => {
    const backward = COLLECTIONS.filter((c) => COLLECTION_INFO[c].defaultDirection === 'backward');
    expect(backward.sort()).toEqual(['orders', 'shifts', 'transactions']);
  });

  it('uses limits 100/400, and 250/2000 for orders', () => {
    for (const name of COLLECTIONS) {
      const { defaultLimit, maxLimit } = COLLECTION_INFO[name];
      expect([defaultLimit, maxLimit], name).toEqual(name === 'orders' ? [250, 2000] : [100, 400]);
    }
  });

  it('indexes the relation fields apps query by', () => {
    expect(COLLECTION_INFO.orders.indexes).toEqual(
      expect.arrayContaining(['id_cash_register', 'id_customer', 'id_shop', 'id_shift', 'id_employee', 'date_created']),
    );
    expect(COLLECTION_INFO.order_details.indexes).toEqual(
      expect.arrayContaining(['id_order', 'id_product', 'id_customer', 'id_cash_register']),
    );
    expect(COLLECTION_INFO.products.indexes).toEqual(expect.arrayContaining(['id_category', 'barcode', 'ean13', 'sku', 'name']));
    expect(COLLECTION_INFO.product_price_matrix.indexes).toContain('id_product');
    expect(COLLECTION_INFO.stock_history.indexes).toEqual(expect.arrayContaining(['id_stockup', 'id_warehouse', 'id_record']));
    expect(COLLECTION_INFO.cash_registers.indexes).toContain('id_shop');
  });

  it('indexes only fields the read schema describes or the spec names', () => {
    for (const name of COLLECTIONS) {
      for (const field of COLLECTION_INFO[name].indexes) {
        expect(Object.keys(schemas[name].read.shape), `${name}.${field}`).toContain(field);
      }
    }
  });

  it('says which records carry date_created', () => {
    expect(COLLECTIONS.filter((c) => !COLLECTION_INFO[c].hasDateCreated).sort()).toEqual(['cash_registers', 'shops']);
  });
});
