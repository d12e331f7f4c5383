/**
 * The large rounds' host for WebKit: each round in a MiniBrowser of its own outside WebDriver,
 * driven through its inspector (`scripts/engines/webkit-inspector.ts`), whose website data is on disk as on a
 * person's device (under WebKitWebDriver the session is ephemeral and IndexedDB lives in memory).
 *
 * Where the data is: the browser is started with its XDG folders inside a fresh folder of its own,
 * and MiniBrowser keeps its website data under `$XDG_DATA_HOME/webkitgtk-4.1/MiniBrowser/`.
 * WebKit's IndexedDB puts each database in a folder named by the SHA-256 of the database's name
 * (upper-case hex), holding `IndexedDB.sqlite3` and SQLite's `-wal` and `-shm` beside it (in
 * WebKitGTK 2.50: `databases/indexeddb/v1/<origin>/<hash>/`). The size on disk is that folder's,
 * found by the hash of the mirror's database name anywhere under the browser's data folder: when
 * no such folder holds an `IndexedDB.sqlite3`, or more than one does, there is no figure, and the
 * round says why, rather than a guess.
 *
 * The JS heap: the inspector's `Memory` domain reports, about every 500 ms from WebKit's
 * resource-usage thread, a `javascript` category: the blocks JavaScriptCore's garbage-collected
 * heap has allocated plus the memory its objects own (array buffers, large strings). That is the
 * heap's footprint (free cells in its blocks and garbage not yet collected included), not
 * Chromium's bytes in use: the two engines' peaks are not the same measure.
 *
 * Not a benchmark itself: `bench/run.ts` runs only files named `*.bench.ts`.
 */
import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { BenchServer } from './bench-page.js';
import type { DiskReading, HeapReading, LargeHost } from './large-sync.js';
import { inspectedTab, inspectWebKitPage, type InspectedPage } from '../../scripts/engines/webkit-inspector.js';

/** The file WebKit keeps a database's records in, inside the database's folder. */
const DATABASE_FILE = 'IndexedDB.sqlite3';

/** A MiniBrowser outside WebDriver per round, IndexedDB on disk. */
export function webkitOnDiskHost(server: BenchServer): LargeHost {
  return {
    heapMeasure: "JavaScriptCore's heap footprint (inspector Memory domain, 'javascript' category, about every 500 ms)",
    async open() {
      const page = await inspectWebKitPage(server.url('index.html'));
      try {
        const tab = await inspectedTab(page);
        return { tab, readHeap: () => readHeap(page), diskBytes: (dbName) => databaseBytes(page.dataDir, dbName), close: () => page.close() };
      } catch (error) {
        await page.close();
        throw error;
      }
    },
  };
}

/** Event of the `Memory` domain, as far as this file reads it. */
interface MemoryUpdate {
  event: { categories: { type: string; size: number }[] };
}

/** Tracks the `Memory` domain's readings until stopped, keeping the largest `javascript` one. */
async function readHeap(page: InspectedPage): Promise<{ stop(): Promise<HeapReading> }> {
  let peak = 0;
  let samples = 0;
  const off = page.on('Memory.trackingUpdate', (params) => {
    const javascript = (params as unknown as MemoryUpdate).event.categories.find((c) => c.type === 'javascript');
    if (!javascript) return;
    peak = Math.max(peak, javascript.size);
    samples++;
  });
  await page.send('Memory.enable');
  await page.send('Memory.startTracking');
  return {
    async stop() {
      await page.send('Memory.stopTracking').catch(() => undefined);
      off();
      return { peak: samples > 0 ? peak : null, samples };
    },
  };
}

/** The bytes of the database's folder, found by the hash of its name under the browser's data folder. */
async function databaseBytes(dataDir: string, dbName: string): Promise<DiskReading> {
  const hash = createHash('sha256').update(dbName).digest('hex').toUpperCase();
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      if (entry.name === hash && (await readdir(path).catch((): string[] => [])).includes(DATABASE_FILE)) found.push(path);
      else await walk(path);
    }
  };
  await walk(dataDir);
  if (found.length !== 1) {
    const why = found.length === 0 ? 'no folder' : `${found.length} folders`;
    return { bytes: null, from: `none: ${why} named by the SHA-256 of "${dbName}" with an ${DATABASE_FILE} under MiniBrowser's data folder` };
  }
  const folder = found[0]!;
  let bytes = 0;
  const files: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const size = (await stat(join(folder, entry.name))).size;
    bytes += size;
    files.push(`${entry.name} ${(size / 1024 / 1024).toFixed(1)} MB`);
  }
  // SQLite's write-ahead log is part of what the database takes until it is checkpointed: each file is named.
  return { bytes, from: `$XDG_DATA_HOME/${relative(join(dataDir, 'data'), folder)} (${files.sort().join(', ')})` };
}
