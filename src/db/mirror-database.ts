import { Dexie } from 'dexie';
import { MirrorDb, type IndexedDbDependencies } from './mirror-db.js';
import type { ExtraIndexes } from './stores.js';
import { PosCloudError } from '../errors/index.js';

/** The mirror's options that say where its database lives and what it indexes (see `MirrorOptions`). */
export interface MirrorDatabaseOptions extends IndexedDbDependencies {
  indexes?: ExtraIndexes | undefined;
  storage?: MirrorStorage | undefined;
}

/**
 * The mirror's Dexie database named `name`, on the IndexedDB the options give (their `storage`,
 * their `indexedDB`, the runtime's, or fake-indexeddb in Node), with the options' extra indexes;
 * a storage is given the database to attach to. Nothing is opened yet: Dexie opens on first use.
 */
export function mirrorDatabase(name: string, options: MirrorDatabaseOptions): MirrorDb {
  const idb = indexedDbOf(options);
  const db = new MirrorDb(name, { ...idb, indexes: options.indexes });
  options.storage?.attach?.(db);
  // Dexie's liveQuery stays silent unless its global dependencies name an IndexedDB, which a
  // runtime without one (Node) lacks: lend it ours. A runtime with its own is left alone.
  const lent: Partial<typeof Dexie.dependencies> = Dexie.dependencies;
  if (!lent.indexedDB) {
    Dexie.dependencies.indexedDB = idb.indexedDB;
    Dexie.dependencies.IDBKeyRange = idb.IDBKeyRange;
  }
  return db;
}

/** An IndexedDB implementation with its key range, as found for a mirror. */
export interface ResolvedIndexedDb {
  indexedDB: IDBFactory;
  IDBKeyRange: typeof IDBKeyRange;
}

/** The IndexedDB the options put the mirror's database in: their `storage`'s, their `indexedDB`, or as {@link resolveIndexedDb} finds it. */
export function indexedDbOf(options: MirrorDatabaseOptions): ResolvedIndexedDb {
  const given = options.storage ?? { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange };
  return resolveIndexedDb({ indexedDB: given.indexedDB, IDBKeyRange: given.IDBKeyRange });
}

/**
 * Where a mirror keeps its database, when not in the runtime's own IndexedDB: an IndexedDB
 * implementation, and what it needs of the database (`pos-cloud-mirror/node`'s `openFileStorage`
 * keeps it in a data directory, durable across restarts and crashes). The mirror owns the storage
 * it is given: `mirror.close()` closes it.
 */
export interface MirrorStorage {
  /** The IndexedDB the mirror's database lives in. */
  readonly indexedDB: IDBFactory;
  readonly IDBKeyRange: typeof IDBKeyRange;
  /**
   * Called with the mirror's database before it is opened (a durable store adds its journal as
   * Dexie middleware). May throw: a store that cannot hold this database (written by a newer
   * version, say) says so here, and `createMirror` throws it.
   */
  attach?(db: Dexie): void;
  /** Called once the mirror's database is closed (a durable store closes its files and gives up its lock). */
  close?(): Promise<void>;
  /**
   * The store keeps its data on disk, where no browser evicts it (`openFileStorage`): the mirror's
   * `status.persisted` is then `true`, and `persist()` resolves `true` without asking anyone.
   */
  readonly durable?: boolean;
}

/**
 * Finds IndexedDB for the mirror: the injected one, else the runtime's own (browsers, workers,
 * Electron), else, in Node, fake-indexeddb (an optional peer dependency, loaded synchronously
 * through `createRequire` so that browser bundles never see it).
 */
export function resolveIndexedDb(given: IndexedDbDependencies): ResolvedIndexedDb {
  // A runtime may lack both, whatever the DOM's types say (Node).
  const runtime: Partial<Pick<typeof globalThis, 'indexedDB' | 'IDBKeyRange'>> = globalThis;
  if (given.indexedDB) {
    const keyRange = given.IDBKeyRange ?? runtime.IDBKeyRange;
    if (!keyRange) throw new PosCloudError('createMirror: an injected indexedDB needs its IDBKeyRange too (option IDBKeyRange)');
    return { indexedDB: given.indexedDB, IDBKeyRange: keyRange };
  }
  if (runtime.indexedDB && runtime.IDBKeyRange) {
    return { indexedDB: runtime.indexedDB, IDBKeyRange: runtime.IDBKeyRange };
  }
  const getBuiltin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (getBuiltin) {
    try {
      const { createRequire } = getBuiltin('node:module') as typeof import('node:module');
      const fake = createRequire(import.meta.url)('fake-indexeddb') as { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange };
      return { indexedDB: fake.indexedDB, IDBKeyRange: fake.IDBKeyRange };
    } catch (cause) {
      throw new PosCloudError('createMirror: no IndexedDB here; install fake-indexeddb or pass indexedDB and IDBKeyRange', { cause });
    }
  }
  throw new PosCloudError('createMirror: no IndexedDB in this runtime; pass indexedDB and IDBKeyRange');
}
