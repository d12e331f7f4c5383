import { Dexie } from 'dexie';
import { MirrorDb } from '../db/mirror-db.js';
import type { MirrorOptions } from './options.js';
import { resolveIndexedDb } from './resolve-indexeddb.js';

/**
 * The mirror's Dexie database named `name`, on the IndexedDB the options give (their `storage`,
 * their `indexedDB`, the runtime's, or fake-indexeddb in Node), with the options' extra indexes;
 * a storage is given the database to attach to. Nothing is opened yet: Dexie opens on first use.
 */
export function mirrorDatabase(name: string, options: Pick<MirrorOptions, 'indexedDB' | 'IDBKeyRange' | 'indexes' | 'storage'>): MirrorDb {
  const given = options.storage ?? { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange };
  const idb = resolveIndexedDb({ indexedDB: given.indexedDB, IDBKeyRange: given.IDBKeyRange });
  const db = new MirrorDb(name, { ...idb, indexes: options.indexes });
  options.storage?.attach?.(db);
  // Dexie's liveQuery stays silent unless its global dependencies name an IndexedDB, which a
  // runtime without one (Node) lacks: lend it ours. A runtime with its own is left alone.
  const lent: Partial<typeof Dexie.dependencies> = Dexie.dependencies;
  if (!lent.indexedDB && idb.indexedDB && idb.IDBKeyRange) {
    Dexie.dependencies.indexedDB = idb.indexedDB;
    Dexie.dependencies.IDBKeyRange = idb.IDBKeyRange;
  }
  return db;
}
