import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MirrorDb } from '../../src/db/mirror-db.js';
import { INFLIGHT_STORE, QUARANTINE_STORE } from '../../src/db/stores.js';
import { version1Stores } from '../../src/db/version-1-stores.js';
import { startMirrorFixture, type MirrorFixture } from '../mirror/fixture.js';
import { VERSION_8_STORES } from './version-8-stores.js';

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
  it('upgrades from the stores version 8 declared: version 1\'s, with search words and the quarantine keyed by record', () => {
    const v1 = version1Stores();
    expect(VERSION_8_STORES).toEqual({
      ...v1,
      products: `${v1.products}, *__search`,
      categories: `${v1.categories}, *__search`,
      _sync_quarantine: QUARANTINE_STORE,
      _sync_inflight: INFLIGHT_STORE,
    });
  });

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
