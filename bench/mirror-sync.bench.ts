/**
 * Initial sync of a ~100,000-record tenant into fake-indexeddb, against the storage limit: a bare
 * Dexie `bulkPut` of the same records (already in memory, same tables and indexes, pages of 400 in
 * their own transactions) in the same run, rounds alternating. Also: an idle delta sync (requests
 * and ms), and the latency of a live query's notification after one write into a 100,000-row table.
 * The simulator runs in a child process (this file, forked), as a real server would.
 *
 *   npm run bench -- mirror-sync            ROUNDS=3; LARGE=1 adds the ~1M-record tenant (mirror-sync-large.ts)
 */
import type { StoredRecord } from '../src/db/sync-rows.js';
import type { SizeOption } from '../src/simulator/size.js';
import { runLarge } from './mirror-sync-large.js';
import { forkSimulator } from './simulator-process.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';
import { median } from './stats.js';
import { TENANT_100K } from './tenants.js';

const ROUNDS = Number(process.env.ROUNDS ?? smokeOr(1, 3));
const TENANT = smokeOr<SizeOption>('small', TENANT_100K);
/** Rows of the table the live query watches, and writes timed. */
const LIVE_ROWS = smokeOr(5_000, 100_000);
const LIVE_WRITES = smokeOr(3, 20);

await main();

async function main(): Promise<void> {
  const { IDBFactory, IDBKeyRange } = await import('fake-indexeddb');
  const { liveQuery } = await import('dexie');
  const { createClient } = await import('../src/client/index.js');
  const { createMirror } = await import('../src/mirror/create-mirror.js');
  const { MirrorDb } = await import('../src/db/mirror-db.js');
  const { COLLECTIONS } = await import('../src/schema/collections.js');

  const server = await forkSimulator({ size: TENANT, seed: 9 });
  let requests = 0;
  const counting: typeof fetch = (input, init) => {
    requests++;
    return fetch(input, init);
  };
  const client = createClient({ baseUrl: server.baseUrl, token: server.token, userAgent: 'pos-cloud-mirror bench', fetch: counting });
  let dbSeq = 0;

  async function mirrorRun() {
    const mirror = createMirror({ client, dbName: `bench-${++dbSeq}`, indexedDB: new IDBFactory(), IDBKeyRange, reconcileIntervalMs: 0 });
    const started = performance.now();
    await mirror.syncNow();
    const ms = performance.now() - started;
    return { mirror, ms };
  }

  // Records to replay for the baseline: exactly what the mirror stored.
  const first = await mirrorRun();
  const stored = new Map<string, StoredRecord[]>();
  let total = 0;
  for (const c of [...COLLECTIONS, 'categories'] as const) {
    const rows = await first.mirror.db.table(c).toArray();
    stored.set(c, rows);
    total += rows.length;
  }
  console.log(`tenant: ${server.total} records on the server, ${total} stored (categories included)${SMOKE_NOTE}`);

  requests = 0;
  const idleStarted = performance.now();
  await first.mirror.syncNow();
  const idleMs = performance.now() - idleStarted;
  const idleRequests = requests;
  await first.mirror.close();

  async function bulkPutRun() {
    const db = new MirrorDb(`bench-${++dbSeq}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    const started = performance.now();
    for (const [c, rows] of stored) {
      for (let i = 0; i < rows.length; i += 400) await db.table(c).bulkPut(rows.slice(i, i + 400));
    }
    const ms = performance.now() - started;
    db.close();
    return ms;
  }

  const mirrorRates: number[] = [];
  const bulkRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['bulk', 'mirror'] : ['mirror', 'bulk'];
    for (const which of order) {
      if (which === 'bulk') bulkRates.push(total / ((await bulkPutRun()) / 1000));
      else {
        const run = await mirrorRun();
        mirrorRates.push(total / (run.ms / 1000));
        await run.mirror.close();
      }
    }
  }
  const m = median(mirrorRates);
  const b = median(bulkRates);
  console.log(`initial sync (mirror.syncNow, fetch + parse + validate + write): ${Math.round(m).toLocaleString('en')} records/s (median of ${ROUNDS})`);
  console.log(`bare Dexie bulkPut of the same records (the storage limit):       ${Math.round(b).toLocaleString('en')} records/s`);
  console.log(`ratio: ${(m / b).toFixed(2)}x (aim >= 0.8x)`);
  console.log(`idle delta sync (nothing changed): ${idleRequests} requests, ${idleMs.toFixed(0)} ms`);

  // Live query latency after one write into a LIVE_ROWS-row table.
  const db = new MirrorDb(`bench-${++dbSeq}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  const details = stored.get('order_details')!;
  const rows: StoredRecord[] = [];
  for (let i = 0; rows.length < LIVE_ROWS; i++) {
    const base = details[i % details.length]!;
    rows.push({ ...base, id: `${5_000_000_000_000_000 + i}0`, id_order: `${1_000 + (i % 5_000)}` });
  }
  for (let i = 0; i < rows.length; i += 2_000) await db.order_details.bulkPut(rows.slice(i, i + 2_000));
  const latencies: number[] = [];
  for (let k = 0; k < LIVE_WRITES; k++) {
    const target = `${900_000 + k}`;
    let writtenAt = 0;
    await new Promise<void>((resolve) => {
      let seen = -1;
      const sub = liveQuery(() => db.order_details.where('id_order').equals(target).count()).subscribe((n) => {
        if (seen === -1) {
          seen = n;
          writtenAt = performance.now();
          void db.order_details.put({ ...rows[k]!, id: `${6_000_000_000_000_000 + k}0`, id_order: target });
          return;
        }
        latencies.push(performance.now() - writtenAt);
        sub.unsubscribe();
        resolve();
      });
    });
  }
  console.log(`live query notification after one write into a ${(await db.order_details.count()).toLocaleString('en')}-row table: median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (${LIVE_WRITES} writes)`);
  db.close();
  server.stop();

  if (process.env.LARGE) await runLarge();
}
