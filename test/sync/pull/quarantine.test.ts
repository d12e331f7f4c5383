import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import { QUARANTINE_MOVING } from '../../../src/db/stores.js';
import { version1Stores } from '../../../src/db/version-1-stores.js';
import { parseRecord } from '../../../src/schema/index.js';
import { applyReadRecords, ingestRecords } from '../../../src/sync/pull/ingest.js';
import { quarantineRows } from '../../../src/sync/pull/quarantine.js';

const open: Dexie[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

let n = 0;
function newDb(): MirrorDb {
  const db = new MirrorDb(`quarantine-${++n}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  open.push(db);
  return db;
}

/** An employee as the read schema accepts it. */
const employee = (id: string, v: number, extra: Record<string, unknown> = {}) => ({ id, _v: v, _d: 0, _t: 'employees', firstname: 'Ana', ...extra });

describe('quarantine rows', () => {
  it('keeps one row per record: a record refused again replaces its row, with the latest refusal', async () => {
    const db = newDb();
    await ingestRecords(db, 'employees', [employee('5', 10, { _d: 'bad' })], () => 1);
    await ingestRecords(db, 'employees', [employee('005', 11, { _d: 'worse' })], () => 2);
    const rows = await db._sync_quarantine.toArray();
    expect(rows).toMatchObject([{ key: 'employees:5', collection: 'employees', id: '5', at: 2, record: { _d: 'worse' } }]);
  });

  it('keys a record without a readable id by its content, so the same record sent again keeps one row', async () => {
    const db = newDb();
    const noId = { _v: 3, firstname: 'nobody' };
    await ingestRecords(db, 'employees', [noId, { _v: 4, firstname: 'someone else' }]);
    await ingestRecords(db, 'employees', [noId]);
    const rows = await db._sync_quarantine.toArray();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.id === undefined && r.key.startsWith('employees:?'))).toBe(true);
  });

  it('leaves the row of a newer refused version when a stale good copy is applied, and drops it for a newer good one', async () => {
    const db = newDb();
    await ingestRecords(db, 'employees', [employee('5', 10, { _d: 'bad' })]);
    await ingestRecords(db, 'employees', [employee('5', 7, { note: 'stale webhook' })]);
    expect((await db.employees.get('5'))?.note).toBe('stale webhook');
    expect(await db._sync_quarantine.count()).toBe(1);
    await ingestRecords(db, 'employees', [employee('5', 12, { note: 'fixed' })]);
    expect(await db._sync_quarantine.count()).toBe(0);
  });

  it('applies an ingested order refused only for one bad item, with its good items, and quarantines only that item', async () => {
    const db = newDb();
    const refs = { id_shop: '1', id_cash_register: '1', id_shift: '1', id_employee: '1' };
    const item = (id: string, extra: Record<string, unknown> = {}) => ({
      id, _v: 3, ...refs, id_order: '30', id_product: '1', id_category: '1', id_warehouse: '1', currency: 'CZK', ...extra,
    });
    const order = { id: '30', _v: 3, ...refs, id_employee_served: '1', id_park_location: '1', currency: 'CZK', __order_details: [item('31'), item('32', { currency: 7 })] };
    const report = await ingestRecords(db, 'orders', [order]);
    expect(report).toMatchObject({ written: 1, quarantined: 1 });
    expect(await db.orders.get('30')).toBeDefined();
    expect(await db.order_details.toCollection().primaryKeys()).toEqual(['31']);
    expect((await db._sync_quarantine.toArray()).map((r) => r.key)).toEqual(['order_details:32']);
  });

  it('applies a refused row handed to applyReadRecords (a latest-orders poll) when only its hydration was bad', async () => {
    const db = newDb();
    const raw = { id: 10, _v: 7, name: 'Tea', date_updated: 1, __price_matrix_model: { id: 20, _v: 5, id_product: 10, date_starts: 1, currency: 5 } };
    const parsed = parseRecord('products', raw);
    if (parsed.ok) throw new Error('the read schema should refuse the price row');
    const report = await applyReadRecords(db, 'products', [], quarantineRows('products', [{ index: 0, raw, issues: parsed.issues }], 5));
    expect(report).toMatchObject({ written: 1, quarantined: 1 });
    expect(await db.products.get('10')).toMatchObject({ name: 'Tea' });
    expect(await db._sync_quarantine.toArray()).toMatchObject([{ key: 'product_price_matrix:20', collection: 'product_price_matrix', id: '20', at: 5 }]);
  });

  it('upgrades a version 1 database: rows re-keyed by record, duplicates folded into the latest refusal', async () => {
    const factory = new IDBFactory();
    const name = `quarantine-upgrade-${++n}`;
    const v1 = new Dexie(name, { indexedDB: factory, IDBKeyRange });
    v1.version(1).stores(version1Stores());
    const row = (id: string | undefined, at: number, record: unknown) => ({ collection: 'employees', id, record, issues: [{ path: ['_d'], message: 'bad' }], at });
    await v1.table('_sync_quarantine').bulkAdd([
      row('5', 1, { id: 5, _d: 'bad' }),
      row('7', 2, { id: 7, _d: 'bad' }),
      row('5', 3, { id: 5, _d: 'worse' }),
      row('007', 4, { id: '007', _d: 'bad' }),
      row(undefined, 5, { _v: 1 }),
      row(undefined, 6, { _v: 1 }),
      row(undefined, 7, { _v: 2 }),
    ]);
    await v1.table('employees').put(employee('9', 1));
    v1.close();

    const db = new MirrorDb(name, { indexedDB: factory, IDBKeyRange });
    open.push(db);
    await db.open();
    expect(db.verno).toBe(9);
    expect(db.tables.map((t) => t.name)).not.toContain(QUARANTINE_MOVING);
    const rows = await db._sync_quarantine.toArray();
    expect(rows.map((r) => [r.key, r.at])).toEqual(
      expect.arrayContaining([
        ['employees:5', 3],
        ['employees:7', 4],
      ]),
    );
    expect(rows).toHaveLength(4); // 5, 7 (and 007), and two records without an id
    expect(rows.find((r) => r.key === 'employees:7')?.id).toBe('7');
    expect(rows.every((r) => !('seq' in r))).toBe(true);
    expect(await db.employees.get('9')).toBeDefined();
    // The upgraded table works like a new one: a repeat replaces, an applied record leaves.
    await ingestRecords(db, 'employees', [employee('5', 20, { note: 'fixed' })]);
    expect(await db._sync_quarantine.get('employees:5')).toBeUndefined();
  });
});
