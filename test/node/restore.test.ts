import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { crc32 } from 'node:zlib';
import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { StorageError } from '../../src/errors/index.js';
import { openFileStorage, type FileStorage } from '../../src/node/index.js';
import { tempDataDir } from './storage-fixture.js';

const FORMAT_1 = fileURLToPath(new URL('./fixtures/format-1', import.meta.url));

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dataDir(): string {
  const dir = tempDataDir();
  cleanups.push(dir.cleanup);
  return dir.dataDir;
}

/** The database of the format-1 fixture, opened on `storage` (its schema as the program that wrote it declared it). */
function fixtureDb(storage: FileStorage): Dexie {
  const db = new Dexie('pos-cloud-mirror:format-1', { indexedDB: storage.indexedDB, IDBKeyRange: storage.IDBKeyRange });
  db.version(1).stores({ items: 'id, group, *tags, [group+rank], &code', queue: '++seq, name', loose: ', kind' });
  storage.attach(db);
  return db;
}

/** A database with one store whose keys it generates (as the outbox's), on a fresh storage. */
async function queueDb(dir: string, options: { compactAtBytes?: number } = {}): Promise<{ storage: FileStorage; db: Dexie }> {
  const storage = await openFileStorage({ dataDir: dir, ...options });
  const db = new Dexie('pos-cloud-mirror:queue', { indexedDB: storage.indexedDB, IDBKeyRange: storage.IDBKeyRange });
  db.version(1).stores({ queue: '++seq, name' });
  storage.attach(db);
  return { storage, db };
}

async function closeAll(db: Dexie, storage: FileStorage): Promise<void> {
  db.close();
  await storage.close();
}

function dbDir(dir: string): string {
  return join(dir, readdirSync(dir).find((name) => name.startsWith('db-'))!);
}

describe('restoring a durable store', () => {
  it('opens a store written in snapshot format 1 by the previous version as that version left it', async () => {
    const dir = dataDir();
    cpSync(FORMAT_1, dir, { recursive: true });
    const expected = deserialize(readFileSync(join(dir, 'expected.v8'))) as Record<string, { keys: unknown[]; values: unknown[] }>;
    const storage = await openFileStorage({ dataDir: dir });
    expect(storage.restored).toEqual([{ name: 'pos-cloud-mirror:format-1', version: 10, replayed: 8 }]);
    const db = fixtureDb(storage);
    for (const table of db.tables) {
      expect(await table.toCollection().primaryKeys(), table.name).toEqual(expected[table.name]!.keys);
      expect(await table.toArray(), table.name).toEqual(expected[table.name]!.values);
    }
    // Its indexes answer as they did.
    const items = expected.items!.values as { id: string; group: unknown; tags?: unknown; code: string }[];
    expect(await db.table('items').where('group').equals('g1').primaryKeys()).toEqual(items.filter((i) => i.group === 'g1').map((i) => i.id));
    expect(await db.table('items').where('tags').equals('a').primaryKeys()).toEqual(items.filter((i) => Array.isArray(i.tags) && i.tags.includes('a')).map((i) => i.id));
    expect(await db.table('items').where('code').equals('new').primaryKeys()).toEqual(['item-9999']);
    // It goes on: the next generated key follows the largest the previous version gave, and a fold rewrites it in the new format.
    expect(await db.table('queue').add({ name: 'after-upgrade' })).toBe(8);
    await storage.compact();
    await closeAll(db, storage);
    const snapshot = readFileSync(join(dbDir(dir), 'snapshot'));
    expect((deserialize(snapshot.subarray(12, 12 + snapshot.readUInt32LE(4))) as { format: number }).format).toBe(2);
    const again = await openFileStorage({ dataDir: dir });
    const reopened = fixtureDb(again);
    expect(await reopened.table('queue').toCollection().primaryKeys()).toEqual([...expected.queue!.keys, 8]);
    expect(await reopened.table('items').count()).toBe(expected.items!.keys.length);
    await closeAll(reopened, again);
  });

  // A journaled add into a store that generates its keys was replayed as a put without its key:
  // the key was generated again, from what the snapshot held, and came out lower than the one the
  // app was told when the highest record had been removed before the snapshot. A later deletion
  // of that key in the journal then missed it.
  it('gives a record added after a snapshot the key it was added under, even when the highest key was removed before', async () => {
    const dir = dataDir();
    const first = await queueDb(dir);
    for (let i = 1; i <= 3; i++) await first.db.table('queue').add({ name: `n${i}` });
    await first.db.table('queue').delete(3);
    await first.storage.compact();
    expect(await first.db.table('queue').add({ name: 'after' })).toBe(4);
    expect(await first.db.table('queue').add({ name: 'pushed' })).toBe(5);
    await first.db.table('queue').delete(5);
    await closeAll(first.db, first.storage);

    const second = await queueDb(dir);
    expect(await second.db.table('queue').toArray()).toEqual([
      { name: 'n1', seq: 1 },
      { name: 'n2', seq: 2 },
      { name: 'after', seq: 4 },
    ]);
    expect(await second.db.table('queue').add({ name: 'next' })).toBe(5);
    await closeAll(second.db, second.storage);
  });

  // A process killed between the two renames of a fold left a journal the snapshot already held
  // (format 1: its id equal to the snapshot's `covers`). It was not replayed, rightly, but it
  // was appended to, and so what was written after that restart was lost at the next.
  it('keeps what is written after a restart that found a journal its snapshot already held', async () => {
    const dir = dataDir();
    cpSync(FORMAT_1, dir, { recursive: true });
    writeFileSync(join(dbDir(dir), 'journal'), writeRecords([{ format: 1, db: 'pos-cloud-mirror:format-1', id: 2 }], 'PCMJ'));
    const first = await openFileStorage({ dataDir: dir });
    const db = fixtureDb(first);
    const key = await db.table('queue').add({ name: 'after-restart' });
    await closeAll(db, first);

    const second = await openFileStorage({ dataDir: dir });
    const again = fixtureDb(second);
    expect(await again.table('queue').get(key)).toEqual({ name: 'after-restart', seq: key });
    await closeAll(again, second);
  });

  it('opens without waiting for a long journal to be folded, and folds it afterwards', async () => {
    const dir = dataDir();
    const first = await queueDb(dir, { compactAtBytes: 1 << 20 });
    await first.db.table('queue').bulkAdd(Array.from({ length: 3_000 }, (_, i) => ({ name: `n${i}`, text: 'x'.repeat(200) })));
    await closeAll(first.db, first.storage);
    const files = join(dbDir(dir), 'snapshot');
    const before = readFileSync(files);

    const second = await queueDb(dir, { compactAtBytes: 1 << 20 });
    expect(await second.db.table('queue').count()).toBe(3_000);
    // Open, and queried: the snapshot is still the one it found (the journal is longer than a quarter of 1 MiB).
    expect(readFileSync(files).equals(before)).toBe(true);
    await second.storage.compact();
    expect(readFileSync(files).length).toBeGreaterThan(600_000);
    expect(readdirSync(dbDir(dir)).sort()).toEqual(['journal', 'snapshot']);
    await closeAll(second.db, second.storage);
    const third = await queueDb(dir);
    expect(await third.db.table('queue').count()).toBe(3_000);
    expect(third.storage.restored[0]!.replayed).toBe(0);
    await closeAll(third.db, third.storage);
  });

  it('refuses a snapshot whose records are out of key order, or two records with the key of a unique index, naming the file', async () => {
    const dir = dataDir();
    cpSync(FORMAT_1, dir, { recursive: true });
    // The snapshot alone: what is wrong is in it.
    rmSync(join(dbDir(dir), 'journal'));
    const snapshotPath = join(dbDir(dir), 'snapshot');
    const records = readRecords(readFileSync(snapshotPath));
    const items = records.find((r) => (r as { store?: string }).store === 'items') as { keys: unknown[]; values: { code: string }[] };

    items.keys.reverse();
    items.values.reverse();
    writeFileSync(snapshotPath, writeRecords(records));
    await expect(openFileStorage({ dataDir: dir })).rejects.toMatchObject({ name: 'StorageError', problem: 'corrupt', path: snapshotPath, message: expect.stringContaining('out of key order') });

    items.keys.reverse();
    items.values.reverse();
    items.values[1]!.code = items.values[0]!.code;
    writeFileSync(snapshotPath, writeRecords(records));
    const error = await openFileStorage({ dataDir: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ problem: 'corrupt', path: snapshotPath });
    expect((error as Error).message).toMatch(/items .* unique index code/);
  });

  it('refuses a journal kept beside the current one that ends in a torn record, naming it', async () => {
    const dir = dataDir();
    cpSync(FORMAT_1, dir, { recursive: true });
    const journal = join(dbDir(dir), 'journal');
    const older = join(dbDir(dir), 'journal-3');
    writeFileSync(older, Buffer.concat([readFileSync(journal), Buffer.from([9, 0, 0, 0, 1])]));
    writeFileSync(journal, writeRecords([{ format: 1, db: 'pos-cloud-mirror:format-1', id: 4 }], 'PCMJ'));
    await expect(openFileStorage({ dataDir: dir })).rejects.toMatchObject({ name: 'StorageError', problem: 'corrupt', path: older });
  });
});

/** The records of a file of records (magic, then length, CRC-32 and V8-serialized payload each). */
function readRecords(bytes: Buffer): unknown[] {
  const out: unknown[] = [];
  for (let at = 4; at < bytes.length; ) {
    const length = bytes.readUInt32LE(at);
    out.push(deserialize(bytes.subarray(at + 8, at + 8 + length)));
    at += 8 + length;
  }
  return out;
}

function writeRecords(records: unknown[], magic = 'PCMS'): Buffer {
  const parts = [Buffer.from(magic, 'latin1')];
  for (const record of records) {
    const payload = serialize(record);
    const frame = Buffer.alloc(8);
    frame.writeUInt32LE(payload.length, 0);
    frame.writeUInt32LE(crc32(payload), 4);
    parts.push(frame, payload);
  }
  return Buffer.concat(parts);
}
