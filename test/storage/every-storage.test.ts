/**
 * One body, every storage the library supports in Node: the in-memory fake-indexeddb and the
 * durable file storage (`pos-cloud-mirror/node`). A first sync of the small tenant with pages of
 * 400 crosses every size threshold of the write path (a page's records written in several pieces,
 * a product page's split price rows a group of their own, several pages per transaction, several
 * transactions per collection, the file storage's journal folded into snapshots while it runs);
 * then a restart, an offline edit across a restart, a conflict and a take-over, each as a user
 * meets it; the history window's pruning (on the file storage, with the journal brought near its
 * fold so that the pruning's deletions fold it), and the upgrade of a version 8 database to the lean
 * indexes of version 9. The browser engines run the same write path in `test/browser/`.
 */
import type { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeId } from '../../src/ids/decode-id.js';
import { compareIds } from '../../src/ids/id.js';
import { COLLECTIONS } from '../../src/schema/collections.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { createMirror, type Mirror } from '../../src/mirror/create-mirror.js';
import { VERSION_8_STORES } from '../db/version-8-stores.js';
import { STORAGES, type StorageUnderTest } from './storages.js';

const TABLES = [...COLLECTIONS, 'categories'] as const;
const DAY = 86_400_000;

/** When a record was created: the time in its id. */
const createdAt = (record: { id: unknown }) => decodeId(String(record.id)).createdAt;

let sim: Simulator | undefined;
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await sim?.close();
  sim = undefined;
});

/** Counts of every table of `mirror`, by table. */
async function countsOf(mirror: Mirror): Promise<Record<string, number>> {
  return Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await mirror.db.table(t).count()] as const)));
}

/** Every row of every table of a database, by table. */
async function rowsOf(db: Dexie): Promise<Record<string, unknown[]>> {
  return Object.fromEntries(await Promise.all(db.tables.map(async (table) => [table.name, await table.toArray()] as const)));
}

/** The index names of each store, as IndexedDB holds them. */
function indexNames(db: Dexie, tables: readonly string[]): Record<string, string[]> {
  const tx = db.backendDB().transaction([...tables], 'readonly');
  return Object.fromEntries(tables.map((t) => [t, [...tx.objectStore(t).indexNames].sort()]));
}

/** Counts of every table the simulator holds, by table. */
function serverCounts(server: Simulator): Record<string, number> {
  return Object.fromEntries(TABLES.map((t) => [t, server.store.count(t)]));
}

describe.each(STORAGES)('a mirror on %s', (_name, storage: StorageUnderTest) => {
  async function setup(size: 'tiny' | 'small') {
    sim = await createSimulator({ port: 0, size, seed: 7, activity: false });
    const device = storage.device();
    cleanups.push(() => device.dispose());
    const open = async (extra = {}) => {
      const mirror = await device.open(sim!, extra);
      cleanups.push(() => mirror.close());
      return mirror;
    };
    return { sim, device, open };
  }

  it('copies the small tenant in pages of 400 and finds every record again after a restart, which resumes with a delta', { timeout: 120_000 }, async () => {
    const { sim, open } = await setup('small');
    const first = await open({ pageLimit: 400 });
    const report = await first.syncNow();
    expect(report.pulls.some((p) => p.pages > 1)).toBe(true);
    const expected = serverCounts(sim);
    expect(await countsOf(first)).toEqual(expected);
    const checkpoints = await first.db._sync_checkpoints.toArray();
    await first.close();

    const second = await open({ pageLimit: 400 });
    expect(await countsOf(second)).toEqual(expected);
    expect(await second.db._sync_checkpoints.toArray()).toEqual(checkpoints);
    sim.requests.clear();
    await second.syncNow();
    expect(sim.requests.recent().filter((r) => r.method === 'GET' && r.query['version_start'] === '0')).toEqual([]);
  });

  it('keeps an offline edit across a restart and pushes it once', async () => {
    const { sim, open } = await setup('tiny');
    const first = await open();
    await first.syncNow();
    sim.setFaults({ errorRate: 1 });
    const created = await first.save('customers', { company: 'Trafika Na Rohu', email: 'trafika@example.com' });
    const edited = (await first.db.customers.toArray()).find((c) => c._d === 0 && c.id !== created)!.id;
    await first.save('customers', { id: edited, note_internal: 'counted twice' });
    await first.syncNow().catch(() => undefined);
    sim.setFaults({});
    await first.close();

    const second = await open();
    expect((await second.pending()).map((e) => e.id).sort()).toEqual([created, edited].sort());
    await second.syncNow();
    expect(await second.pending()).toEqual([]);
    expect(sim.requests.timesPosted('customers', created)).toBe(1);
    expect(sim.requests.timesPosted('customers', edited)).toBe(1);
    expect(sim.store.get('customers', created)).toMatchObject({ company: 'Trafika Na Rohu' });
    expect(sim.store.get('customers', edited)).toMatchObject({ note_internal: 'counted twice' });
  });

  it('keeps a conflict across a restart, and the resolution chosen after it reaches the server', async () => {
    const { sim, open } = await setup('tiny');
    const first = await open();
    await first.syncNow({ collections: ['customers'] });
    const customer = (await first.db.customers.toArray()).find((c) => c._d === 0)!;
    await first.save('customers', { id: customer.id, note_internal: 'mine' });
    sim.store.write('customers', { id: customer.id, note_internal: 'theirs' });
    await first.syncNow({ collections: ['customers'] });
    const conflicts = await first.conflicts();
    expect(conflicts).toHaveLength(1);
    await first.close();

    const second = await open();
    expect(await second.conflicts()).toEqual(conflicts);
    await second.resolveConflict(conflicts[0]!.key, 'local');
    await second.syncNow({ collections: ['customers'] });
    expect(await second.conflicts()).toEqual([]);
    expect(sim.store.get('customers', customer.id)).toMatchObject({ note_internal: 'mine' });
  });

  it('takes over the edits a copy of another address left, and pushes them once after a restart', async () => {
    const { sim, open } = await setup('tiny');
    const old = await open({ dbName: `${storage.dbName}-old-address` });
    await old.syncNow({ collections: ['warehouses'] });
    sim.setFaults({ errorRate: 1 });
    const created = await old.save('warehouses', { name: 'Sklad u nádraží' });
    await old.syncNow({ collections: ['warehouses'] }).catch(() => undefined);
    sim.setFaults({});
    await old.close();

    const current = await open();
    // The tenant of both copies is compared before anything moves: the new copy needs a record of it.
    await current.syncNow({ collections: ['warehouses'] });
    const report = await current.takeOverEdits(`${storage.dbName}-old-address`);
    expect(report.taken).toBe(1);
    await current.close();
    const restarted = await open();
    expect((await restarted.pending()).map((e) => e.id)).toEqual([created]);
    await restarted.syncNow({ collections: ['warehouses'] });
    expect(sim.requests.timesPosted('warehouses', created)).toBe(1);
    expect(await restarted.pending()).toEqual([]);
  });
  it('keeps an app\'s atomic edit of several records across a restart, or none of it, and pushes each record once', async () => {
    const { sim, open } = await setup('tiny');
    const first = await open();
    await first.syncNow();
    const pick = async (c: 'shops' | 'cash_registers' | 'employees' | 'warehouses' | 'products') => (await first.db.collection(c).toArray())[0]!.id;
    const refs = { id_shop: await pick('shops'), id_cash_register: await pick('cash_registers'), id_employee: await pick('employees'), id_warehouse: await pick('warehouses') };
    const id_record = await pick('products');
    const book = (rows: number, fail: boolean) =>
      first.transaction(['stockup', 'stock_history'], async (tx) => {
        const id_stockup = await tx.save('stockup', { ...refs, stock_history_type: 3 });
        const ids = [id_stockup];
        for (let i = 0; i < rows; i++) ids.push(await tx.save('stock_history', { ...refs, id_record, id_stockup, stock_type: 1, stock_history_type: 3, quanity: i }));
        if (fail) throw new Error('cancelled');
        return ids;
      });
    await expect(book(150, true)).rejects.toThrow('cancelled');
    const kept = await book(150, false);
    await first.close();

    const second = await open();
    expect((await second.pending()).map((e) => e.id).sort()).toEqual([...kept].sort());
    await second.syncNow();
    expect(await second.pending()).toEqual([]);
    expect(kept.every((id, i) => sim.requests.timesPosted(i === 0 ? 'stockup' : 'stock_history', id) === 1)).toBe(true);
  });

  it('prunes the orders and items that left the history window while its journal folds; after a restart they stay gone, and an edit of one that left is kept and pushed once', { timeout: 120_000 }, async () => {
    sim = await createSimulator({ port: 0, size: 'small', seed: 7, activity: false, clock: { start: Date.now() } });
    const server = sim;
    const device = storage.device();
    cleanups.push(() => device.dispose());
    const journal = device.journal;
    expect(journal !== undefined).toBe(storage.journaled);
    // The mirror's clock is moved on by the test; its POSTs fail while `postsFail`. Each request
    // notes which journal the file storage was appending to when it was sent.
    const clock = { offset: 0, postsFail: false };
    const sent: { method: string; journal: number | undefined }[] = [];
    const open = async () => {
      const mirror = await device.open(server, {
        collections: ['orders', 'order_details'],
        categories: false,
        historyWindow: { orders: 365 },
        pageLimit: 400,
        environment: { now: () => Date.now() + clock.offset },
        fetch: async (input, init) => {
          const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
          sent.push({ method, journal: journal?.state(storage.dbName).journal });
          if (clock.postsFail && method === 'POST') throw new TypeError('fetch failed');
          return fetch(input, init);
        },
      });
      cleanups.push(() => mirror.close());
      return mirror;
    };

    const first = await open();
    await first.syncNow();
    const synced = (await first.db.orders.toArray()).sort((a, b) => compareIds(a.id, b.id));
    const oldest = synced[0]!;
    await first.save('orders', { id: oldest.id, note: 'edited before it left the window' });
    await first.close();

    // 335 days on, the window keeps the last 30 days: the orders of the 335 before fall out of it.
    clock.offset = 335 * DAY;
    const edge = Date.now() + clock.offset - 365 * DAY;
    const leaving = synced.filter((o) => createdAt(o) < edge && o.id !== oldest.id).map((o) => o.id);
    const staying = synced.filter((o) => createdAt(o) >= edge + 60_000).map((o) => o.id);
    const itemsOf = (ids: readonly string[]) => server.store.list('order_details').filter((d) => ids.includes(String(d.id_order))).map((d) => String(d.id));
    const leavingItems = itemsOf(leaving);
    expect([leaving.length, leavingItems.length, staying.length].every((n) => n > 100)).toBe(true);

    clock.postsFail = true;
    const second = await open();
    await second.db.open();
    // Offline, the app writes long notes on orders it keeps (one edit each, whatever how often).
    const notes = new Map<string, string>();
    let written = 0;
    const write = (n: number) =>
      second.transaction(['orders'], async (tx) => {
        for (let i = 0; i < n; i++, written++) {
          const id = staying[written % staying.length]!;
          const text = `${written}: ${'přepočítáno, sedí; '.repeat(50)}`;
          notes.set(id, text);
          await tx.save('orders', { id, note: text });
        }
      });
    let folded: number | undefined;
    if (journal) {
      // On the file storage the journal is folded first, then the notes bring it this close to its
      // next fold (the larger of 64 KiB and the snapshot's size): the pruning's deletions cross it.
      await journal.fold(second);
      const room = () => {
        const { bytes, foldsAt } = journal.state(storage.dbName);
        return foldsAt - bytes;
      };
      // A deleted key is journaled in about 21 bytes: the pruning deletes `deleted` bytes' worth.
      const deleted = (leaving.length + leavingItems.length) * 21;
      // Notes in steps, each one a transaction sized on the bytes the notes before took, until about
      // half the pruning's bytes are left (a first note of an order costs more than a later one).
      for (let n = 10; n > 0; ) {
        const before = room();
        await write(n);
        const perNote = (before - room()) / n;
        n = Math.floor((room() - deleted / 2) / perNote);
      }
      expect(room()).toBeGreaterThan(1_024);
      expect(room()).toBeLessThan(deleted - 1_024);
      const state = journal.state(storage.dbName);
      folded = state.journal;
    } else await write(40);
    sent.length = 0;
    await expect(second.syncNow()).rejects.toThrow(/POST \/orders failed/);
    if (journal) {
      // No fold while the pulls ran; one had begun (a new journal) by the push, which follows the pruning.
      const firstPost = sent.findIndex((r) => r.method === 'POST');
      expect(sent.slice(0, firstPost).every((r) => r.method === 'GET' && r.journal === folded)).toBe(true);
      expect(sent[firstPost]!.journal).not.toBe(folded);
    }
    await second.close();

    const third = await open();
    const held = new Set((await third.db.orders.toCollection().primaryKeys()).map(String));
    expect(leaving.filter((id) => held.has(id))).toEqual([]);
    expect(staying.filter((id) => !held.has(id))).toEqual([]);
    expect(held.has(oldest.id)).toBe(true);
    const items = new Set((await third.db.order_details.toCollection().primaryKeys()).map(String));
    expect(leavingItems.filter((id) => items.has(id))).toEqual([]);
    expect(itemsOf([oldest.id, ...staying]).filter((id) => !items.has(id))).toEqual([]);
    expect((await third.db.orders.get(oldest.id))?.note).toBe('edited before it left the window');
    expect((await third.pending()).map((e) => e.id).sort()).toEqual([oldest.id, ...notes.keys()].sort());

    clock.postsFail = false;
    await third.syncNow();
    expect(await third.pending()).toEqual([]);
    expect(server.requests.timesPosted('orders', oldest.id)).toBe(1);
    expect(server.store.get('orders', oldest.id)).toMatchObject({ note: 'edited before it left the window' });
    expect([...notes.keys()].filter((id) => server.requests.timesPosted('orders', id) !== 1)).toEqual([]);
    expect([...notes].filter(([id, text]) => server.store.get('orders', id)?.note !== text)).toEqual([]);
  });

  it('upgrades a version 8 database holding the small tenant and waiting edits to the lean indexes of version 9: every row kept across restarts, each edit pushed once, the app\'s own indexes added', { timeout: 120_000 }, async () => {
    const { sim, device, open } = await setup('small');
    // A mirror of the current release, elsewhere, makes real rows, with edits left waiting...
    const scratch = createMirror({ baseUrl: sim.baseUrl, token: sim.token, userAgent: 'pos-cloud-mirror tests (every storage)', dbName: 'scratch', indexedDB: new IDBFactory(), IDBKeyRange, pollIntervalMs: 60_000, pageLimit: 400 });
    cleanups.push(() => scratch.close());
    await scratch.syncNow();
    const live = async (c: 'customers' | 'orders' | 'order_details') => (await scratch.db.collection(c).toArray()).find((r) => r._d === 0)!.id;
    const [customer, order, item] = [await live('customers'), await live('orders'), await live('order_details')];
    await scratch.save('customers', { id: customer, phone_number: '+420 602 111 222' });
    await scratch.save('orders', { id: order, note: 'edited before the upgrade' });
    await scratch.save('order_details', { id: item, note: 'also before it' });
    const warehouse = await scratch.save('warehouses', { name: 'Sklad před aktualizací' });
    const before = await rowsOf(scratch.db);
    await scratch.close();
    expect(before._sync_outbox).toHaveLength(4);

    // ...which a version 8 database on this storage holds, written as pulls did, in transactions of up to 500 rows.
    const old = await device.openDexie(storage.dbName, (db) => db.version(8).stores(VERSION_8_STORES));
    for (const [table, rows] of Object.entries(before)) {
      for (let i = 0; i < rows.length; i += 500) await old.db.table(table).bulkAdd(rows.slice(i, i + 500));
    }
    expect(old.db.verno).toBe(8);
    await old.close();

    const indexes = { orders: ['id_customer'], warehouses: ['name'] };
    const expected = {
      orders: ['[id_cash_register+date_created]', '_v', 'id_customer'],
      order_details: ['_v', 'id_order'],
      customers: ['_v'],
      warehouses: ['_v', 'name'],
      _sync_outbox: ['[collection+id]', 'state'],
    };
    const upgraded = await open({ indexes, pageLimit: 400 });
    await upgraded.db.open();
    expect(upgraded.db.backendDB().version).toBe(90);
    expect(indexNames(upgraded.db, Object.keys(expected))).toEqual(expected);
    expect(await rowsOf(upgraded.db)).toEqual(before);
    expect(await upgraded.db.orders.where('id_customer').equals(String(before.orders!.map((o) => (o as { id_customer: string }).id_customer).find((c) => c !== '0'))).count()).toBeGreaterThan(0);
    await upgraded.close();

    // A restart finds the upgraded schema and every row; the edits go out once, and the sync is a delta.
    const restarted = await open({ indexes, pageLimit: 400 });
    await restarted.db.open();
    expect(indexNames(restarted.db, Object.keys(expected))).toEqual(expected);
    expect(await rowsOf(restarted.db)).toEqual(before);
    sim.requests.clear();
    await restarted.syncNow();
    expect(await restarted.pending()).toEqual([]);
    expect([sim.requests.timesPosted('customers', customer), sim.requests.timesPosted('orders', order), sim.requests.timesPosted('order_details', item), sim.requests.timesPosted('warehouses', warehouse)]).toEqual([1, 1, 1, 1]);
    expect(sim.store.get('customers', customer)).toMatchObject({ phone_number: '+420 602 111 222' });
    expect(sim.store.get('orders', order)).toMatchObject({ note: 'edited before the upgrade' });
    expect(sim.store.get('order_details', item)).toMatchObject({ note: 'also before it' });
    expect(sim.store.get('warehouses', warehouse)).toMatchObject({ name: 'Sklad před aktualizací' });
    expect(sim.requests.recent().filter((r) => r.method === 'GET' && r.query['version_start'] === '0')).toEqual([]);
    expect(await countsOf(restarted)).toEqual(serverCounts(sim));
  });
});
