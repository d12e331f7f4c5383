import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MirrorDb } from '../../src/db/mirror-db.js';
import { startMirrorFixture, type MirrorFixture } from '../mirror/fixture.js';

/**
 * The stores of schema version 8 as that release declared them (IndexedDB version 80), frozen here
 * so that the upgrade is tested from what databases out there hold, whatever the current ones become.
 */
const VERSION_8_STORES: Readonly<Record<string, string>> = {
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

/** Every row of every table of a database, by table. */
async function rowsOf(db: Dexie): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of db.tables) out[table.name] = await table.toArray();
  return out;
}

/** The index names of each store, as IndexedDB holds them. */
function indexNames(db: Dexie, tables: readonly string[]): Record<string, string[]> {
  const idb = db.backendDB();
  const tx = idb.transaction([...tables], 'readonly');
  return Object.fromEntries(tables.map((t) => [t, [...tx.objectStore(t).indexNames].sort()]));
}

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('MirrorDb schema version 9 (lean indexes)', () => {
  it('upgrades a version 8 database holding pending edits, a conflict and checkpoints: every row is kept, and the edits push', async () => {
    fixture = await startMirrorFixture();
    const { sim } = fixture;
    // A mirror of the current release makes real rows: a conflict, and edits left pending...
    const scratch = fixture.mirror({ dbName: 'scratch' });
    await scratch.syncNow();
    const [first, second] = (await scratch.db.customers.toArray()).filter((c) => c._d === 0);
    await scratch.save('customers', { id: first!.id, note_internal: 'changed here' });
    sim.store.write('customers', { ...sim.store.get('customers', first!.id)!, note_internal: 'changed there' });
    await scratch.syncNow();
    expect(await scratch.conflicts()).toHaveLength(1);
    await scratch.save('customers', { id: second!.id, phone_number: '+420 602 111 222' });
    const warehouse = await scratch.save('warehouses', { name: 'Sklad po aktualizaci' });
    const before = await rowsOf(scratch.db);
    await scratch.close();

    // ...which a version 8 database holds, as the previous release left it.
    const factory = new IDBFactory();
    const old = new Dexie('upgraded', { indexedDB: factory, IDBKeyRange });
    old.version(8).stores(VERSION_8_STORES);
    await old.transaction('rw', old.tables, async () => {
      for (const [table, rows] of Object.entries(before)) await old.table(table).bulkAdd(rows);
    });
    expect(old.backendDB().version).toBe(80);
    old.close();
    expect(before._sync_outbox!.map((e) => (e as { state: string }).state).sort()).toEqual(['conflict', 'pending', 'pending']);
    expect(before._sync_checkpoints!.length).toBeGreaterThan(0);

    const db = new MirrorDb('upgraded', { indexedDB: factory, IDBKeyRange });
    await db.open();
    expect(db.verno).toBe(9);
    expect(indexNames(db, ['orders', 'order_details', 'customers', '_sync_outbox', '_sync_conflicts'])).toEqual({
      orders: ['[id_cash_register+date_created]', '_v'],
      order_details: ['_v', 'id_order'],
      customers: ['_v'],
      _sync_outbox: ['[collection+id]', 'state'],
      _sync_conflicts: ['at'],
    });
    expect(await rowsOf(db)).toEqual(before);
    db.close();

    const mirror = fixture.mirror({ dbName: 'upgraded', factory });
    expect(await mirror.conflicts()).toMatchObject([{ collection: 'customers', id: first!.id }]);
    const seen = sim.requests.count();
    await mirror.syncNow();
    // Checkpoints were kept: the customers are pulled as a delta, not from the start.
    const pulls = sim.requests.recent().filter((r) => r.seq > seen && r.route === 'GET /customers');
    expect(pulls.length).toBeGreaterThan(0);
    for (const pull of pulls) expect(Number(pull.query.version_start)).toBeGreaterThan(0);
    expect(sim.store.get('customers', second!.id)).toMatchObject({ phone_number: '+420 602 111 222' });
    expect(sim.requests.timesPosted('warehouses', warehouse)).toBe(1);
    expect(await mirror.pending()).toMatchObject([{ collection: 'customers', id: first!.id, state: 'conflict' }]);
    // The conflict still resolves and pushes.
    await mirror.resolveConflict((await mirror.conflicts())[0]!.key, 'local');
    await mirror.syncNow();
    expect(sim.store.get('customers', first!.id)).toMatchObject({ note_internal: 'changed here' });
    expect(await mirror.pending()).toEqual([]);
  });

  it('opens with an index the app declares on an existing database (option `indexes`), and queries by it', async () => {
    fixture = await startMirrorFixture();
    const plain = fixture.mirror();
    await plain.syncNow();
    await plain.close();
    // Dexie adds an index missing from an existing database by itself, and says so once.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const indexed = fixture.mirror({ indexes: { customers: ['email'], stockup: ['id_warehouse'] } });
    await indexed.db.open();
    expect(warn.mock.calls.map(([message]) => String(message))).toEqual([expect.stringContaining('Dexie SchemaDiff')]);
    warn.mockRestore();
    const withEmail = (await indexed.db.customers.toArray()).find((c) => typeof c.email === 'string')!;
    expect((await indexed.db.customers.where('email').equals(withEmail.email as string).toArray()).map((c) => c.id)).toContain(withEmail.id);
    expect(indexNames(indexed.db, ['customers', 'stockup'])).toEqual({ customers: ['_v', 'email'], stockup: ['_v', 'id_warehouse'] });
  });
});
