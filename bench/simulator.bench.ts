/**
 * Simulator benchmark: start-up time and heap of a `large` tenant (about a million records), then
 * records per second served for a full forward traversal of its orders at limit 400 over real
 * HTTP (keep-alive), next to native JSON.stringify of the same records in this run (the
 * baseline: serving can hardly beat serializing).
 */
import { COLLECTIONS } from '../src/schema/collections.js';
import { createSimulator } from '../src/simulator/index.js';
import { toWire } from '../src/simulator/http/wire.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';
import { gc } from './stats.js';

const SIZE = smokeOr<'small' | 'large'>('small', 'large');

const heap = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};

const heapBefore = heap();
const t0 = performance.now();
const sim = await createSimulator({ size: SIZE, seed: 1 });
const startupMs = performance.now() - t0;
const heapAfter = heap();
const total = COLLECTIONS.reduce((n, c) => n + sim.store.count(c), 0);
console.log(`${SIZE} tenant: ${total.toLocaleString('en')} records, start-up ${startupMs.toFixed(0)} ms, heap +${((heapAfter - heapBefore) / 1e6).toFixed(1)} MB${SMOKE_NOTE}`);

const headers = { authorization: `A|${sim.token}`, accept: 'application/json' };
async function traverse(): Promise<{ records: number; pages: number; bytes: number; ms: number }> {
  let idStart = '0';
  let records = 0;
  let pages = 0;
  let bytes = 0;
  const started = performance.now();
  for (;;) {
    const response = await fetch(`${sim.baseUrl}/orders?direction=forward&limit=400&id_start=${idStart}`, { headers });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`page ${pages}: ${response.status} ${text.slice(0, 200)}`);
    pages++;
    bytes += text.length;
    let n = 0;
    for (let at = text.indexOf('"_t":"orders"'); at >= 0; at = text.indexOf('"_t":"orders"', at + 1)) n++;
    records += n;
    if (n < 400) break;
    idStart = /"id":(\d+)/.exec(text.slice(text.lastIndexOf('{"id":')))?.[1] ?? '0';
  }
  return { records, pages, bytes, ms: performance.now() - started };
}

await traverse(); // warm-up: JIT, keep-alive connection
const served = await traverse();
const servedRate = served.records / (served.ms / 1000);
console.log(`served: ${served.records.toLocaleString('en')} orders in ${served.pages} pages, ${(served.bytes / 1e6).toFixed(1)} MB, ${served.ms.toFixed(0)} ms = ${Math.round(servedRate).toLocaleString('en')} records/s`);

const orders = sim.store.list('orders');
const pages: Record<string, unknown>[][] = [];
for (let i = 0; i < orders.length; i += 400) pages.push(orders.slice(i, i + 400));
const time = (f: (page: Record<string, unknown>[]) => string): number => {
  for (const page of pages.slice(0, 20)) f(page);
  const started = performance.now();
  let chars = 0;
  for (const page of pages) chars += f(page).length;
  if (chars === 0) throw new Error('nothing serialized');
  return orders.length / ((performance.now() - started) / 1000);
};
const nativeRate = time((page) => JSON.stringify(page));
const wireRate = time((page) => toWire(page, { idsAsStrings: false }, 'orders'));
console.log(`baseline JSON.stringify of the same records: ${Math.round(nativeRate).toLocaleString('en')} records/s`);
console.log(`wire serializer (stringify + bare ids):      ${Math.round(wireRate).toLocaleString('en')} records/s (${(wireRate / nativeRate).toFixed(2)}x native)`);
console.log(`served over HTTP vs native stringify:        ${(servedRate / nativeRate).toFixed(2)}x`);
await sim.close();
