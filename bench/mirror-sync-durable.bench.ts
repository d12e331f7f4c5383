/**
 * The durable store for Node (`openFileStorage`) beside fake-indexeddb alone: the first sync of a
 * ~100,000-record tenant into each (records/s), and a bare Dexie `bulkPut` of the same records into
 * the same durable store (its storage limit: every transaction journaled and fsynced), rounds
 * alternating; then restarts of the durable mirror in fresh processes (open the data directory,
 * restore, first delta sync; see `durable-restart.ts`), and the peak RSS of each process.
 * `LARGE=1` adds the ~1M-record tenant: its durable first sync and its restarts. `RESTARTS`
 * (default 3) sets the number of restart rounds; `RESTART_PROFILE=1` prints where the first
 * round's restarts spent their time.
 *
 *   npm run bench -- mirror-sync       (this file and mirror-sync.bench.ts)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoredRecord } from '../src/db/sync-rows.js';
import type { SizeOption } from '../src/simulator/size.js';
import { DURABLE_BENCH_DB, measureRestarts } from './durable-restart.js';
import { forkSimulator } from './simulator-process.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';
import { median } from './stats.js';
import { TENANT_100K } from './tenants.js';

const ROUNDS = Number(process.env.ROUNDS ?? smokeOr(1, 3));
const RESTARTS = Number(process.env.RESTARTS ?? smokeOr(1, 3));
const TENANT = smokeOr<SizeOption>('small', TENANT_100K);

await main();

async function libraries() {
  const { IDBFactory, IDBKeyRange } = await import('fake-indexeddb');
  const { createMirror } = await import('../src/mirror/create-mirror.js');
  const { openFileStorage } = await import('../src/node/index.js');
  const { MirrorDb } = await import('../src/db/mirror-db.js');
  const { COLLECTIONS } = await import('../src/schema/collections.js');
  return { IDBFactory, IDBKeyRange, createMirror, openFileStorage, MirrorDb, COLLECTIONS };
}

async function main(): Promise<void> {
  const lib = await libraries();
  const server = await forkSimulator({ size: TENANT, seed: 9 });
  const connection = { baseUrl: server.baseUrl, token: server.token, userAgent: 'pos-cloud-mirror bench', reconcileIntervalMs: 0 };
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-durable-'));
    dirs.push(dir);
    return dir;
  };
  let seq = 0;

  async function memoryRun(): Promise<number> {
    const mirror = lib.createMirror({ ...connection, dbName: `memory-${++seq}`, indexedDB: new lib.IDBFactory(), IDBKeyRange: lib.IDBKeyRange });
    const started = performance.now();
    await mirror.syncNow();
    const ms = performance.now() - started;
    await mirror.close();
    return ms;
  }

  async function durableRun(dataDir: string): Promise<{ ms: number; stored: Map<string, StoredRecord[]> | undefined }> {
    const storage = await lib.openFileStorage({ dataDir });
    const mirror = lib.createMirror({ ...connection, dbName: DURABLE_BENCH_DB, storage });
    const started = performance.now();
    await mirror.syncNow();
    const ms = performance.now() - started;
    let stored: Map<string, StoredRecord[]> | undefined;
    if (seq++ === 0) {
      stored = new Map();
      for (const c of [...lib.COLLECTIONS, 'categories'] as const) stored.set(c, await mirror.db.table(c).toArray());
    }
    await mirror.close();
    return { ms, stored };
  }

  async function bulkPutRun(stored: Map<string, StoredRecord[]>): Promise<number> {
    const storage = await lib.openFileStorage({ dataDir: newDir() });
    const db = new lib.MirrorDb('bulk', { indexedDB: storage.indexedDB, IDBKeyRange: storage.IDBKeyRange });
    storage.attach(db);
    await db.open();
    const started = performance.now();
    for (const [c, rows] of stored) {
      for (let i = 0; i < rows.length; i += 400) await db.table(c).bulkPut(rows.slice(i, i + 400));
    }
    const ms = performance.now() - started;
    db.close();
    await storage.close();
    return ms;
  }

  const firstDir = newDir();
  const first = await durableRun(firstDir);
  const stored = first.stored!;
  const total = [...stored.values()].reduce((n, rows) => n + rows.length, 0);
  const memory: number[] = [];
  const durable: number[] = [first.ms];
  const bulk: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bulk.push(await bulkPutRun(stored));
    memory.push(await memoryRun());
    if (round > 0) durable.push((await durableRun(newDir())).ms);
  }
  const rate = (ms: number[]) => total / (median(ms) / 1000);
  const fmt = (n: number) => Math.round(n).toLocaleString('en');
  console.log(`tenant: ${total.toLocaleString('en')} records stored${SMOKE_NOTE}`);
  console.log(`first sync into fake-indexeddb alone (in memory):        ${fmt(rate(memory))} records/s`);
  console.log(`first sync into the durable file storage:                ${fmt(rate(durable))} records/s`);
  console.log(`bare Dexie bulkPut into the same durable storage:        ${fmt(rate(bulk))} records/s`);
  console.log(`ratio durable sync / durable bulkPut: ${(rate(durable) / rate(bulk)).toFixed(2)}x; durable / in memory: ${(rate(durable) / rate(memory)).toFixed(2)}x (medians of ${ROUNDS})`);
  console.log(`peak RSS of this process: ${mb(process.resourceUsage().maxRSS * 1024)}`);
  await measureRestarts(`${total.toLocaleString('en')}-record mirror`, server, firstDir, RESTARTS);
  server.stop();

  if (process.env.LARGE) await large(lib);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

async function large(lib: Awaited<ReturnType<typeof libraries>>): Promise<void> {
  const size: SizeOption = 'large';
  const server = await forkSimulator({ size, seed: 9 });
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-durable-large-'));
  try {
    const storage = await lib.openFileStorage({ dataDir });
    const mirror = lib.createMirror({ baseUrl: server.baseUrl, token: server.token, userAgent: 'pos-cloud-mirror bench', reconcileIntervalMs: 0, dbName: DURABLE_BENCH_DB, storage });
    const started = performance.now();
    await mirror.syncNow();
    const seconds = (performance.now() - started) / 1000;
    const { total } = server;
    await mirror.close();
    console.log(`large durable first sync: ${total.toLocaleString('en')} records in ${seconds.toFixed(0)} s (${Math.round(total / seconds).toLocaleString('en')} records/s), peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}`);
    await measureRestarts('~1M mirror', server, dataDir, RESTARTS);
  } finally {
    server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}
