/**
 * The ~1M-record (`large`) tenant, for `LARGE=1 npm run bench -- mirror-sync`: the first sync
 * (time, records/s, heap and RSS: before, peak, and after a GC, when what is left is the stored
 * data, since fake-indexeddb keeps every row in this process's heap), a bare `bulkPut` of the same
 * records into a fresh database (the storage limit, for the ratio), an idle delta sync, a delta
 * after 1,000 sales on the server, and a live query's notification after one write into the
 * 1M-record database. Not a benchmark file of its own: `mirror-sync.bench.ts` runs it.
 */
import type { StoredRecord } from '../src/db/sync-rows.js';
import { forkSimulator } from './simulator-process.js';
import { gc, median } from './stats.js';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Samples heap and RSS every 50 ms until stopped; resolves with the peaks. */
function sampleMemory(): () => { heap: number; rss: number } {
  let heap = 0;
  let rss = 0;
  const take = () => {
    const m = process.memoryUsage();
    heap = Math.max(heap, m.heapUsed);
    rss = Math.max(rss, m.rss);
  };
  take();
  const timer = setInterval(take, 50);
  return () => {
    clearInterval(timer);
    take();
    return { heap, rss };
  };
}

/**
 * Every `everyMs`, a full GC and the heap it leaves, beside the records applied so far: what the
 * sync holds beyond the rows it stored (pages, buffers) is the heap above `rowBytes × applied`,
 * once the per-row size is known from the end of the run.
 */
function sampleAfterGc(applied: () => number, everyMs = 10_000): () => { heap: number; applied: number }[] {
  const samples: { heap: number; applied: number }[] = [];
  const timer = setInterval(() => {
    gc();
    samples.push({ heap: process.memoryUsage().heapUsed, applied: applied() });
  }, everyMs);
  return () => {
    clearInterval(timer);
    return samples;
  };
}

export async function runLarge(): Promise<void> {
  const { IDBFactory, IDBKeyRange } = await import('fake-indexeddb');
  const { liveQuery } = await import('dexie');
  const { createClient } = await import('../src/client/index.js');
  const { createMirror } = await import('../src/mirror/create-mirror.js');
  const { MirrorDb } = await import('../src/db/mirror-db.js');
  const { COLLECTIONS } = await import('../src/schema/collections.js');

  /** The mirror's part: its database is unreachable once this returns. */
  async function syncLarge(): Promise<{ rate: number; stored: Map<string, StoredRecord[]> }> {
    const server = await forkSimulator({ size: 'large', seed: 9 });
    const { total } = server;
    let requests = 0;
    const counting: typeof fetch = (input, init) => {
      requests++;
      return fetch(input, init);
    };
    const client = createClient({ baseUrl: server.baseUrl, token: server.token, userAgent: 'pos-cloud-mirror bench', fetch: counting });
    const mirror = createMirror({ client, dbName: 'bench-large', indexedDB: new IDBFactory(), IDBKeyRange, reconcileIntervalMs: 0 });

    gc();
    const before = process.memoryUsage();
    const peaks = sampleMemory();
    const applied = () => Object.values(mirror.progress.value.collections).reduce((n, p) => n + (p?.records ?? 0), 0);
    const retained = sampleAfterGc(applied);
    const started = performance.now();
    await mirror.syncNow();
    const seconds = (performance.now() - started) / 1000;
    const samples = retained();
    const peak = peaks();
    gc();
    const after = process.memoryUsage();
    const rowBytes = (after.heapUsed - before.heapUsed) / Math.max(1, applied());
    // Signed: below zero when the rows stored so far were smaller than the average row.
    const heldBeyond = Math.max(...samples.map((x) => x.heap - before.heapUsed - rowBytes * x.applied));
    const aboveEnd = Math.max(...samples.map((x) => x.heap - after.heapUsed));
    const rate = total / seconds;
    console.log(`large first sync: ${total.toLocaleString('en')} records in ${seconds.toFixed(1)} s, ${Math.round(rate).toLocaleString('en')} records/s`);
    console.log(
      `  heap: before ${mb(before.heapUsed)}, peak ${mb(peak.heap)} (garbage not yet collected included), after GC ${mb(after.heapUsed)} ` +
        `(the stored rows: fake-indexeddb keeps them in this heap, ${rowBytes.toFixed(0)} bytes a row on average)`,
    );
    console.log(
      `  held beyond the stored rows: at the peak ${mb(peak.heap - after.heapUsed)} above the end's heap (aim < 300 MB: no page kept once applied); ` +
        `after a GC every 10 s (${samples.length} samples), at most ${mb(heldBeyond)} above the rows stored so far at the average row size, ` +
        `and at most ${mb(aboveEnd)} above the end's heap`,
    );
    console.log(`  RSS: before ${mb(before.rss)}, peak ${mb(peak.rss)} (growth ${mb(peak.rss - before.rss)}, the in-memory database included), after GC ${mb(after.rss)}`);

    requests = 0;
    let t = performance.now();
    await mirror.syncNow();
    console.log(`  idle delta sync: ${requests} requests, ${(performance.now() - t).toFixed(0)} ms`);

    const added = await server.sell(1_000);
    requests = 0;
    t = performance.now();
    const report = await mirror.syncNow();
    const deltaMs = performance.now() - t;
    const pulled = report.pulls.reduce((n, p) => n + p.received, 0);
    console.log(`  delta sync after 1,000 sales (${added.toLocaleString('en')} new records on the server): ${pulled.toLocaleString('en')} records pulled, ${requests} requests, ${deltaMs.toFixed(0)} ms`);

    const latencies = await liveQueryLatency(mirror.db, liveQuery);
    const details = await mirror.db.order_details.count();
    console.log(`  live query (items of one order) notified after one write into ${details.toLocaleString('en')} order items: median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (20 writes)`);

    // The rows, for the storage limit below; the mirror's database is let go before that.
    const stored = new Map<string, StoredRecord[]>();
    for (const c of [...COLLECTIONS, 'categories'] as const) stored.set(c, await mirror.db.table(c).toArray());
    await mirror.close();
    server.stop();
    return { rate, stored };
  }

  const { rate, stored } = await syncLarge();
  gc();
  const db = new MirrorDb('bench-large-bulk', { indexedDB: new IDBFactory(), IDBKeyRange });
  const storedCount = [...stored.values()].reduce((n, rows) => n + rows.length, 0);
  const bulkStarted = performance.now();
  for (const [c, rows] of stored) {
    for (let i = 0; i < rows.length; i += 400) await db.table(c).bulkPut(rows.slice(i, i + 400));
  }
  const bulkRate = storedCount / ((performance.now() - bulkStarted) / 1000);
  db.close();
  console.log(`  bare bulkPut of the same ${storedCount.toLocaleString('en')} rows: ${Math.round(bulkRate).toLocaleString('en')} records/s; first sync / bulkPut: ${(rate / bulkRate).toFixed(2)}x`);
}

/** How long a live query takes to hear of one write (20 writes, each a new item of its own order). */
async function liveQueryLatency(db: import('../src/db/mirror-db.js').MirrorDb, liveQuery: typeof import('dexie').liveQuery): Promise<number[]> {
  const sample = (await db.order_details.limit(20).toArray()) as StoredRecord[];
  const latencies: number[] = [];
  for (let k = 0; k < 20; k++) {
    const target = `${900_000_000 + k}`;
    await new Promise<void>((resolve) => {
      let first = true;
      let writtenAt = 0;
      const sub = liveQuery(() => db.order_details.where('id_order').equals(target).count()).subscribe((n) => {
        if (first) {
          first = false;
          writtenAt = performance.now();
          void db.order_details.put({ ...sample[k]!, id: `${7_000_000_000_000_000 + k}0`, id_order: target });
          return;
        }
        if (n === 0) return;
        latencies.push(performance.now() - writtenAt);
        sub.unsubscribe();
        resolve();
      });
    });
  }
  return latencies;
}
