/**
 * Product search over a 100,000-product catalogue, in Node (fake-indexeddb) and in headless
 * Chromium (real IndexedDB): `mirror.query.searchProducts(text)` for queries a shop person types
 * (a whole word, the start of a word, two words, a word without its accents, a code), against a
 * baseline measured in the same run: one indexed lookup of 50 products by the start of their
 * name (`where('name').startsWith(...)`, the cheapest query Dexie can answer), the old search.
 * Prints the median time per query kind and the ratio to the baseline.
 *
 * `npm run bench -- search`; SEARCH_PRODUCTS=N changes the catalogue size (default 100000).
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createAppServer } from '../scripts/app-server.js';
import { bundleForBrowser, repoPath } from '../scripts/bundle-for-browser.js';
import { MirrorDb } from '../src/db/mirror-db.js';
import { foldForSearch, searchWords } from '../src/db/search-words.js';
import type { StoredRecord } from '../src/db/sync-rows.js';
import { createQueries } from '../src/mirror/queries.js';
import { parseRecord } from '../src/schema/index.js';
import { createSimulator } from '../src/simulator/index.js';
import { launchBrowser } from '../test/e2e/browser.js';
import { median } from './stats.js';

const PRODUCTS = Number(process.env.SEARCH_PRODUCTS ?? 100_000);
const REPEATS = 40;

/** The catalogue: the simulator's products (names a shop would have), read as the mirror stores them. */
async function catalogue(): Promise<{ products: StoredRecord[]; categories: StoredRecord[] }> {
  const sim = await createSimulator({ port: 0, seed: 11, size: { products: PRODUCTS, categories: 200, orders: 10, customers: 10 }, activity: false });
  try {
    const read = (collection: 'products' | 'categories') =>
      sim.store.list(collection).flatMap((raw) => {
        const parsed = parseRecord(collection, raw);
        return parsed.ok ? [parsed.record as StoredRecord] : [];
      });
    return { products: read('products').map(({ __price_matrix_model: _, ...p }) => p as StoredRecord), categories: read('categories') };
  } finally {
    await sim.close();
  }
}

/** Queries of each kind, drawn from the catalogue's own names and codes. */
function queries(products: readonly StoredRecord[]): Record<string, string[]> {
  const pick = (i: number) => products[(i * 7919) % products.length]!;
  const kinds: Record<string, string[]> = { 'whole word': [], 'word start': [], 'two words': [], 'no accents': [], code: [] };
  for (let i = 0; kinds['whole word']!.length < REPEATS; i++) {
    const name = String(pick(i).name ?? '');
    const words = name.split(/\s+/).filter((w) => w.length >= 4);
    if (words.length < 2) continue;
    kinds['whole word']!.push(words[1]!);
    kinds['word start']!.push(words[1]!.slice(0, 3));
    kinds['two words']!.push(`${words[0]!.slice(0, 4)} ${words[1]!.slice(0, 4)}`);
    kinds['no accents']!.push(foldForSearch(words[0]!));
    const code = pick(i).ean13 ?? pick(i).barcode ?? pick(i).sku;
    kinds.code!.push(typeof code === 'string' ? code : searchWords(name)[0]!);
  }
  return kinds;
}

function report(where: string, times: Record<string, number[]>, baseline: number[]): void {
  const base = median(baseline);
  console.log(`${where}: baseline (indexed name prefix, 50 rows) median ${base.toFixed(2)} ms`);
  for (const [kind, ms] of Object.entries(times)) {
    const m = median(ms);
    console.log(`  searchProducts, ${kind.padEnd(11)} median ${m.toFixed(2).padStart(6)} ms  (${(m / base).toFixed(1)}x the baseline)`);
  }
  console.log(`  all kinds: median ${median(Object.values(times).flat()).toFixed(2)} ms`);
}

const { products, categories } = await catalogue();
const kinds = queries(products);
console.log(`${products.length.toLocaleString('en-US')} products, ${categories.length} categories`);

// Node, fake-indexeddb.
{
  const db = new MirrorDb('search-bench', { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.products.bulkPut(products);
  await db.categories.bulkPut(categories);
  const query = createQueries(db);
  const times: Record<string, number[]> = {};
  const baseline: number[] = [];
  for (const [kind, texts] of Object.entries(kinds)) {
    times[kind] = [];
    for (const text of texts) {
      let started = performance.now();
      await db.products.where('name').startsWith(text).limit(50).toArray();
      baseline.push(performance.now() - started);
      started = performance.now();
      await query.searchProducts(text);
      times[kind]!.push(performance.now() - started);
    }
  }
  report('Node (fake-indexeddb)', times, baseline);
  db.close();
}

// Chromium, real IndexedDB.
{
  const pageDir = repoPath('test-output/bench-page');
  await mkdir(pageDir, { recursive: true });
  await writeFile(join(pageDir, 'index.html'), '<!doctype html><title>search bench</title>');
  const server = await createAppServer({ root: pageDir, apiBaseUrl: 'http://127.0.0.1:9' });
  const bundle = await bundleForBrowser(
    `export { MirrorDb } from ${JSON.stringify(repoPath('src/db/mirror-db.ts'))};\nexport { createQueries } from ${JSON.stringify(repoPath('src/mirror/queries.ts'))};`,
    'posSearch',
  );
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await page.goto(server.url);
    await page.addScriptTag({ content: bundle });
    type Lib = { MirrorDb: typeof MirrorDb; createQueries: typeof createQueries };
    await page.evaluate(async () => {
      const lib = (globalThis as unknown as { posSearch: Lib }).posSearch;
      (globalThis as unknown as { db: MirrorDb }).db = new lib.MirrorDb('search-bench');
    });
    for (let start = 0; start < products.length; start += 10_000) {
      await page.evaluate((rows) => (globalThis as unknown as { db: MirrorDb }).db.products.bulkPut(rows), products.slice(start, start + 10_000));
    }
    await page.evaluate((rows) => (globalThis as unknown as { db: MirrorDb }).db.categories.bulkPut(rows), categories);
    const result = await page.evaluate(async (kinds) => {
      const g = globalThis as unknown as { posSearch: Lib; db: MirrorDb };
      const query = g.posSearch.createQueries(g.db);
      const times: Record<string, number[]> = {};
      const baseline: number[] = [];
      for (const [kind, texts] of Object.entries(kinds)) {
        times[kind] = [];
        for (const text of texts) {
          let started = performance.now();
          await g.db.products.where('name').startsWith(text).limit(50).toArray();
          baseline.push(performance.now() - started);
          started = performance.now();
          await query.searchProducts(text);
          times[kind]!.push(performance.now() - started);
        }
      }
      return { times, baseline };
    }, kinds);
    report('Chromium (IndexedDB)', result.times, result.baseline);
  } finally {
    await browser.close();
    await server.stop();
  }
}
