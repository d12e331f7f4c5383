import { existsSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize } from 'node:v8';
import { StorageError } from '../errors/index.js';
import { RecordReader } from './record-file.js';
import {
  FORMAT,
  JOURNAL_MAGIC,
  SNAPSHOT_MAGIC,
  type JournalEntry,
  type JournalHeader,
  type JournalOp,
  type JournalRange,
  type SnapshotHeader,
  type SnapshotRecord,
  type StoreSchema,
} from './store-format.js';

/** What was restored of one database. */
export interface RestoredDatabase {
  name: string;
  version: number;
  /** The directory of its files. */
  dir: string;
  /** The journal to append to (its id), or undefined when the snapshot has none yet. */
  journalId: number | undefined;
  /** The id of the journal the snapshot holds. */
  covers: number;
  /** Transactions replayed from the journal. */
  replayed: number;
}

/** How many records go into one restoring transaction. */
const BATCH = 2_000;

/**
 * Loads one database's files into `factory` (an in-memory IndexedDB): the snapshot's schema and
 * records, then the journal's transactions over them, in order. A torn last record of the journal
 * (a process killed while writing it: its transaction never committed) is cut off the file; any
 * other damage is a `StorageError` (`corrupt`) naming the file, and nothing is written.
 */
export async function restoreDatabase(factory: IDBFactory, keyRange: typeof IDBKeyRange, dir: string): Promise<RestoredDatabase | undefined> {
  const snapshotPath = join(dir, 'snapshot');
  const journalPath = join(dir, 'journal');
  if (!existsSync(snapshotPath)) {
    if (existsSync(journalPath)) throw corrupt(snapshotPath, 'missing: there is a journal but no snapshot to replay it over');
    return undefined;
  }
  const { header, db } = await loadSnapshot(factory, snapshotPath);
  let journalId: number | undefined;
  let replayed = 0;
  if (existsSync(journalPath)) {
    const journal = await replayJournal(db, keyRange, journalPath, header);
    journalId = journal.id;
    replayed = journal.replayed;
  }
  db.close();
  return { name: header.db, version: header.version, dir, journalId, covers: header.covers, replayed };
}

async function loadSnapshot(factory: IDBFactory, path: string): Promise<{ header: SnapshotHeader; db: IDBDatabase }> {
  const reader = open(path, SNAPSHOT_MAGIC);
  try {
    const header = reader.next() as SnapshotHeader | undefined;
    if (!header || header.format !== FORMAT || typeof header.db !== 'string' || !Array.isArray(header.stores)) {
      throw corrupt(path, `its header is not a snapshot of format ${FORMAT}`);
    }
    const db = await createDatabase(factory, header);
    let records = 0;
    for (let record = reader.next() as SnapshotRecord | undefined; ; record = reader.next() as SnapshotRecord | undefined) {
      if (record === undefined) throw corrupt(path, reader.end === 'complete' ? 'it ends before its last record' : `it is ${reader.end} at byte ${reader.validBytes}`);
      if ('end' in record) {
        if (record.records !== records) throw corrupt(path, `it holds ${records} records where its end says ${record.records}`);
        break;
      }
      await putAll(db, record.store, record.keys, record.values, header.stores);
      records += record.values.length;
    }
    return { header, db };
  } finally {
    reader.close();
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
    request.onerror = () => reject(request.error);
  });
}

/** Puts records into one store, in transactions of {@link BATCH}. */
async function putAll(db: IDBDatabase, store: string, keys: readonly unknown[], values: readonly unknown[], stores: readonly StoreSchema[]): Promise<void> {
  const inline = stores.find((s) => s.name === store)?.keyPath !== null;
  for (let start = 0; start < values.length; start += BATCH) {
    await inTransaction(db, [store], (tx) => {
      const target = tx.objectStore(store);
      for (let i = start; i < Math.min(values.length, start + BATCH); i++) {
        if (inline) target.put(values[i]);
        else target.put(values[i], keys[i] as IDBValidKey);
      }
    });
  }
}

async function replayJournal(db: IDBDatabase, keyRange: typeof IDBKeyRange, path: string, snapshot: SnapshotHeader): Promise<{ id: number; replayed: number }> {
  const reader = open(path, JOURNAL_MAGIC);
  let replayed = 0;
  let header: JournalHeader | undefined;
  try {
    header = reader.next() as JournalHeader | undefined;
    if (!header || header.format !== FORMAT || header.db !== snapshot.db || typeof header.id !== 'number') {
      throw corrupt(path, `its header is not a journal of ${snapshot.db} in format ${FORMAT}`);
    }
    // A journal the snapshot holds already (a process killed between the two steps of a compaction) is not replayed.
    if (header.id === snapshot.covers) return { id: header.id, replayed: 0 };
    const stores = [...db.objectStoreNames];
    let batch: JournalEntry[] = [];
    for (let entry = reader.next() as JournalEntry | undefined; entry !== undefined; entry = reader.next() as JournalEntry | undefined) {
      batch.push(entry);
      if (batch.length >= 200) {
        await applyEntries(db, keyRange, stores, batch);
        replayed += batch.length;
        batch = [];
      }
    }
    await applyEntries(db, keyRange, stores, batch);
    replayed += batch.length;
    if (reader.end === 'corrupt') throw corrupt(path, `a record before byte ${reader.validBytes + 1} is damaged and more follow it`);
  } finally {
    reader.close();
  }
  // A torn last record is a transaction that never committed: cut it, so appends follow a whole record.
  if (reader.end === 'torn') truncateSync(path, reader.validBytes);
  return { id: header.id, replayed };
}

function applyEntries(db: IDBDatabase, keyRange: typeof IDBKeyRange, stores: string[], entries: readonly JournalEntry[]): Promise<void> {
  if (entries.length === 0) return Promise.resolve();
  return inTransaction(db, stores, (tx) => {
    for (const entry of entries) for (const op of entry.ops) applyOp(tx, keyRange, op);
  });
}

/** Replays one write as the original transaction made it. */
export function applyOp(tx: IDBTransaction, keyRange: typeof IDBKeyRange, op: JournalOp): void {
  const store = tx.objectStore(op.s);
  if (op.t === 'put') {
    const inline = store.keyPath !== null;
    (deserialize(op.v) as unknown[]).forEach((value, i) => (inline ? store.put(value) : store.put(value, op.k[i] as IDBValidKey)));
  } else if (op.t === 'delete') {
    for (const key of op.k) store.delete(key as IDBValidKey);
  } else {
    const range = toKeyRange(keyRange, op.r);
    if (range === 'all') store.clear();
    else if (range !== undefined) store.delete(range);
  }
}

function toKeyRange(keyRange: typeof IDBKeyRange, r: JournalRange): IDBKeyRange | 'all' | undefined {
  if (r.type === 4) return undefined; // never
  if (r.type === 3) return 'all';
  if (r.type === 1) return keyRange.only(r.lower);
  const hasLower = r.lower !== undefined && r.lower !== null;
  const hasUpper = r.upper !== undefined && r.upper !== null;
  if (hasLower && hasUpper) return keyRange.bound(r.lower, r.upper, r.lowerOpen, r.upperOpen);
  if (hasLower) return keyRange.lowerBound(r.lower, r.lowerOpen);
  if (hasUpper) return keyRange.upperBound(r.upper, r.upperOpen);
  return 'all';
}

/** Runs `fill` in a readwrite transaction of `stores` and resolves when it commits. */
export function inTransaction(db: IDBDatabase, stores: string[], fill: (tx: IDBTransaction) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(stores, 'readwrite');
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
    fill(tx);
  });
}

function open(path: string, magic: string): RecordReader {
  try {
    return new RecordReader(path, magic);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM' || code === 'EISDIR') {
      throw new StorageError(`cannot read ${path}: ${(error as Error).message}`, { path, problem: 'unwritable', cause: error });
    }
    throw corrupt(path, (error as Error).message);
  }
}

function corrupt(path: string, what: string): StorageError {
  return new StorageError(`the durable store file ${path} is damaged: ${what}. It is left as it is; move the data directory aside to start afresh.`, {
    path,
    problem: 'corrupt',
  });
}
