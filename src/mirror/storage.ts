import type { Dexie } from 'dexie';

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
}
