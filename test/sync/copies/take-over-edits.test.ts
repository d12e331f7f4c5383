import { Dexie, type DBCore, type Middleware } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDbName } from '../../../src/db/db-name.js';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import { INFLIGHT_STORE, QUARANTINE_STORE } from '../../../src/db/stores.js';
import { version1Stores } from '../../../src/db/version-1-stores.js';
import type { OutboxEntry, StoredRecord } from '../../../src/db/sync-rows.js';
import { SYNC_TABLES } from '../../../src/db/table-names.js';
import { PosCloudError, StorageError, ValidationError } from '../../../src/errors/index.js';
import type { Mirror } from '../../../src/mirror/create-mirror.js';
import { takeOverEdits } from '../../../src/sync/copies/take-over-edits.js';
import type { CollectionName } from '../../../src/schema/collections.js';
import { createSimulator, type Simulator } from '../../../src/simulator/index.js';
import { startKillProxy, type KillProxy } from '../../node/kill-proxy.js';
import { addressMirrors } from '../../mirror/address-mirrors.js';
import { waitFor } from '../../mirror/fixture.js';
import { rawOutbox } from '../../mirror/raw-database.js';

const sims: Simulator[] = [];
let proxy: KillProxy | undefined;
const mirrors = addressMirrors();
afterEach(async () => {
  await mirrors.closeAll();
  await proxy?.close();
  for (const s of sims.splice(0)) await s.close();
  proxy = undefined;
});

const COLLECTIONS: CollectionName[] = ['customers', 'warehouses', 'stockup'];

async function simulator(seed = 3): Promise<Simulator> {
  const sim = await createSimulator({ port: 0, size: 'tiny', seed });
  sims.push(sim);
  return sim;
}

const mirrorAt = mirrors.at;

/** Live customers of the mirror that no one has edited in the test yet. */
async function serverCustomers(mirror: Mirror): Promise<string[]> {
  return (await mirror.db.customers.toArray()).filter((c) => c._d === 0).map((c) => c.id);
}

/** How many POSTs the simulator received in all (each carries one batch). */
function posts(sim: Simulator): number {
  return sim.requests.recent().filter((r) => r.method === 'POST').length;
}

describe('takeOverEdits', () => {
  it('hands the edits of the copy of an old address to the mirror of the new one, which pushes each exactly once', async () => {
    const sim = await simulator();
    proxy = await startKillProxy(sim.baseUrl);
    const factory = new IDBFactory();
    let loseAnswers = false;
    const old = mirrorAt(sim, sim.baseUrl, factory, {
      retry: 0,
      // A POST that lands on the server whose answer never comes back.
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
        if (loseAnswers && method === 'POST') throw new TypeError('fetch failed');
        return response;
      },
    });
    await old.syncNow();
    const [merged, removed, clashing] = await serverCustomers(old);
    // A conflict waiting for a decision in the old copy.
    await old.save('customers', { id: clashing!, note_internal: 'mine' });
    sim.store.write('customers', { id: clashing!, note_internal: 'theirs' });
    await old.syncNow();
    expect(await old.conflicts()).toHaveLength(1);
    // A create that landed though the old copy never heard so.
    const landed = await old.save('customers', { company: 'Landed unheard s.r.o.', email: null });
    loseAnswers = true;
    await expect(old.syncNow()).rejects.toThrow();
    expect(sim.requests.timesPosted('customers', landed)).toBe(1);
    // Edits made offline, never sent.
    await old.save('customers', { id: merged!, note_internal: 'old address' });
    const created = await old.save('customers', { company: 'Nová Firma s.r.o.', email: 'nova@example.com' });
    await old.remove('customers', removed!);
    const warehouse = await old.save('warehouses', { name: 'Sklad Sever' });
    await old.close();
    // Meanwhile the back office changes another field of one of them.
    sim.store.write('customers', { id: merged!, tags: 'back office' });

    const current = mirrorAt(sim, proxy.baseUrl, factory);
    const oldName = defaultDbName(sim.baseUrl);
    expect((await waitFor(current.status, (s) => s.stranded !== undefined)).stranded).toMatchObject([
      { dbName: oldName, pending: 6, conflicts: 1, unconfirmed: 1, rejected: 0, takenOver: 0 },
    ]);
    // Until this mirror holds the service's records, it cannot tell the copy is the same tenant's.
    await expect(current.takeOverEdits(oldName)).rejects.toThrow(/sync it first/);
    await current.syncNow();
    const postsBefore = posts(sim);

    expect(await current.takeOverEdits(oldName)).toEqual({ dbName: oldName, taken: 6, cleared: 6, left: [] });
    expect(current.status.value.stranded).toEqual([]);
    expect((await rawOutbox(factory, oldName))!.outbox).toEqual([]);
    expect((await current.pending()).map((e) => [e.collection, e.id, e.state]).sort()).toEqual(
      [
        ['customers', clashing, 'conflict'],
        ['customers', landed, 'pending'],
        ['customers', merged, 'pending'],
        ['customers', created, 'pending'],
        ['customers', removed, 'pending'],
        ['warehouses', warehouse, 'pending'],
      ].sort(),
    );
    // The record shows the edit laid on the server's latest state, as after a pull.
    expect(await current.db.customers.get(merged!)).toMatchObject({ note_internal: 'old address', tags: 'back office' });

    await current.syncNow();
    await current.resolveConflict(`customers:${clashing}`, 'local');
    await current.syncNow();
    expect(await current.pending()).toEqual([]);
    expect(sim.store.get('customers', merged!)).toMatchObject({ note_internal: 'old address', tags: 'back office' });
    expect(sim.store.get('customers', created)).toMatchObject({ company: 'Nová Firma s.r.o.', email: 'nova@example.com' });
    expect(sim.store.get('customers', removed!)!._d).not.toBe(0);
    expect(sim.store.get('customers', clashing!)).toMatchObject({ note_internal: 'mine' });
    expect(sim.store.get('warehouses', warehouse)).toMatchObject({ name: 'Sklad Sever' });
    for (const [collection, id] of [['customers', merged], ['customers', created], ['customers', removed], ['customers', clashing], ['warehouses', warehouse]] as const) {
      expect(sim.requests.timesPosted(collection, id!), `${collection} ${id} posted once, after the take-over`).toBe(1);
    }
    // The POST that had landed is recognised: the create is not sent again.
    expect(sim.requests.timesPosted('customers', landed)).toBe(1);

    // The old copy, opened again under any address, has nothing left to push.
    const reopened = mirrorAt(sim, proxy.baseUrl, factory, { dbName: oldName });
    expect(await reopened.pending()).toEqual([]);
    const postsAfter = posts(sim);
    await reopened.syncNow();
    expect(posts(sim)).toBe(postsAfter);
    expect(postsAfter).toBeGreaterThan(postsBefore);
  });

  it('leaves what cannot move safely in the old copy, saying why: a record edited here too, a collection not mirrored here, and a record that refers to one left there', async () => {
    const sim = await simulator();
    proxy = await startKillProxy(sim.baseUrl);
    const factory = new IDBFactory();
    const old = mirrorAt(sim, sim.baseUrl, factory);
    await old.syncNow();
    const [both, onlyThere] = await serverCustomers(old);
    await old.save('customers', { id: both!, note_internal: 'there' });
    const warehouse = await old.save('warehouses', { name: 'Sklad Nový' });
    const first = (c: 'cash_registers' | 'employees' | 'shops') => String(sim.store.list(c)[0]!.id);
    const stockup = await old.save('stockup', {
      id_warehouse: warehouse,
      id_cash_register: first('cash_registers'),
      id_employee: first('employees'),
      id_shop: first('shops'),
      stock_history_type: 1,
    });
    await old.save('customers', { id: onlyThere!, note_internal: 'only there' });
    await old.close();

    // The new mirror keeps no warehouses, and has its own edit of one of the customers.
    const current = mirrorAt(sim, proxy.baseUrl, factory, { collections: ['customers', 'stockup'] });
    await current.syncNow();
    await current.save('customers', { id: both!, note_internal: 'here' });

    const oldName = defaultDbName(sim.baseUrl);
    expect(await current.takeOverEdits(oldName)).toEqual({
      dbName: oldName,
      taken: 1,
      cleared: 1,
      left: [
        { collection: 'customers', id: both, reason: 'edited-here' },
        { collection: 'warehouses', id: warehouse, reason: 'not-mirrored' },
        { collection: 'stockup', id: stockup, reason: 'parent-left' },
      ],
    });
    expect((await current.pending()).map((e) => [e.id, e.changed])).toEqual([
      [both, ['note_internal']],
      [onlyThere, ['note_internal']],
    ]);
    expect(await current.db.customers.get(both!)).toMatchObject({ note_internal: 'here' });
    expect(current.status.value.stranded).toMatchObject([{ dbName: oldName, pending: 3, takenOver: 0 }]);
    expect(((await rawOutbox(factory, oldName))!.outbox as { id: string }[]).map((e) => e.id)).toEqual([both, warehouse, stockup]);
  });

  it('finishes a take-over cut short after this mirror took the edits and before the old copy let them go, taking nothing twice', async () => {
    const sim = await simulator();
    proxy = await startKillProxy(sim.baseUrl);
    const factory = new IDBFactory();
    const old = mirrorAt(sim, sim.baseUrl, factory);
    await old.syncNow();
    const [edited] = await serverCustomers(old);
    await old.save('customers', { id: edited!, note_internal: 'moved once' });
    const created = await old.save('customers', { company: 'Jednou s.r.o.', email: null });
    await old.close();
    const current = mirrorAt(sim, proxy.baseUrl, factory);
    await current.syncNow();
    const oldName = defaultDbName(sim.baseUrl);

    // The old copy refuses to let go of its entries: the process died between the two steps.
    const other = new MirrorDb(oldName, { indexedDB: factory, IDBKeyRange });
    other.use(failingOutboxDeletes());
    await expect(takeOverEdits({ current: current.db, other, collections: COLLECTIONS })).rejects.toThrow('the process died here');
    other.close();
    expect((await current.pending()).map((e) => e.id).sort()).toEqual([edited, created].sort());
    expect(await current.findStranded()).toMatchObject([{ dbName: oldName, pending: 0, takenOver: 2 }]);

    expect(await current.takeOverEdits(oldName)).toEqual({ dbName: oldName, taken: 0, cleared: 2, left: [] });
    expect(current.status.value.stranded).toEqual([]);
    expect(await current.db._sync_meta.get(`taken-over:${oldName}`)).toBeUndefined();
    expect((await current.pending()).map((e) => e.id).sort()).toEqual([edited, created].sort());
    await current.syncNow();
    expect(sim.requests.timesPosted('customers', edited!)).toBe(1);
    expect(sim.requests.timesPosted('customers', created)).toBe(1);
    expect(sim.store.get('customers', edited!)).toMatchObject({ note_internal: 'moved once' });
  });

  it("refuses the edits of another tenant's copy, and leaves both copies as they were", async () => {
    const first = await simulator(3);
    const second = await simulator(4);
    const factory = new IDBFactory();
    const old = mirrorAt(first, first.baseUrl, factory);
    await old.syncNow();
    await old.save('customers', { company: 'Cizí s.r.o.', email: null });
    await old.close();
    const current = mirrorAt(second, second.baseUrl, factory);
    await current.syncNow();
    const oldName = defaultDbName(first.baseUrl);
    const before = await rawOutbox(factory, oldName);

    const error = await current.takeOverEdits(oldName).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(/tenant \(id_c\) \d+, this mirror of \d+: its edits belong to another account/);
    expect(await rawOutbox(factory, oldName)).toEqual(before);
    expect(await current.pending()).toEqual([]);
  });

  it('takes the edits of a copy an older version of the library wrote, upgrading it, and leaves an older copy of another tenant at its version', async () => {
    const sim = await simulator(3);
    const stranger = await simulator(4);
    const factory = new IDBFactory();
    const ours = await olderCopy(factory, 'pos-cloud-mirror:http://old.example/api', sim);
    const theirs = await olderCopy(factory, 'pos-cloud-mirror:http://other.example/api', stranger);
    const current = mirrorAt(sim, sim.baseUrl, factory);
    await current.syncNow();
    expect((await waitFor(current.status, (s) => s.stranded !== undefined)).stranded).toMatchObject([
      { dbName: 'pos-cloud-mirror:http://old.example/api', pending: 1, schemaVersion: 6 },
      { dbName: 'pos-cloud-mirror:http://other.example/api', pending: 1, schemaVersion: 6 },
    ]);

    await expect(current.takeOverEdits('pos-cloud-mirror:http://other.example/api')).rejects.toThrow(/another account/);
    expect((await rawOutbox(factory, 'pos-cloud-mirror:http://other.example/api'))!.version).toBe(60);

    expect(await current.takeOverEdits('pos-cloud-mirror:http://old.example/api')).toMatchObject({ taken: 1, left: [] });
    expect((await rawOutbox(factory, 'pos-cloud-mirror:http://old.example/api'))).toMatchObject({ version: 90, outbox: [] });
    await current.syncNow();
    expect(sim.store.get('customers', ours)).toMatchObject({ note_internal: 'written by an older version' });
    expect(sim.requests.timesPosted('customers', ours)).toBe(1);
    expect(stranger.store.get('customers', theirs)?.note_internal).not.toBe('written by an older version');
  });

  it('refuses a copy that another mirror syncs now, its own database, a name of no copy, and a copy of a newer version', async () => {
    const sim = await simulator();
    proxy = await startKillProxy(sim.baseUrl);
    const factory = new IDBFactory();
    const synced = mirrorAt(sim, sim.baseUrl, factory);
    await synced.syncNow();
    await synced.close();
    // The old copy is open and syncing somewhere (its pushes fail: the old address is gone).
    const old = mirrorAt(sim, sim.baseUrl, factory, { leaderLeaseMs: 60_000, fetch: () => Promise.reject(new TypeError('fetch failed')) });
    await old.save('customers', { company: 'Běžící s.r.o.', email: null });
    await old.start();
    await waitFor(old.status, (s) => s.leader);
    const current = mirrorAt(sim, proxy.baseUrl, factory);
    await current.syncNow();
    const oldName = defaultDbName(sim.baseUrl);

    const busy = await current.takeOverEdits(oldName).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(PosCloudError);
    expect((busy as Error).message).toContain('another tab, worker or mirror syncs that copy now');
    expect(await current.pending()).toEqual([]);
    await old.stop();
    expect((await current.takeOverEdits(oldName)).taken).toBe(1);

    await expect(current.takeOverEdits(current.db.name)).rejects.toThrow(ValidationError);
    await expect(current.takeOverEdits('pos-cloud-mirror:http://nowhere.invalid/api')).rejects.toThrow(/no mirror database of that name/);
    expect((await factory.databases()).map((d) => d.name)).not.toContain('pos-cloud-mirror:http://nowhere.invalid/api');

    const future = new MirrorDb('pos-cloud-mirror:http://future.example/api', { indexedDB: factory, IDBKeyRange });
    future.version(90).stores({ _sync_future: 'key' });
    await future.open();
    future.close();
    const newer = await current.takeOverEdits('pos-cloud-mirror:http://future.example/api').catch((e: unknown) => e);
    expect(newer).toBeInstanceOf(StorageError);
    expect(newer).toMatchObject({ problem: 'newer-version' });
    expect((await factory.databases()).find((d) => d.name === 'pos-cloud-mirror:http://future.example/api')?.version).toBe(900);
  });
});

/**
 * A copy as schema version 6 of the library left it (before the products' search index), holding
 * a few of `sim`'s customers and one pending edit of the first: returns that customer's id.
 */
async function olderCopy(factory: IDBFactory, name: string, sim: Simulator): Promise<string> {
  const db = new Dexie(name, { indexedDB: factory, IDBKeyRange });
  db.version(6).stores({ ...version1Stores(), [SYNC_TABLES.quarantine]: QUARANTINE_STORE, [SYNC_TABLES.inflight]: INFLIGHT_STORE });
  const customers = sim.store.list('customers').filter((c) => c._d === 0).slice(0, 5).map((c) => ({ ...c, id: String(c.id) }) as StoredRecord);
  const base = customers[0]!;
  await db.table('customers').bulkPut([{ ...base, note_internal: 'written by an older version' }, ...customers.slice(1)]);
  await db.table(SYNC_TABLES.outbox).add({
    collection: 'customers', id: base.id, op: 'update', changed: ['note_internal'], base, server: null,
    localVersion: 1, createdAt: Date.now() - 60_000, updatedAt: Date.now() - 60_000, state: 'pending', attempts: 0,
  } satisfies OutboxEntry);
  db.close();
  return base.id;
}

/** A middleware that fails the first deletion from the outbox, as a process killed at that moment would leave it. */
function failingOutboxDeletes(): Middleware<DBCore> {
  let failed = false;
  return {
    stack: 'dbcore',
    name: 'test:failing-outbox-deletes',
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        if (name !== '_sync_outbox') return table;
        return {
          ...table,
          mutate: async (request) => {
            if (request.type === 'delete' && !failed) {
              failed = true;
              throw new Error('the process died here');
            }
            return table.mutate(request);
          },
        };
      },
    }),
  };
}
