import { PosCloudError } from '../errors/index.js';
import type { IndexedDbDependencies } from '../db/mirror-db.js';

/**
 * Finds IndexedDB for the mirror: the injected one, else the runtime's own (browsers, workers,
 * Electron), else, in Node, fake-indexeddb (an optional peer dependency, loaded synchronously
 * through `createRequire` so that browser bundles never see it).
 */
export function resolveIndexedDb(given: IndexedDbDependencies): Required<IndexedDbDependencies> {
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
