import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMirror, type Mirror } from '../../src/mirror/create-mirror.js';
import type { MirrorOptions } from '../../src/mirror/options.js';
import { openFileStorage, type FileStorageOptions } from '../../src/node/index.js';
import type { Simulator } from '../../src/simulator/index.js';

/** A fresh data directory under the system's temporary directory, removed by `cleanup`. */
export function tempDataDir(): { dataDir: string; cleanup(): void } {
  const dataDir = mkdtempSync(join(tmpdir(), 'pos-cloud-mirror-store-'));
  return { dataDir, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/**
 * The database the tests' durable mirrors open, named outright: a restart must find the very
 * database it left, not one derived from whatever base URL it is given this time.
 */
export const DURABLE_DB_NAME = 'pos-cloud-mirror:file-storage-test';

/** A mirror of `sim` on a file storage in `dataDir` (as a process would open it on start), on {@link DURABLE_DB_NAME}. */
export async function durableMirror(sim: Simulator, dataDir: string, extra: Partial<MirrorOptions> = {}, storage: Partial<FileStorageOptions> = {}): Promise<Mirror> {
  const opened = await openFileStorage({ dataDir, ...storage });
  return createMirror({
    baseUrl: sim.baseUrl,
    token: sim.token,
    userAgent: 'pos-cloud-mirror tests (dev@example.com)',
    dbName: DURABLE_DB_NAME,
    storage: opened,
    pollIntervalMs: 60_000,
    retry: { limit: 5, baseDelayMs: 1, backoffLimit: 5 },
    ...extra,
  });
}
