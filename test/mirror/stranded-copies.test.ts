import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDbName } from '../../src/db/db-name.js';
import { version1Stores } from '../../src/db/version-1-stores.js';
import type { Mirror } from '../../src/mirror/create-mirror.js';
import type { MirrorOptions } from '../../src/mirror/options.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { startKillProxy, type KillProxy } from '../node/kill-proxy.js';
import { addressMirrors } from './address-mirrors.js';
import { waitFor } from './fixture.js';
import { rawOutbox } from './raw-database.js';

let sim: Simulator | undefined;
let proxy: KillProxy | undefined;
const mirrors = addressMirrors();
afterEach(async () => {
  await mirrors.closeAll();
  await proxy?.close();
  await sim?.close();
  sim = proxy = undefined;
});

/** A mirror of the simulator at `baseUrl`, its database named after that address (the default), in `factory`. */
const mirrorAt = (baseUrl: string, factory: IDBFactory, extra: Partial<MirrorOptions> = {}): Mirror => mirrors.at(sim!, baseUrl, factory, extra);

/** The list of stranded copies once the mirror's first look is done. */
async function strandedOf(mirror: Mirror) {
  return (await waitFor(mirror.status, (s) => s.stranded !== undefined)).stranded!;
}

describe('copies of the service left under another address', () => {
  it('are reported with the edits still pending in them, read without being written', async () => {
    sim = await createSimulator({ port: 0, size: 'tiny', seed: 3 });
    proxy = await startKillProxy(sim.baseUrl);
    const factory = new IDBFactory();
    // The app first talked to the service directly, and left edits unsent.
    const old = mirrorAt(sim.baseUrl, factory);
    await old.syncNow();
    const customer = (await old.db.customers.toArray()).find((c) => c._d === 0)!;
    await old.save('customers', { id: customer.id, note_internal: 'made under the old address' });
    await old.save('customers', { company: 'Stranded s.r.o.', email: null });
    await old.save('warehouses', { name: 'Sklad u starého nádraží' });
    await old.close();
    // A copy under a third address with nothing to push is not reported.
    const third = await startKillProxy(sim.baseUrl);
    const clean = mirrorAt(third.baseUrl, factory);
    await clean.syncNow();
    await clean.close();
    await third.close();
    // Nor is another tenant's copy: another account's data, which the app opens under that tenant.
    const otherTenant = mirrorAt(sim.baseUrl, factory, { tenant: 'another-shop' });
    await otherTenant.save('warehouses', { name: 'Sklad jiného účtu' });
    await otherTenant.close();
    const before = await rawOutbox(factory, defaultDbName(sim.baseUrl));

    // Now it goes through a proxy: another address, another (fresh) database.
    const current = mirrorAt(proxy.baseUrl, factory);
    expect(current.db.name).toBe(defaultDbName(proxy.baseUrl));
    const stranded = await strandedOf(current);
    expect(stranded).toEqual([
      {
        dbName: defaultDbName(sim.baseUrl),
        baseUrl: sim.baseUrl,
        pending: 3,
        rejected: 0,
        conflicts: 0,
        unconfirmed: 0,
        firstEditAt: expect.any(Number),
        lastEditAt: expect.any(Number),
        takenOver: 0,
        schemaVersion: 9,
      },
    ]);
    expect(await rawOutbox(factory, defaultDbName(sim.baseUrl))).toEqual(before);
    expect(await current.findStranded()).toEqual(stranded);

    // The other tenant's mirror under the new address sees that tenant's copy only.
    const otherCurrent = mirrorAt(proxy.baseUrl, factory, { tenant: 'another-shop' });
    expect(await strandedOf(otherCurrent)).toMatchObject([{ dbName: defaultDbName(sim.baseUrl, 'another-shop'), baseUrl: sim.baseUrl, pending: 1 }]);
  });
});

describe('reading a copy at another schema version', () => {
  it('reports a copy written by an older or a newer version of the library and leaves its version as it is', async () => {
    sim = await createSimulator({ port: 0, size: 'tiny', seed: 3 });
    const factory = new IDBFactory();
    const entry = { collection: 'customers', id: '7', op: 'update', changed: ['note_internal'], base: { id: '7', _v: 5 }, server: null, localVersion: 1, createdAt: 1, updatedAt: 2, state: 'rejected', attempts: 1 };
    // Schema version 1 (the first release's tables), and a version 12 no release has yet.
    const older = new Dexie('pos-cloud-mirror:http://old.example/api', { indexedDB: factory, IDBKeyRange });
    older.version(1).stores(version1Stores());
    await older.table('_sync_outbox').add(entry);
    older.close();
    const newer = new Dexie('pos-cloud-mirror:https://new.example/api', { indexedDB: factory, IDBKeyRange });
    newer.version(12).stores({ ...version1Stores(), _sync_inflight: '++key', _sync_future: 'key' });
    await newer.table('_sync_outbox').add({ ...entry, state: 'conflict' });
    newer.close();

    const current = mirrorAt(sim.baseUrl, factory);
    expect(await strandedOf(current)).toMatchObject([
      { dbName: 'pos-cloud-mirror:http://old.example/api', baseUrl: 'http://old.example/api', pending: 1, rejected: 1, schemaVersion: 1 },
      { dbName: 'pos-cloud-mirror:https://new.example/api', baseUrl: 'https://new.example/api', pending: 1, conflicts: 1, schemaVersion: 12 },
    ]);
    const versions = Object.fromEntries((await factory.databases()).map((d) => [d.name, d.version]));
    expect(versions['pos-cloud-mirror:http://old.example/api']).toBe(10);
    expect(versions['pos-cloud-mirror:https://new.example/api']).toBe(120);
  });
});
