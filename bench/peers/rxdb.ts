/**
 * RxDB: `replicateRxCollection`, pull only, into its free Dexie storage (`rxdb/plugins/storage-dexie`)
 * over the run's IndexedDB, with the pull handler of `rxdb-pull.ts` and the schemas of `rxdb-schema.ts`.
 * Configured as RxDB advises for production: no dev-mode (it refuses the service's field names
 * `_v`, `_d`, `_t`, error SC1, and needs a validator plugin) and no validator (the read face checked
 * the records). The free version keeps at most 13 collections open at once (error COL23): a tenant's
 * 14 collections are copied in groups, each group's collections closed before the next opens (the
 * data stays in IndexedDB). Within a group the replications run side by side, as an app would start
 * them. Not a benchmark itself.
 */
import { createRxDatabase, NON_PREMIUM_COLLECTION_LIMIT, type RxCollection, type RxDatabase } from 'rxdb';
import { replicateRxCollection } from 'rxdb/plugins/replication';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import type { CollectionName } from '../../src/schema/collections.js';
import type { Candidate } from './candidate.js';
import { PAGE_LIMIT, type Server } from './job.js';
import { pullPage, type PullCheckpoint, type RxRecord } from './rxdb-pull.js';
import { rxSchema } from './rxdb-schema.js';

const DATABASE = 'peersrxdb';

export const rxdb: Candidate = async (job, { indexedDB, IDBKeyRange }) => {
  let database: RxDatabase | undefined;

  /** Pulls `name` to the end, or rejects on the first error (RxDB would retry every 5 s). */
  async function replicate(collection: RxCollection<RxRecord>, name: CollectionName, server: Server): Promise<void> {
    const state = replicateRxCollection<RxRecord, PullCheckpoint>({
      collection,
      replicationIdentifier: `pos-cloud-${name}`,
      live: false,
      waitForLeadership: false,
      autoStart: true,
      pull: { batchSize: PAGE_LIMIT, handler: (checkpoint, batchSize) => pullPage(server, name, checkpoint, batchSize) },
    });
    let subscription: { unsubscribe(): void } | undefined;
    const failed = new Promise<never>((_, reject) => {
      subscription = state.error$.subscribe((error) => reject(error));
    });
    try {
      await Promise.race([state.awaitInitialReplication(), failed]);
    } finally {
      subscription?.unsubscribe();
      await state.cancel();
    }
  }

  return {
    async sync() {
      database = await createRxDatabase({ name: DATABASE, storage: getRxStorageDexie({ indexedDB, IDBKeyRange }), multiInstance: false });
      const db = database;
      for (const group of groups(job.collections, NON_PREMIUM_COLLECTION_LIMIT)) {
        await db.addCollections(Object.fromEntries(group.map((c) => [c, { schema: rxSchema(c) }])));
        await Promise.all(group.map((c) => replicate(db.collections[c] as RxCollection<RxRecord>, c, job)));
        await Promise.all(group.map((c) => db.collections[c]!.close()));
      }
    },
    async count() {
      // Every stored document, deleted ones included, counted in RxDB's Dexie databases themselves
      // (through IndexedDB: a second copy of Dexie refuses to load beside RxDB's own).
      let n = 0;
      for (const c of job.collections) n += await countStore(indexedDB, `rxdb-dexie-${DATABASE}--0--${c}`, 'docs');
      return n;
    },
    async close() {
      await database?.close();
    },
  };
};

/** Records in object store `store` of database `name`. */
function countStore(indexedDB: IDBFactory, name: string, store: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(name);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const request = db.transaction(store, 'readonly').objectStore(store).count();
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        db.close();
        resolve(request.result);
      };
    };
  });
}

/** `items` in as few groups as `size` allows, of sizes as even as possible. */
function groups<T>(items: readonly T[], size: number): T[][] {
  const count = Math.ceil(items.length / size);
  const out: T[][] = [];
  for (let i = 0; i < count; i++) out.push(items.slice(Math.floor((i * items.length) / count), Math.floor(((i + 1) * items.length) / count)));
  return out;
}
