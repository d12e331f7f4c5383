import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RecordWriter } from './record-file.js';
import type { SortedRecords } from './store-contents.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_MAGIC, type SnapshotHeader, type StoreSchema } from './store-format.js';

/** How many records one snapshot record holds (read from the database in one short transaction). */
const CHUNK = 1_000;

/** The schema of an open database, as a snapshot keeps it. */
export function schemaOf(db: IDBDatabase): StoreSchema[] {
  const names = [...db.objectStoreNames];
  if (names.length === 0) return [];
  const tx = db.transaction(names, 'readonly');
  return names.map((name) => {
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

/** Where the replay of a snapshot starts: journal `journal`, at byte `from`. */
export interface ReplayStart {
  journal: number;
  from: number;
}

/** Records of one store for a snapshot, in ascending key order (the chunks of a store follow each other). */
export interface SnapshotChunk {
  store: string;
  keys: unknown[];
  values: unknown[];
}

/** How a snapshot is written beside other work. */
export interface SnapshotPace {
  /** True to give up (nothing changes on disk). */
  stopped(): boolean;
  /**
   * True to rest after each chunk twice as long as the chunk took: the snapshot then takes at
   * most a third of the thread, so that a sync or a query running beside it is barely slowed.
   */
  background(): boolean;
}

/**
 * Writes a snapshot into `dir`: `header`, then the chunks, to `snapshot.tmp`, made durable, then
 * renamed over `snapshot`. Resolves true once it is in place, false when `pace.stopped()` said to
 * give up first (nothing changed on disk). The chunks come from the live database
 * (`chunksOfDatabase`) or from records just restored (`chunksOfRecords`).
 */
export async function writeSnapshot(dir: string, header: SnapshotHeader, chunks: AsyncIterable<SnapshotChunk>, pace: SnapshotPace): Promise<boolean> {
  const temporary = join(dir, 'snapshot.tmp');
  const writer = new RecordWriter(temporary, 'w', SNAPSHOT_MAGIC);
  let done = false;
  try {
    writer.write(header);
    let records = 0;
    const iterator = chunks[Symbol.asyncIterator]();
    for (;;) {
      const started = performance.now();
      const next = await iterator.next();
      if (next.done) break;
      if (pace.stopped()) return false;
      writer.write(next.value);
      records += next.value.keys.length;
      if (pace.background()) await new Promise((resolve) => setTimeout(resolve, Math.ceil(2 * (performance.now() - started))));
    }
    if (pace.stopped()) return false;
    writer.write({ end: true, records });
    writer.sync();
    writer.close();
    done = true;
    renameSync(temporary, join(dir, 'snapshot'));
    syncDirectory(dir);
    return true;
  } finally {
    if (!done) {
      writer.close();
      rmSync(temporary, { force: true });
    }
  }
}

/** The header of a snapshot of `db` whose replay starts in journal `journal` at byte `from`. */
export function snapshotHeader(db: IDBDatabase, journal: number, from: number): SnapshotHeader {
  return { format: SNAPSHOT_FORMAT, db: db.name, version: db.version, stores: schemaOf(db), journal, from };
}

/**
 * Every record of `db`, store by store in key order, read in chunks, each in a transaction of
 * its own: writes go on committing while a large database is read, so a snapshot never holds it
 * still. A record written meanwhile may be read before or after its write, or not at all when it
 * is new; every such write is in the journal after the place the snapshot says its replay starts
 * at (taken before the first chunk), and replaying a write gives the same record whatever the
 * snapshot held (a put stores the whole value, a deletion removes it). A record no one writes
 * meanwhile is read exactly once, since the chunks follow each other by key.
 */
export async function* chunksOfDatabase(db: IDBDatabase, keyRange: typeof IDBKeyRange): AsyncGenerator<SnapshotChunk> {
  for (const store of db.objectStoreNames) {
    let after: IDBKeyRange | undefined;
    for (;;) {
      const chunk = await readChunk(db, store, after);
      if (chunk.keys.length > 0) yield chunk;
      if (chunk.keys.length < CHUNK) break;
      after = keyRange.lowerBound(chunk.keys[chunk.keys.length - 1], true);
    }
  }
}

/**
 * The records a restore just loaded, in chunks: they are the database exactly as it stood at one
 * place of its journal, without reading it back.
 */
// eslint-disable-next-line @typescript-eslint/require-await -- async for the restore's consumers, which read snapshots from files too
export async function* chunksOfRecords(stores: Map<string, SortedRecords>): AsyncGenerator<SnapshotChunk> {
  for (const [store, { keys, values }] of stores) {
    for (let start = 0; start < keys.length; start += CHUNK) {
      yield { store, keys: keys.slice(start, start + CHUNK), values: values.slice(start, start + CHUNK) };
    }
  }
}

/** Up to {@link CHUNK} records of `store` after `after`, in key order, read in one readonly transaction. */
function readChunk(db: IDBDatabase, store: string, after: IDBKeyRange | undefined): Promise<SnapshotChunk> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction([store], 'readonly');
    const target = tx.objectStore(store);
    const keys = target.getAllKeys(after, CHUNK);
    const values = target.getAll(after, CHUNK);
    tx.oncomplete = () => resolve({ store, keys: keys.result, values: values.result as unknown[] });
    tx.onerror = () => reject(tx.error ?? new Error(`reading ${store} for a snapshot failed`));
    tx.onabort = () => reject(tx.error ?? new Error(`reading ${store} for a snapshot was aborted`));
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
