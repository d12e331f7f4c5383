/**
 * What replacing one record costs in each engine's IndexedDB, by the size of its store and the
 * number of its secondary indexes: a `put` over an existing key (what a `save()` of an edit, and a
 * pull's page of changed records, does), a `put` of a new key, and a `delete`, each in a
 * transaction of its own, timed from the request to the transaction's `complete`, one after the other (the mean is printed). Records of about
 * 300 bytes with six string fields that the indexes cover, in a fresh database per case.
 *
 * It shows why a save on a large table is slow in WebKit: there a `put` over an existing record, or
 * a `delete`, costs more the more rows and indexes the store has, while a `put` of a new key does
 * not; Chromium and Firefox stay flat.
 *
 *   npm run bench -- index-update     ENGINES=chromium,firefox,webkit (default: all three) WRITES=30
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchEngine, selectedEngines, type EngineTab } from '../scripts/engines/index.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';

const ENGINES = selectedEngines(process.env.ENGINES);
const WRITES = Number(process.env.WRITES ?? smokeOr(5, 30));
/** Rows in the store, and secondary indexes on it. */
const CASES: readonly (readonly [rows: number, indexes: number])[] = smokeOr(
  [
    [1_000, 0],
    [1_000, 6],
  ],
  [
    [1_000, 0],
    [1_000, 6],
    [25_000, 0],
    [25_000, 1],
    [25_000, 3],
    [25_000, 6],
  ],
);

/** Means of one case (ms a write). */
interface CaseResult {
  update: number;
  insert: number;
  remove: number;
}

console.log(`index-update: ${WRITES} writes of each kind per case, one after the other, mean ms a write, a fresh database per case; engines ${ENGINES.join(', ')}${SMOKE_NOTE}`);
const server = createServer((_, res) => {
  res.setHeader('content-type', 'text/html');
  res.end('<!doctype html><title>index-update</title>');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
try {
  for (const engine of ENGINES) {
    const browser = await launchEngine(engine);
    try {
      const tab = await browser.newTab();
      await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      console.log(`\n${browser.version}`);
      const flat = new Map<number, CaseResult>();
      for (const [rows, indexes] of CASES) {
        const r = await timeCase(tab, rows, indexes);
        if (indexes === 0) flat.set(rows, r);
        const base = flat.get(rows);
        const ratio = base && indexes > 0 ? ` (update ${(r.update / Math.max(base.update, 0.1)).toFixed(1)}x the store without indexes)` : '';
        console.log(`  ${String(rows).padStart(6)} rows, ${indexes} indexes: update ${r.update.toFixed(1)} ms, insert ${r.insert.toFixed(1)} ms, delete ${r.remove.toFixed(1)} ms${ratio}`);
      }
    } finally {
      await browser.close();
    }
  }
} finally {
  server.close();
}

async function timeCase(tab: EngineTab, rows: number, indexes: number): Promise<CaseResult> {
  return tab.evaluate(
    async ([rows, indexes, writes]) => {
      const name = `index-update-${rows}-${indexes}-${Math.random().toString(36).slice(2)}`;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name, 1);
        open.onupgradeneeded = () => {
          const store = open.result.createObjectStore('t', { keyPath: 'id' });
          for (let i = 0; i < indexes; i++) store.createIndex(`f${i}`, `f${i}`);
        };
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error ?? new Error('open failed'));
      });
      const record = (i: number, v: number) => {
        const r: Record<string, unknown> = { id: String(1e12 + i), note: 'x'.repeat(200), v };
        for (let j = 0; j < 6; j++) r[`f${j}`] = `${j}-${(i * 7919 + j) % 5000}`;
        return r;
      };
      const inTransaction = (write: (store: IDBObjectStore) => void) =>
        new Promise<void>((resolve, reject) => {
          const t = db.transaction('t', 'readwrite');
          write(t.objectStore('t'));
          t.oncomplete = () => resolve();
          t.onerror = () => reject(t.error ?? new Error('transaction failed'));
        });
      // The mean of the writes one after the other: Firefox and WebKit round performance.now() to 1 ms.
      const timed = async (write: (k: number) => (store: IDBObjectStore) => void) => {
        const started = performance.now();
        for (let k = 1; k <= writes; k++) await inTransaction(write(k));
        return (performance.now() - started) / writes;
      };
      try {
        for (let from = 0; from < rows; from += 1_000) await inTransaction((s) => { for (let i = from; i < Math.min(rows, from + 1_000); i++) s.put(record(i, 0)); });
        const update = await timed((k) => (s) => s.put(record(k % rows, k)));
        const insert = await timed((k) => (s) => s.put(record(rows + k, k)));
        const remove = await timed((k) => (s) => s.delete(String(1e12 + ((k * 31) % rows))));
        return { update, insert, remove };
      } finally {
        db.close();
        indexedDB.deleteDatabase(name);
      }
    },
    [rows, indexes, WRITES] as [number, number, number],
  );
}
