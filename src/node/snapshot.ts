import { closeSync, fsyncSync, openSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { RecordWriter } from './record-file.js';
import { FORMAT, SNAPSHOT_MAGIC, type SnapshotHeader, type StoreSchema } from './store-format.js';

/** How many records one snapshot record holds. */
const CHUNK = 1_000;

/** The schema of an open database, as a snapshot keeps it. */
export function schemaOf(db: IDBDatabase, tx: IDBTransaction): StoreSchema[] {
  return [...db.objectStoreNames].map((name) => {
    const store = tx.objectStore(name);
    return {
      name,
      keyPath: store.keyPath,
      autoIncrement: store.autoIncrement,
      indexes: [...store.indexNames].map((indexName) => {
        const index = store.index(indexName);
        return { name: indexName, keyPath: index.keyPath, unique: index.unique, multiEntry: index.multiEntry };
      }),
    };
  });
}

/**
 * Writes a snapshot of `db` into `dir`: its schema and every record, read in one readonly
 * transaction over every store (so it is one consistent state, and no write commits while it is
 * taken), written to `snapshot.tmp` as it is read, made durable, then renamed over `snapshot`.
 * A process killed on the way leaves the previous snapshot in place. `covers` is the id of the
 * journal whose transactions the snapshot holds. Resolves once the new snapshot is in place;
 * `whileExclusive` runs right after, while no write can commit yet (to start the next journal).
 */
export function writeSnapshot(db: IDBDatabase, dir: string, covers: number, whileExclusive: () => void): Promise<void> {
  const temporary = join(dir, 'snapshot.tmp');
  const writer = new RecordWriter(temporary, 'w', SNAPSHOT_MAGIC);
  const names = [...db.objectStoreNames];
  return new Promise((resolve, reject) => {
    const tx = db.transaction(names, 'readonly');
    const header: SnapshotHeader = { format: FORMAT, db: db.name, version: db.version, stores: schemaOf(db, tx), covers };
    writer.write(header);
    let records = 0;
    const readStore = (index: number): void => {
      const name = names[index];
      if (name === undefined) return;
      const request = tx.objectStore(name).openCursor();
      let keys: unknown[] = [];
      let values: unknown[] = [];
      const flush = () => {
        if (values.length === 0) return;
        writer.write({ store: name, keys, values });
        records += values.length;
        keys = [];
        values = [];
      };
      request.onsuccess = () => {
        const cursor = request.result;
        if (!cursor) {
          flush();
          readStore(index + 1);
          return;
        }
        keys.push(cursor.primaryKey);
        values.push(cursor.value);
        if (values.length >= CHUNK) flush();
        cursor.continue();
      };
    };
    tx.oncomplete = () => {
      try {
        writer.write({ end: true, records });
        writer.sync();
        writer.close();
        renameSync(temporary, join(dir, 'snapshot'));
        syncDirectory(dir);
        whileExclusive();
        resolve();
      } catch (error) {
        reject(error);
      }
    };
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
    readStore(0);
  });
}

/** Makes a rename in `dir` durable (`fsync` of the directory). */
export function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
