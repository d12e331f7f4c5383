import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { StorageError, ValidationError } from '../../src/errors/index.js';
import { createMirror } from '../../src/mirror/create-mirror.js';
import { openFileStorage } from '../../src/node/index.js';
import { COLLECTIONS } from '../../src/schema/collections.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { DURABLE_DB_NAME, durableMirror, tempDataDir } from './storage-fixture.js';

let sim: Simulator | undefined;
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await sim?.close();
  sim = undefined;
});

async function setup() {
  sim = await createSimulator({ port: 0, size: 'tiny', seed: 8 });
  const dir = tempDataDir();
  cleanups.push(dir.cleanup);
  return { sim, dataDir: dir.dataDir };
}

/** Every file of the data directory, by relative path, with its bytes (to show nothing was rewritten). */
function filesOf(dataDir: string, names: string[]): string[] {
  return names.map((name) => readFileSync(join(dataDir, name)).toString('base64'));
}

describe('the file storage', () => {
  it('opens a restarted mirror as the last process left it, and resumes with a delta pull', async () => {
    const { sim, dataDir } = await setup();
    const first = await durableMirror(sim, dataDir);
    await first.syncNow();
    const counts = await Promise.all(COLLECTIONS.map((c) => first.db.table(c).count()));
    const checkpoints = await first.db._sync_checkpoints.toArray();
    // An edit made offline, still in the outbox when the process ends.
    sim.setFaults({ errorRate: 1 });
    const id = await first.save('customers', { company: 'Trafika Na Rohu', email: 'trafika@example.com' });
    await first.syncNow().catch(() => undefined);
    sim.setFaults({});
    await first.close();

    const second = await durableMirror(sim, dataDir);
    expect(await Promise.all(COLLECTIONS.map((c) => second.db.table(c).count()))).toEqual(counts.map((n, i) => (COLLECTIONS[i] === 'customers' ? n + 1 : n)));
    expect(await second.db._sync_checkpoints.toArray()).toEqual(checkpoints);
    expect((await second.pending()).map((e) => e.id)).toEqual([id]);
    sim.requests.clear();
    const report = await second.syncNow();
    // A delta: every list asked from a checkpoint, none from 0.
    expect(sim.requests.recent().filter((r) => r.method === 'GET' && r.query['version_start'] === '0')).toEqual([]);
    expect(report.pulls.every((p) => p.pages <= 2)).toBe(true);
    expect(sim.requests.timesPosted('customers', id)).toBe(1);
    await second.close();
  });

  it('keeps conflicts, quarantine and checkpoints across a restart, with a journal folded into snapshots', async () => {
    const { sim, dataDir } = await setup();
    const first = await durableMirror(sim, dataDir, {}, { compactAtBytes: 4_096 });
    await first.syncNow({ collections: ['customers'] });
    const customer = (await first.db.customers.toArray()).find((c) => c._d === 0)!;
    await first.save('customers', { id: customer.id, note_internal: 'mine' });
    sim.store.write('customers', { id: customer.id, note_internal: 'theirs' });
    await first.syncNow({ collections: ['customers'] });
    await first.ingest('employees', [{ id: '9', _v: 1, _d: 'bad' }]);
    const conflicts = await first.conflicts();
    expect(conflicts).toHaveLength(1);
    await first.close();

    const second = await durableMirror(sim, dataDir);
    expect(await second.conflicts()).toEqual(conflicts);
    expect(await second.db._sync_quarantine.count()).toBe(1);
    await second.resolveConflict(conflicts[0]!.key, 'local');
    await second.syncNow({ collections: ['customers'] });
    expect(sim.store.get('customers', customer.id)).toMatchObject({ note_internal: 'mine' });
    await second.close();
  });

  it('loses no write that commits while a compaction runs', async () => {
    const { dataDir } = await setup();
    const storage = await openFileStorage({ dataDir, compactAtBytes: 1_024 });
    const db = new Dexie('pos-cloud-mirror:compaction', { indexedDB: storage.indexedDB, IDBKeyRange: storage.IDBKeyRange });
    db.version(1).stores({ items: 'id, group' });
    storage.attach(db);
    // Writers in parallel: every commit passes the threshold, so snapshots are taken between and beside them.
    await Promise.all(
      Array.from({ length: 8 }, (_, writer) =>
        (async () => {
          for (let i = 0; i < 40; i++) await db.table('items').bulkPut(Array.from({ length: 5 }, (_, k) => ({ id: `${writer}-${i}-${k}`, group: writer, text: 'x'.repeat(50) })));
        })(),
      ),
    );
    await db.table('items').where('group').equals(3).delete();
    db.close();
    await storage.close();

    const again = await openFileStorage({ dataDir });
    const reopened = new Dexie('pos-cloud-mirror:compaction', { indexedDB: again.indexedDB, IDBKeyRange: again.IDBKeyRange });
    reopened.version(1).stores({ items: 'id, group' });
    again.attach(reopened);
    expect(await reopened.table('items').count()).toBe(7 * 40 * 5);
    expect(await reopened.table('items').where('group').equals(3).count()).toBe(0);
    reopened.close();
    await again.close();
  });

  it('cuts off a torn last journal record (a write the killed process did not finish) and keeps the rest', async () => {
    const { sim, dataDir } = await setup();
    const first = await durableMirror(sim, dataDir);
    await first.syncNow({ collections: ['warehouses'] });
    const id = await first.save('warehouses', { name: 'Sklad Jih' });
    await first.close();
    const journal = join(dataDir, readDbDir(dataDir), 'journal');
    appendFileSync(journal, Buffer.from([200, 0, 0, 0, 1, 2, 3]));

    const second = await durableMirror(sim, dataDir);
    expect(await second.db.warehouses.get(id)).toMatchObject({ name: 'Sklad Jih' });
    await second.save('warehouses', { id, name: 'Sklad Jih 2' });
    await second.close();
    const third = await durableMirror(sim, dataDir);
    expect(await third.db.warehouses.get(id)).toMatchObject({ name: 'Sklad Jih 2' });
    await third.close();
  });

  it('refuses a damaged journal or snapshot with a StorageError naming the file, and rewrites nothing', async () => {
    const { sim, dataDir } = await setup();
    const first = await durableMirror(sim, dataDir);
    await first.syncNow({ collections: ['shops'] });
    await first.save('shops', { id: sim.store.list('shops')[0]!.id as string, name: 'Hlavní prodejna' });
    await first.save('shops', { id: sim.store.list('shops')[0]!.id as string, name: 'Hlavní prodejna 2' });
    await first.close();
    const db = readDbDir(dataDir);
    const names = [join(db, 'snapshot'), join(db, 'journal')];
    const journal = join(dataDir, db, 'journal');
    const bytes = readFileSync(journal);
    // Inside the first transaction's record (after the magic and the header record): more records follow it.
    const entry = 4 + 8 + bytes.readUInt32LE(4);
    expect(entry + 8 + bytes.readUInt32LE(entry)).toBeLessThan(bytes.length);
    bytes[entry + 12] = bytes[entry + 12]! ^ 0xff;
    writeFileSync(journal, bytes);
    const before = filesOf(dataDir, names);
    const error = await openFileStorage({ dataDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ problem: 'corrupt', path: journal });
    expect((error as Error).message).toContain(journal);
    expect(filesOf(dataDir, names)).toEqual(before);

    writeFileSync(join(dataDir, db, 'snapshot'), 'PCMS not a snapshot');
    await expect(openFileStorage({ dataDir })).rejects.toMatchObject({ name: 'StorageError', problem: 'corrupt', path: join(dataDir, db, 'snapshot') });
  });

  it('refuses a store written by a newer schema version, leaving it as it is', async () => {
    const { dataDir } = await setup();
    const storage = await openFileStorage({ dataDir });
    const future = new Dexie('pos-cloud-mirror:future', { indexedDB: storage.indexedDB, IDBKeyRange: storage.IDBKeyRange });
    future.version(99).stores({ customers: 'id' });
    storage.attach(future);
    await future.table('customers').put({ id: '1', _v: 1 });
    future.close();
    await storage.close();
    const db = readDbDir(dataDir);
    const before = filesOf(dataDir, [join(db, 'snapshot')]);

    const again = await openFileStorage({ dataDir });
    const error = (() => {
      try {
        createMirror({ baseUrl: 'http://127.0.0.1:9/api', token: 'token-of-the-test', userAgent: 'tests', dbName: 'pos-cloud-mirror:future', storage: again });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ problem: 'newer-version', path: join(dataDir, db) });
    await again.close();
    expect(filesOf(dataDir, [join(db, 'snapshot')])).toEqual(before);
  });

  it('refuses a data directory that cannot be written, naming it', async () => {
    const { dataDir } = await setup();
    writeFileSync(join(dataDir, 'a-file'), 'x');
    const inside = join(dataDir, 'a-file', 'store');
    await expect(openFileStorage({ dataDir: inside })).rejects.toMatchObject({ name: 'StorageError', problem: 'unwritable', path: inside });
    await expect(openFileStorage({ dataDir: '' })).rejects.toBeInstanceOf(ValidationError);
  });

  it('makes a second opener of the same directory wait until the first lets go', async () => {
    const { dataDir } = await setup();
    const first = await openFileStorage({ dataDir });
    const gaveUp = await openFileStorage({ dataDir, signal: AbortSignal.timeout(300) }).catch((e: unknown) => e);
    expect(gaveUp).toMatchObject({ name: 'StorageError', problem: 'locked' });
    const waiting = openFileStorage({ dataDir });
    setTimeout(() => void first.close(), 200);
    const second = await waiting;
    await second.close();
  });

  it('starts over with fresh only once the directory is its own, never under a process still using it', async () => {
    const { sim, dataDir } = await setup();
    const first = await durableMirror(sim, dataDir);
    await first.syncNow({ collections: ['shops'] });
    const waiting = openFileStorage({ dataDir, fresh: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The running process keeps its store while the fresh opener waits.
    expect(readdirSync(dataDir).filter((name) => name.startsWith('db-'))).toHaveLength(1);
    await first.save('shops', { id: sim.store.list('shops')[0]!.id as string, name: 'Hlavní prodejna' });
    await first.close();
    const storage = await waiting;
    expect(storage.restored).toEqual([]);
    const second = createMirror({ baseUrl: sim.baseUrl, token: sim.token, userAgent: 'tests', dbName: DURABLE_DB_NAME, storage });
    expect(await second.db.shops.count()).toBe(0);
    expect(await second.pending()).toEqual([]);
    await second.close();
    await expect(openFileStorage({ dataDir, fresh: 'yes' as unknown as boolean })).rejects.toBeInstanceOf(ValidationError);
  });

  it('is refused beside indexedDB, which would leave the store unused', async () => {
    const { sim, dataDir } = await setup();
    const storage = await openFileStorage({ dataDir });
    cleanups.push(() => storage.close());
    expect(() => createMirror({ baseUrl: sim.baseUrl, token: sim.token, userAgent: 'tests', storage, indexedDB: storage.indexedDB })).toThrow(/storage: give either storage or indexedDB/);
  });
});

/** The directory of the (one) database in `dataDir`. */
function readDbDir(dataDir: string): string {
  return readdirSync(dataDir).find((name) => name.startsWith('db-'))!;
}
