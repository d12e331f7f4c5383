import { describe, expect, it } from 'vitest';
import { COLLECTIONS, COLLECTION_INFO } from '../../src/schema/index.js';

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

  it('says which records carry date_created', () => {
    expect(COLLECTIONS.filter((c) => !COLLECTION_INFO[c].hasDateCreated).sort()).toEqual(['cash_registers', 'shops']);
  });
});
