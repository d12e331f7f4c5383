import { loadInBulk } from './bulk-load.js';
import { compareKeys } from './key-order.js';
import type { SortedRecords } from './store-contents.js';
import type { SnapshotHeader, StoreSchema } from './store-format.js';

/** Thrown when a unique index would hold a key twice: the data is damaged. */
export class DuplicateKeyError extends Error {}

/** How many requests one restoring transaction holds (fake-indexeddb's request queue costs the square of its length). */
const PUTS_PER_TRANSACTION = 2_000;

/**
 * Creates the database of `header` in `factory` and loads every store's records into it: in
 * bulk where this fake-indexeddb allows it (see `bulk-load.ts`), checked through the public API;
 * otherwise, or when that check fails, the database is created again and loaded one put at a
 * time. Resolves with the way it went.
 */
export async function loadStores(factory: IDBFactory, header: SnapshotHeader, sorted: Map<string, SortedRecords>): Promise<'bulk' | 'put'> {
  const db = await createDatabase(factory, header);
  try {
    if (await loadAllInBulk(db, header.stores, sorted)) return 'bulk';
  } finally {
    db.close();
  }
  await deleteDatabase(factory, header.db);
  const again = await createDatabase(factory, header);
  try {
    for (const store of header.stores) await putAll(again, store, sorted.get(store.name)!);
  } finally {
    again.close();
  }
  return 'put';
}

async function loadAllInBulk(db: IDBDatabase, stores: readonly StoreSchema[], sorted: Map<string, SortedRecords>): Promise<boolean> {
  // A store that generates keys goes on from its largest key, as after puts of every record.
  await inTransaction(db, stores.map((s) => s.name), (tx) => {
    for (const store of stores) if (store.autoIncrement) advanceKeyGenerator(tx.objectStore(store.name), store, sorted.get(store.name)!);
  });
  const entries = new Map<string, Map<string, { key: unknown; value: unknown }[]>>();
  for (const store of stores) {
    const load = loadInBulk(db, store, sorted.get(store.name)!);
    if (!load.loaded) {
      if (load.duplicate !== undefined) throw new DuplicateKeyError(`two records of ${store.name} have the same key in its unique index ${load.duplicate}`);
      return false;
    }
    entries.set(store.name, load.entries);
  }
  return looksLoaded(db, stores, sorted, entries);
}

/**
 * Checks through the public API that each store holds what was loaded: its count, its first,
 * middle and last keys, and for each index its count and first entry.
 */
function looksLoaded(db: IDBDatabase, stores: readonly StoreSchema[], sorted: Map<string, SortedRecords>, entries: Map<string, Map<string, { key: unknown; value: unknown }[]>>): Promise<boolean> {
  return new Promise((resolve) => {
    let good = true;
    const expect = (request: IDBRequest, check: (result: unknown) => boolean) => {
      request.onsuccess = () => {
        if (!check(request.result)) good = false;
      };
    };
    const tx = db.transaction(stores.map((s) => s.name), 'readonly');
    for (const store of stores) {
      const { keys } = sorted.get(store.name)!;
      const target = tx.objectStore(store.name);
      expect(target.count(), (n) => n === keys.length);
      for (const at of new Set([0, keys.length >>> 1, keys.length - 1])) {
        if (at >= 0 && at < keys.length) expect(target.getKey(keys[at] as IDBValidKey), (key) => key !== undefined && compareKeys(key, keys[at]) === 0);
      }
      for (const [name, indexed] of entries.get(store.name)!) {
        const index = target.index(name);
        expect(index.count(), (n) => n === indexed.length);
        const first = indexed[0];
        if (first) expect(index.openKeyCursor(), (cursor) => cursor instanceof Object && compareKeys((cursor as IDBCursor).key, first.key) === 0 && compareKeys((cursor as IDBCursor).primaryKey, first.value) === 0);
      }
    }
    tx.oncomplete = () => resolve(good);
    tx.onabort = () => resolve(false);
  });
}

/** Moves the key generator of `target` past the largest key of `records` (a put and a delete of that key). */
function advanceKeyGenerator(target: IDBObjectStore, store: StoreSchema, records: SortedRecords): void {
  let largest: number | undefined;
  for (const key of records.keys) if (typeof key === 'number' && (largest === undefined || key > largest)) largest = key;
  if (largest === undefined || largest < 1) return;
  if (typeof store.keyPath === 'string') {
    // The key where the key path leads (`a.b` → `{ a: { b: key } }`).
    const value = store.keyPath.split('.').reduceRight<unknown>((inner, name) => ({ [name]: inner }), largest);
    target.put(value);
  } else target.put(null, largest);
  target.delete(largest);
}

/** Puts records into one store, in transactions of {@link PUTS_PER_TRANSACTION}. */
async function putAll(db: IDBDatabase, store: StoreSchema, records: SortedRecords): Promise<void> {
  const { keys, values } = records;
  for (let start = 0; start < values.length; start += PUTS_PER_TRANSACTION) {
    await inTransaction(db, [store.name], (tx) => {
      const target = tx.objectStore(store.name);
      for (let i = start; i < Math.min(values.length, start + PUTS_PER_TRANSACTION); i++) {
        if (store.keyPath !== null) target.put(values[i]);
        else target.put(values[i], keys[i] as IDBValidKey);
      }
    }).catch((error: unknown) => {
      if ((error as Error | null)?.name === 'ConstraintError') throw new DuplicateKeyError(`two records of ${store.name} have the same key in one of its unique indexes`);
      throw error;
    });
  }
}

/** Creates the database of `header` with its stores and indexes, empty. */
function createDatabase(factory: IDBFactory, header: SnapshotHeader): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(header.db, header.version);
    request.onupgradeneeded = () => {
      const db = request.result;
      for (const store of header.stores) {
        const created = db.createObjectStore(store.name, { keyPath: store.keyPath, autoIncrement: store.autoIncrement });
        for (const index of store.indexes) created.createIndex(index.name, index.keyPath, { unique: index.unique, multiEntry: index.multiEntry });
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error(`opening ${header.db} failed`));
  });
}

function deleteDatabase(factory: IDBFactory, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = factory.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error(`deleting ${name} failed`));
  });
}

/** Runs `fill` in a readwrite transaction of `stores` and resolves when it commits. */
export function inTransaction(db: IDBDatabase, stores: string[], fill: (tx: IDBTransaction) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(stores, 'readwrite');
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('a write transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('a write transaction was aborted'));
    fill(tx);
  });
}
