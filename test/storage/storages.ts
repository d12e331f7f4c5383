import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createMirror, type Mirror } from '../../src/mirror/create-mirror.js';
import type { MirrorOptions } from '../../src/mirror/options.js';
import { openFileStorage } from '../../src/node/index.js';
import type { Simulator } from '../../src/simulator/index.js';

/** Where a file storage's journal stands, read from its files. */
export interface JournalState {
  /** The inode of the file appended to: a fold begins a new journal, so it changes with every fold. */
  journal: number;
  /** Bytes of the journals a snapshot does not hold yet. */
  bytes: number;
  /** The size the journals are folded at: the larger of `compactAtBytes` and the snapshot's size. */
  foldsAt: number;
}

/** One device's storage: mirrors opened from it one after the other are that device's process restarting. */
export interface Device {
  /** Opens a mirror of `sim` as a (re)started process would. */
  open(sim: Simulator, extra?: Partial<MirrorOptions>): Promise<Mirror>;
  /**
   * Opens database `name` with plain Dexie on this storage, as a process of an earlier release did,
   * for `declare` to give it that release's schema; `close` ends that process.
   */
  openDexie(name: string, declare: (db: Dexie) => void): Promise<{ db: Dexie; close(): Promise<void> }>;
  /** The file storage's journal of database `name` (undefined where there is none); `fold` folds it now, or waits for a fold under way. */
  journal: { state(name: string): JournalState; fold(mirror: Mirror): Promise<void> } | undefined;
  dispose(): void;
}

/** A storage the library supports in Node, as the parametrised suites use it. */
export interface StorageUnderTest {
  /** The database a device's mirror opens unless told otherwise. */
  dbName: string;
  /** Whether it keeps a journal on disk (see `Device.journal`). */
  journaled: boolean;
  device(): Device;
}

const COMMON = {
  userAgent: 'pos-cloud-mirror tests (every storage)',
  pollIntervalMs: 60_000,
  retry: { limit: 5, baseDelayMs: 1, backoffLimit: 5 },
} as const;

/** fake-indexeddb in memory: a restart is a page reload, the same IndexedDB seen by a new mirror. */
const memory: StorageUnderTest = {
  dbName: 'every-storage-memory',
  journaled: false,
  device() {
    const indexedDB = new IDBFactory();
    return {
      open: (sim, extra = {}) =>
        Promise.resolve(createMirror({ baseUrl: sim.baseUrl, token: sim.token, dbName: memory.dbName, indexedDB, IDBKeyRange, ...COMMON, ...extra })),
      openDexie(name, declare) {
        const db = new Dexie(name, { indexedDB, IDBKeyRange });
        declare(db);
        return Promise.resolve({ db, close: () => Promise.resolve(db.close()) });
      },
      journal: undefined,
      dispose: () => undefined,
    };
  },
};

/** The journals are folded at 64 KiB (once past the snapshot's size too). */
const COMPACT_AT_BYTES = 64 * 1024;

/**
 * The file storage: a restart is a new process, the database restored from the data directory.
 * Its journal is folded into a snapshot every 64 KiB, so a first sync crosses several folds.
 */
const file: StorageUnderTest = {
  dbName: 'every-storage-file',
  journaled: true,
  device() {
    const dataDir = mkdtempSync(join(tmpdir(), 'pos-cloud-mirror-every-storage-'));
    const storages = new WeakMap<Mirror, { compact(): Promise<void> }>();
    return {
      async open(sim, extra = {}) {
        const storage = await openFileStorage({ dataDir, compactAtBytes: COMPACT_AT_BYTES });
        const mirror = createMirror({ baseUrl: sim.baseUrl, token: sim.token, dbName: file.dbName, storage, ...COMMON, ...extra });
        storages.set(mirror, storage);
        return mirror;
      },
      async openDexie(name, declare) {
        const storage = await openFileStorage({ dataDir, compactAtBytes: COMPACT_AT_BYTES });
        const db = new Dexie(name, { indexedDB: storage.indexedDB, IDBKeyRange: storage.IDBKeyRange });
        declare(db);
        storage.attach(db);
        return {
          db,
          async close() {
            db.close();
            await storage.close();
          },
        };
      },
      journal: {
        state(name) {
          // The directory the file storage keeps database `name` in (`directoryOf` in src/node/file-storage.ts).
          const dir = join(dataDir, `db-${createHash('sha256').update(name).digest('hex').slice(0, 24)}`);
          const files = readdirSync(dir);
          const size = (f: string) => statSync(join(dir, f)).size;
          return {
            journal: statSync(join(dir, 'journal')).ino,
            bytes: files.filter((f) => f === 'journal' || /^journal-\d+$/.test(f)).reduce((total, f) => total + size(f), 0),
            foldsAt: Math.max(COMPACT_AT_BYTES, files.includes('snapshot') ? size('snapshot') : 0),
          };
        },
        fold: (mirror) => storages.get(mirror)!.compact(),
      },
      dispose: () => rmSync(dataDir, { recursive: true, force: true }),
    };
  },
};

/** Every storage of the library in Node, by name, for `describe.each`. */
export const STORAGES: readonly [string, StorageUnderTest][] = [
  ['fake-indexeddb in memory', memory],
  ['the file storage', file],
];
