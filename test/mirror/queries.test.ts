import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { MirrorDb } from '../../src/db/mirror-db.js';
import type { StoredRecord } from '../../src/db/sync-rows.js';
import { createQueries, isLive } from '../../src/mirror/queries.js';

const record = (fields: Partial<StoredRecord> & { _t: string }): StoredRecord => ({ id: '10', _v: 1, _d: 0, ...fields }) as StoredRecord;

describe('isLive', () => {
  it('is false for a record with _d set, in any collection', () => {
    for (const _t of ['products', 'orders', 'categories', 'shops']) {
      expect(isLive(record({ _t }))).toBe(true);
      expect(isLive(record({ _t, _d: 1_700_000_000_000 }))).toBe(false);
    }
  });

  it('takes visible false for a deletion only on products, as the spec says', () => {
    expect(isLive(record({ _t: 'products', visible: false }))).toBe(false);
    for (const _t of ['categories', 'shops', 'cash_registers', 'employees', 'warehouses']) expect(isLive(record({ _t, visible: false })), _t).toBe(true);
  });
});

describe('query helpers over a database', () => {
  async function dbWith(tables: Partial<Record<'products' | 'categories', StoredRecord[]>>) {
    const db = new MirrorDb(`queries-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.open();
    for (const [table, rows] of Object.entries(tables)) await db.table(table).bulkPut(rows);
    return db;
  }
  const product = (id: string, name: string, extra: Partial<StoredRecord> = {}) => record({ _t: 'products', id, name, visible: true, ...extra });

  it('searchProducts: up to limit live products, however many deleted ones sort before them', async () => {
    const deleted = Array.from({ length: 120 }, (_, i) => product(`${1000 + i}0`, `Cola ${String(i).padStart(3, '0')} (old)`, { _d: 5 }));
    const db = await dbWith({ products: [...deleted, product('90', 'Cola Zero 0.5 l'), product('91', 'Cola Zero 1 l', { visible: false }), product('92', 'Cola Zero 2 l')] });
    const query = createQueries(db);
    expect((await query.searchProducts('cola', { limit: 2 })).map((p) => p.name)).toEqual(['Cola Zero 0.5 l', 'Cola Zero 2 l']);
    expect((await query.searchProducts('COLA')).map((p) => p.id)).toEqual(['90', '92']);
    db.close();
  });

  it('searchProducts: the product whose code matches comes first, once, and counts against the limit', async () => {
    const db = await dbWith({ products: [product('80', 'Tea', { barcode: 'tea' }), product('81', 'Tea green'), product('82', 'Tea black')] });
    const query = createQueries(db);
    expect((await query.searchProducts('tea', { limit: 2 })).map((p) => p.id)).toEqual(['80', '82']);
    expect((await query.searchProducts('tea', { limit: 1 })).map((p) => p.id)).toEqual(['80']);
    expect(await query.searchProducts('  ')).toEqual([]);
    db.close();
  });

  it('categoryTree: live categories only; a child of a deleted category is shown as a root', async () => {
    const category = (id: string, name: string, parent: string, extra: Partial<StoredRecord> = {}) =>
      record({ _t: 'categories', id, name, id_category_parent: parent, node_sort: 0, ...extra });
    const db = await dbWith({
      categories: [category('10', 'Drinks', '0'), category('20', 'Beer', '10'), category('30', 'Old', '0', { _d: 9 }), category('40', 'Kept', '30'), category('50', 'Gone', '10', { _d: 9 })],
    });
    const tree = await createQueries(db).categoryTree();
    const shape = (nodes: { name?: unknown; children: unknown[] }[]): unknown => nodes.map((n) => [n.name, shape(n.children as never)]);
    expect(shape(tree as never)).toEqual([['Drinks', [['Beer', []]]], ['Kept', []]]);
    db.close();
  });
});
