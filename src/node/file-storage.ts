import { createHash } from 'node:crypto';
import { accessSync, constants, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Dexie } from 'dexie';
import { PosCloudError, StorageError, formatIssues, ValidationError } from '../errors/index.js';
import type { MirrorStorage } from '../db/mirror-database.js';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { DatabaseJournal } from './database-journal.js';
import { restoreDatabase, type RestoredDatabase } from './restore.js';

/** Options of {@link openFileStorage}. */
export interface FileStorageOptions {
  /** The directory the store lives in (created when missing). One process holds it at a time. */
  dataDir: string;
  /**
   * While another process holds `dataDir`, `openFileStorage` waits for it; aborting this signal
   * stops waiting (a `StorageError`, `locked`).
   */
  signal?: AbortSignal;
  /**
   * Start over: once the data directory is this process's, the databases it holds are removed
   * before anything is restored (the outbox too: edits not yet pushed are lost). Removing the
   * directory by hand instead would pull it from under a process still using it.
   * @default false
   */
  fresh?: boolean;
  /**
   * The journals are folded into a new snapshot, in the background, once they are longer than this
   * and than the snapshot (bytes).
   * @default 268_435_456 (256 MiB)
   */
  compactAtBytes?: number;
}

/** A durable store in a data directory, for one process: hand it to `createMirror({ storage })`. */
export interface FileStorage extends MirrorStorage {
  /** The data directory, absolute. */
  readonly dataDir: string;
  /** Always `true`: the data is on disk (a mirror on it says `status.persisted: true`). */
  readonly durable: true;
  /** What was found there when it opened: the databases restored, and the transactions replayed. */
  readonly restored: readonly { name: string; version: number; replayed: number }[];
  attach(db: Dexie): void;
  /**
   * Folds every journal into its snapshot now, and resolves when done. Not needed: a journal is
   * folded in the background once it outgrows its snapshot. A job may call it before a planned
   * stop, so that its next start reads one file.
   */
  compact(): Promise<void>;
  /** Closes the journals and gives the data directory up (`mirror.close()` calls it). */
  close(): Promise<void>;
}

/** The default of {@link FileStorageOptions.compactAtBytes}. */
const COMPACT_AT_BYTES = 256 * 1024 * 1024;

/**
 * Opens a durable store for a mirror in Node: the database the mirror works on is held in memory
 * (fake-indexeddb: Dexie, live queries and the engine work as everywhere), and every transaction
 * that commits is journaled to `dataDir` and made durable before the mirror hears it committed.
 * A restarted process finds the database as the last one left it, records, checkpoints, outbox,
 * in-flight snapshots, conflicts and quarantine alike, and resumes with a delta pull; a killed one
 * loses at most the transaction it was committing, which no one was told about.
 *
 * One process holds a data directory at a time: a second one waits here until the first closes
 * (or dies). Bad input is a `StorageError` naming the path, and nothing is overwritten: a
 * directory that cannot be written (`unwritable`), a damaged file (`corrupt`), a store written by a
 * newer version of the library (`newer-version`, thrown by `createMirror`).
 *
 * Needs `fake-indexeddb` (an optional peer dependency of the package) installed beside it.
 */
export async function openFileStorage(options: FileStorageOptions): Promise<FileStorage> {
  const dataDir = checkedDataDir(options);
  const compactAtBytes = options.compactAtBytes ?? COMPACT_AT_BYTES;
  makeWritable(dataDir);
  const lock = await lockDataDir(dataDir, { signal: options.signal });
  try {
    if (options.fresh) removeDatabases(dataDir);
    const { IDBFactory, IDBKeyRange } = await loadFakeIndexedDb();
    const factory = new IDBFactory();
    const restored = new Map<string, RestoredDatabase>();
    for (const entry of readdirSync(dataDir)) {
      if (!entry.startsWith('db-') || !statSync(join(dataDir, entry)).isDirectory()) continue;
      const database = await restoreDatabase(factory, join(dataDir, entry));
      if (database) restored.set(database.name, database);
    }
    return storageOver(dataDir, factory, IDBKeyRange, restored, lock, compactAtBytes);
  } catch (error) {
    lock.release();
    throw error;
  }
}

function storageOver(
  dataDir: string,
  factory: IDBFactory,
  keyRange: typeof IDBKeyRange,
  restored: ReadonlyMap<string, RestoredDatabase>,
  lock: DataDirLock,
  compactAtBytes: number,
): FileStorage {
  const journals: DatabaseJournal[] = [];
  let closed = false;
  return {
    dataDir,
    indexedDB: factory,
    IDBKeyRange: keyRange,
    restored: [...restored.values()].map(({ name, version, replayed }) => ({ name, version, replayed })),
    durable: true,
    attach(db) {
      if (closed) throw new PosCloudError(`the file storage in ${dataDir} is closed`);
      const dir = join(dataDir, directoryOf(db.name));
      const found = restored.get(db.name);
      // Dexie opens schema version n as IndexedDB version 10n.
      if (found && found.version > db.verno * 10) {
        throw new StorageError(
          `${dir} holds ${db.name} at schema version ${found.version / 10}, written by a newer version of pos-cloud-mirror (this one knows up to ${db.verno}). It is left as it is: upgrade the library, or move the directory aside.`,
          { path: dir, problem: 'newer-version' },
        );
      }
      makeWritable(dir);
      // The restored records go to the journal (for a snapshot of them) and are let go here.
      const journal = new DatabaseJournal(dir, db.name, keyRange, found ?? { journalId: undefined, nextJournalId: 1 }, compactAtBytes);
      if (found) found.records = undefined;
      journals.push(journal);
      db.use(journal.middleware());
      // Once open (and upgraded), before any other write: a new or upgraded schema gets its snapshot.
      db.on('ready', (ready) => journal.opened(ready.backendDB(), found?.version), true);
    },
    async compact() {
      await Promise.all(journals.map((journal) => journal.compact()));
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const journal of journals) await journal.close();
      lock.release();
    },
  };
}

/** The directory of a database: named after a hash of its name (any name is safe on any file system). */
function directoryOf(name: string): string {
  return `db-${createHash('sha256').update(name).digest('hex').slice(0, 24)}`;
}

function checkedDataDir(options: FileStorageOptions): string {
  const issues = [];
  const given: unknown = options;
  if (typeof given !== 'object' || given === null) issues.push({ path: [], message: 'expected an object' });
  else {
    if (typeof options.dataDir !== 'string' || options.dataDir.trim() === '') issues.push({ path: ['dataDir'], message: 'required: the directory to keep the store in' });
    const compact = options.compactAtBytes;
    if (compact !== undefined && !(Number.isSafeInteger(compact) && compact >= 1_024)) issues.push({ path: ['compactAtBytes'], message: 'must be a whole number of bytes >= 1024' });
    if (options.fresh !== undefined && typeof options.fresh !== 'boolean') issues.push({ path: ['fresh'], message: 'must be a boolean' });
    if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) issues.push({ path: ['signal'], message: 'must be an AbortSignal' });
  }
  if (issues.length > 0) {
    throw new ValidationError(`openFileStorage: ${formatIssues(issues, { whole: 'options' })}`, { issues });
  }
  return resolve(options.dataDir);
}

/** Removes every database directory of `dataDir` (the lock file stays: this process holds it). */
function removeDatabases(dataDir: string): void {
  for (const entry of readdirSync(dataDir)) {
    if (!entry.startsWith('db-')) continue;
    const path = join(dataDir, entry);
    try {
      rmSync(path, { recursive: true, force: true });
    } catch (error) {
      throw new StorageError(`cannot remove ${path} to start afresh: ${(error as Error).message}`, { path, problem: 'unwritable', cause: error });
    }
  }
}

/** Creates `dir` when missing and checks it can be written; a `StorageError` (`unwritable`) naming it otherwise. */
function makeWritable(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.R_OK | constants.W_OK);
  } catch (error) {
    throw new StorageError(`cannot use ${dir} for the durable store: ${(error as Error).message}`, { path: dir, problem: 'unwritable', cause: error });
  }
}

async function loadFakeIndexedDb(): Promise<{ IDBFactory: new () => IDBFactory; IDBKeyRange: typeof IDBKeyRange }> {
  try {
    return await import('fake-indexeddb');
  } catch (error) {
    throw new PosCloudError('openFileStorage needs fake-indexeddb: install it beside pos-cloud-mirror (npm install fake-indexeddb)', { cause: error });
  }
}
