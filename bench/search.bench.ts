/**
 * Product search over a 100,000-product catalogue in Node (fake-indexeddb):
 * `mirror.query.searchProducts(text)` for queries a shop person types (a whole word, the start of a
 * word, two words, a word without its accents, a code), against a baseline measured in the same
 * run: one indexed lookup of 50 products by the start of their name (`where('name').startsWith(...)`,
 * the cheapest query Dexie can answer), the old search. Prints the median time per query kind and
 * the ratio to the baseline. The same catalogue and queries in each browser engine's IndexedDB are
 * part of `npm run bench -- browser`.
 *
 * `npm run bench -- search`; SEARCH_PRODUCTS=N changes the catalogue size (default 100000).
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { MirrorDb } from '../src/db/mirror-db.js';
import { createQueries } from '../src/mirror/queries.js';
import { catalogue, searchQueries } from './search-catalogue.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';
import { median } from './stats.js';

const PRODUCTS = Number(process.env.SEARCH_PRODUCTS ?? smokeOr(2_000, 100_000));

const { products, categories } = await catalogue(PRODUCTS);
const kinds = searchQueries(products);
console.log(`${products.length.toLocaleString('en-US')} products, ${categories.length} categories${SMOKE_NOTE}`);

// The baseline's prefix search reads an index of names, which an app would declare (`indexes`).
const db = new MirrorDb('search-bench', { indexedDB: new IDBFactory(), IDBKeyRange, indexes: { products: ['name'] } });
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
const base = median(baseline);
console.log(`Node (fake-indexeddb): baseline (indexed name prefix, 50 rows) median ${base.toFixed(2)} ms`);
for (const [kind, ms] of Object.entries(times)) {
  const m = median(ms);
  console.log(`  searchProducts, ${kind.padEnd(11)} median ${m.toFixed(2).padStart(6)} ms  (${(m / base).toFixed(1)}x the baseline)`);
}
console.log(`  all kinds: median ${median(Object.values(times).flat()).toFixed(2)} ms`);
db.close();
