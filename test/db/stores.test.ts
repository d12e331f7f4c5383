import { describe, expect, it } from 'vitest';
import { buildStores, DEFAULT_INDEXES } from '../../src/db/stores.js';
import { COLLECTIONS } from '../../src/schema/collections.js';
import { schemas } from '../../src/schema/index.js';

/** The secondary indexes of a Dexie store definition (all but its primary key). */
function secondary(definition: string): string[] {
  return definition.split(',').map((s) => s.trim()).slice(1);
}

/** Whether `index` is a compound index whose first field is `field`. */
function startsWith(index: string, field: string): boolean {
  return index.startsWith(`[${field}+`);
}

describe('buildStores', () => {
  it('declares on each table only the indexes a query helper or the sync reads by (docs/queries.md names who)', () => {
    const stores = buildStores();
    expect(secondary(stores.orders!)).toEqual(['_v', '[id_cash_register+date_created]']);
    expect(secondary(stores.order_details!)).toEqual(['_v', 'id_order']);
    expect(secondary(stores.products!)).toEqual(['_v', 'id_category', 'barcode', 'ean13', 'sku', '*__search']);
    expect(secondary(stores.product_price_matrix!)).toEqual(['_v', 'id_product']);
    expect(secondary(stores.stock_history!)).toEqual(['_v', '[id_warehouse+id_record]']);
    expect(secondary(stores.categories!)).toEqual(['*__search']);
    for (const name of ['customers', 'shops', 'cash_registers', 'employees', 'park_locations', 'shifts', 'stockup', 'transactions', 'warehouses'] as const) {
      expect(secondary(stores[name]!), name).toEqual(['_v']);
    }
    expect(stores._sync_outbox).toBe('++seq, &[collection+id], state');
    expect(stores._sync_conflicts).toBe('key, at');
    expect(stores._sync_quarantine).toBe('key, collection');
  });

  it('keeps no single index beside a compound one that starts with it: the compound serves its prefix', () => {
    for (const [table, definition] of Object.entries(buildStores())) {
      const indexes = secondary(definition).map((s) => s.replace(/^[&*]/, ''));
      for (const field of indexes.filter((i) => !i.startsWith('['))) {
        expect(indexes.some((i) => startsWith(i, field)), `${table}.${field}`).toBe(false);
      }
    }
  });

  it('describes every collection and the categories in DEFAULT_INDEXES, the source of the definitions', () => {
    expect(Object.keys(DEFAULT_INDEXES).sort()).toEqual([...COLLECTIONS, 'categories'].sort());
    const stores = buildStores();
    for (const [table, indexes] of Object.entries(DEFAULT_INDEXES)) expect(secondary(stores[table]!), table).toEqual(indexes);
  });

  it('indexes only fields the read schema describes (or the search words the database adds)', () => {
    for (const name of COLLECTIONS) {
      const fields = DEFAULT_INDEXES[name].flatMap((index) => index.replace(/^[&*]/, '').replace(/^\[|\]$/g, '').split('+'));
      for (const field of fields.filter((f) => f !== '__search')) expect(Object.keys(schemas[name].read.shape), `${name}.${field}`).toContain(field);
    }
  });

  it('adds the indexes an app declares (option `indexes`) after the defaults, once each', () => {
    const stores = buildStores({ customers: ['email', '[lastname+firstname]'], stock_history: ['id_stockup', '_v'], categories: ['id_category_parent'] });
    expect(stores.customers).toBe('id, _v, email, [lastname+firstname]');
    expect(stores.stock_history).toBe('id, _v, [id_warehouse+id_record], id_stockup');
    expect(stores.categories).toBe('id, *__search, id_category_parent');
  });
});
