import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createMirror, type Mirror } from '../../src/mirror/create-mirror.js';
import type { MirrorOptions } from '../../src/mirror/options.js';
import { openFileStorage } from '../../src/node/index.js';
import type { Simulator } from '../../src/simulator/index.js';

/** One device's storage: mirrors opened from it one after the other are that device's process restarting. */
export interface Device {
  /** Opens a mirror of `sim` as a (re)started process would. */
  open(sim: Simulator, extra?: Partial<MirrorOptions>): Promise<Mirror>;
  dispose(): void;
}

/** A storage the library supports in Node, as the parametrised suites use it. */
export interface StorageUnderTest {
  /** The database a device's mirror opens unless told otherwise. */
  dbName: string;
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
  device() {
    const indexedDB = new IDBFactory();
    return {
      open: (sim, extra = {}) =>
        Promise.resolve(createMirror({ baseUrl: sim.baseUrl, token: sim.token, dbName: memory.dbName, indexedDB, IDBKeyRange, ...COMMON, ...extra })),
      dispose: () => undefined,
    };
  },
};

/**
 * The file storage: a restart is a new process, the database restored from the data directory.
 * Its journal is folded into a snapshot every 64 KiB, so a first sync crosses several folds.
 */
const file: StorageUnderTest = {
  dbName: 'every-storage-file',
  device() {
    const dataDir = mkdtempSync(join(tmpdir(), 'pos-cloud-mirror-every-storage-'));
    return {
      async open(sim, extra = {}) {
        const storage = await openFileStorage({ dataDir, compactAtBytes: 64 * 1024 });
        return createMirror({ baseUrl: sim.baseUrl, token: sim.token, dbName: file.dbName, storage, ...COMMON, ...extra });
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
