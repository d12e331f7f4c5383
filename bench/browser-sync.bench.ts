/**
 * A first sync in headless Chromium (real IndexedDB): `mirror.syncNow()` of every collection of
 * a simulated tenant, against a baseline measured in the same run and page: the same pages
 * fetched with bare `fetch` + `JSON.parse` and written with Dexie `bulkPut` into tables keyed by
 * `id` alone (no validation, no indexes, no checkpoints: the speed limit). Rounds alternate
 * (baseline, mirror, baseline, mirror...); each uses a fresh database. Prints records/s and the ratio.
 *
 * The baseline asks the simulator for ids as JSON strings (JSON.parse would round ids above
 * 2^53 and lose its place); the mirror reads the default wire, ids as bare big integers.
 *
 * A third figure, fetch + JSON.parse without storing, shows how much of both is the simulator
 * and the network (the simulator serves from the same machine).
 *
 * `npm run bench -- browser-sync`; BENCH_SIZE=tiny|small|medium (default small, ~7k records;
 * medium, ~87k, takes minutes).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createAppServer } from '../scripts/app-server.js';
import { bundleForBrowser, repoPath } from '../scripts/bundle-for-browser.js';
import { COLLECTIONS } from '../src/schema/collections.js';
import { createSimulator } from '../src/simulator/index.js';
import { launchBrowser } from '../test/e2e/browser.js';
import { median } from './stats.js';

const ROUNDS = 3;
const size = (process.env.BENCH_SIZE ?? 'small') as 'tiny' | 'small' | 'medium';

const pageDir = repoPath('test-output/bench-page');
await mkdir(pageDir, { recursive: true });
await writeFile(join(pageDir, 'index.html'), '<!doctype html><title>sync bench</title>');

const bootStarted = performance.now();
const sim = await createSimulator({ port: 0, size, seed: 3, activity: false });
const server = await createAppServer({ root: pageDir, apiBaseUrl: sim.baseUrl });
const bundle = await bundleForBrowser(
  `export { createMirror } from ${JSON.stringify(repoPath('src/mirror/create-mirror.ts'))};\nexport { Dexie } from 'dexie';`,
  'posMirror',
);
const browser = await launchBrowser();

try {
  const page = await browser.context.newPage();
  await page.goto(server.url);
  await page.addScriptTag({ content: bundle });
  console.log(`Chromium, simulator ${size}: ${COLLECTIONS.length} collections (setup ${((performance.now() - bootStarted) / 1000).toFixed(1)} s)`);

  const baseline: { ms: number; records: number; transportMs: number }[] = [];
  const mirror: { ms: number; records: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    sim.setOptions({ idsAsStrings: true });
    baseline.push(
      await page.evaluate(
        async ({ base, token, collections, round }) => {
          const { Dexie } = (globalThis as unknown as { posMirror: { Dexie: typeof import('dexie').Dexie } }).posMirror;
          const db = new Dexie(`baseline-${round}`);
          db.version(1).stores(Object.fromEntries(collections.map((c) => [c, 'id'])));
          await db.open();
          const started = performance.now();
          let records = 0;
          let transportMs = 0;
          for (const collection of collections) {
            let idStart = '0';
            for (;;) {
              const url = `${base}/${collection}?limit=400&direction=forward&version_start=0&id_start=${idStart}`;
              const fetched = performance.now();
              const response = await fetch(url, { headers: { Authorization: `A|${token}`, Accept: 'application/json' } });
              const page = JSON.parse(await response.text()) as { id: string }[];
              transportMs += performance.now() - fetched;
              await db.table(collection).bulkPut(page);
              records += page.length;
              if (page.length < 400) break;
              idStart = page[page.length - 1]!.id;
            }
          }
          const ms = performance.now() - started;
          db.close();
          await Dexie.delete(`baseline-${round}`);
          return { ms, records, transportMs };
        },
        { base: server.apiBaseUrl, token: sim.token, collections: [...COLLECTIONS], round },
      ),
    );
    sim.setOptions({ idsAsStrings: false });
    mirror.push(
      await page.evaluate(
        async ({ base, token, collections, round }) => {
          const lib = (globalThis as unknown as { posMirror: { createMirror: typeof import('../src/mirror/create-mirror.js').createMirror; Dexie: typeof import('dexie').Dexie } }).posMirror;
          const m = lib.createMirror({ baseUrl: base, token, userAgent: 'pos-cloud-mirror browser-sync bench', dbName: `mirror-${round}`, categories: false, reconcileIntervalMs: 0 });
          const started = performance.now();
          await m.syncNow();
          const ms = performance.now() - started;
          let records = 0;
          for (const c of collections) records += await m.db.table(c).count();
          await m.close();
          await lib.Dexie.delete(`mirror-${round}`);
          return { ms, records };
        },
        { base: server.apiBaseUrl, token: sim.token, collections: [...COLLECTIONS], round },
      ),
    );
    const b = baseline[round]!;
    const m = mirror[round]!;
    console.log(`round ${round + 1}: baseline ${b.records} records in ${(b.ms / 1000).toFixed(2)} s (fetch + parse ${(b.transportMs / 1000).toFixed(2)} s), mirror ${m.records} records in ${(m.ms / 1000).toFixed(2)} s`);
  }
  const rate = (runs: { ms: number; records: number }[]) => median(runs.map((r) => r.records / (r.ms / 1000)));
  const b = rate(baseline);
  const m = rate(mirror);
  const t = median(baseline.map((r) => r.records / (r.transportMs / 1000)));
  console.log(`fetch + JSON.parse only                  ${Math.round(t).toLocaleString('en-US').padStart(8)} records/s`);
  console.log(`baseline (fetch + JSON.parse + bulkPut)  ${Math.round(b).toLocaleString('en-US').padStart(8)} records/s`);
  console.log(`mirror.syncNow()                         ${Math.round(m).toLocaleString('en-US').padStart(8)} records/s`);
  console.log(`ratio mirror / baseline: ${(m / b).toFixed(2)}x (median of ${ROUNDS} interleaved rounds)`);
} finally {
  await browser.close();
  await server.stop();
  await sim.close();
}
