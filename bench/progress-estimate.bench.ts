/**
 * How close `mirror.progress`'s estimate of what is left comes during a first sync: the
 * simulator's tenants synced by a real mirror (fake-indexeddb, the simulator in a child process,
 * over HTTP), and for every collection of more than a few pages, the estimated size of its
 * traversal (`estimate.total`) when 10%, 50% and 90% of its records were applied, against the
 * records it really had. Also the first page at which an estimate appeared, and the requests the
 * first sync made: all of them, and of those the estimate's questions (its probes and the questions
 * for where traversals end, told apart by their `limit`, `PROBE_RECORDS`).
 *
 *   npm run bench -- progress-estimate      TENANTS=small,medium,large (default small,medium)
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createMirror } from '../src/mirror/create-mirror.js';
import { PROBE_RECORDS } from '../src/sync/cycle/progress-estimate.js';
import type { CollectionSyncProgress } from '../src/mirror/status.js';
import type { SizeOption } from '../src/simulator/size.js';
import { forkSimulator } from './simulator-process.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';

const TENANTS = (process.env.TENANTS ?? smokeOr('small', 'small,medium')).split(',').filter(Boolean) as SizeOption[];
/** Collections of fewer pages than this are left out: their estimate is over before it matters. */
const MIN_PAGES = 5;
const AT = [0.1, 0.5, 0.9];

for (const tenant of TENANTS) await measure(tenant);

async function measure(tenant: SizeOption): Promise<void> {
  const server = await forkSimulator({ size: tenant, seed: 9 });
  const requests = { all: 0, questions: 0 };
  const counting: typeof fetch = (input, init) => {
    requests.all++;
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.searchParams.get('limit') === String(PROBE_RECORDS)) requests.questions++;
    return fetch(input, init);
  };
  const mirror = createMirror({ baseUrl: server.baseUrl, token: server.token, userAgent: 'pos-cloud-mirror bench', dbName: `estimate-${String(tenant)}`, indexedDB: new IDBFactory(), IDBKeyRange, reconcileIntervalMs: 0, fetch: counting });
  const seen = new Map<string, CollectionSyncProgress[]>();
  const overall: { records: number; remaining: number | undefined }[] = [];
  const subscription = mirror.progress.subscribe((p) => {
    overall.push({ records: p.records, remaining: p.remaining });
    for (const [name, c] of Object.entries(p.collections)) {
      const list = seen.get(name) ?? [];
      if (list.at(-1) !== c) list.push(c);
      seen.set(name, list);
    }
  });
  const started = performance.now();
  await mirror.syncNow();
  const seconds = (performance.now() - started) / 1000;
  subscription.unsubscribe();
  await mirror.close();
  server.stop();
  console.log(`\n${String(tenant)} tenant: ${server.total.toLocaleString('en')} records, first sync ${seconds.toFixed(1)} s${SMOKE_NOTE}`);
  console.log(`  ${'collection'.padEnd(22)} ${'records'.padStart(9)} ${'pages'.padStart(6)}  first estimate   error of the estimated total at ${AT.map((a) => `${a * 100}%`).join(' / ')}`);
  const errors: number[][] = AT.map(() => []);
  for (const [name, list] of seen) {
    const last = list.at(-1)!;
    if (!last.done || last.pages < MIN_PAGES) continue;
    const actual = last.records;
    const firstEstimate = list.find((p) => p.estimate && !p.done);
    const cells = AT.map((at, i) => {
      const point = list.find((p) => !p.done && p.records >= at * actual);
      if (!point?.estimate) return '   n/a';
      const error = (point.estimate.total - actual) / actual;
      errors[i]!.push(Math.abs(error));
      return `${error >= 0 ? '+' : ''}${(error * 100).toFixed(1)}%`.padStart(7);
    });
    console.log(`  ${name.padEnd(22)} ${actual.toLocaleString('en').padStart(9)} ${String(last.pages).padStart(6)}  ${firstEstimate ? `page ${firstEstimate.pages}`.padEnd(15) : 'none'.padEnd(15)}  ${cells.join(' / ')}`);
  }
  const worst = errors.map((list) => (list.length ? `${(Math.max(...list) * 100).toFixed(1)}%` : 'n/a'));
  console.log(`  largest error (absolute) at ${AT.map((a) => `${a * 100}%`).join(' / ')}: ${worst.join(' / ')}`);
  console.log(`  progress updates: ${overall.length}`);
  console.log(`  requests: ${requests.all.toLocaleString('en')}, of which the estimate's questions: ${requests.questions} (probes and where traversals end)`);
}
