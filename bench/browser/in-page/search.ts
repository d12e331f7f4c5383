/**
 * Page code: `searchProducts` over a large catalogue in the engine's IndexedDB. The catalogue is
 * fetched from the bench page's server (the same file in every engine) and stored through the
 * mirror's database, whose middleware adds each product's search words; then each query is timed,
 * beside a baseline: one indexed lookup of 50 products by the start of their name, the cheapest
 * query Dexie answers. Each query's result ids come back, to compare the ranking across engines.
 */
import { Dexie } from 'dexie';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import type { StoredRecord } from '../../../src/db/sync-rows.js';
import { createQueries } from '../../../src/mirror/queries.js';

/** What the measurement is given. */
export interface SearchArgs {
  /** Address of the catalogue, a JSON `{ products, categories }` as the mirror stores them. */
  catalogueUrl: string;
  /** Queries by kind. */
  queries: Record<string, string[]>;
  dbName: string;
}

/** Timings by query kind (ms), the baseline's, and each query's result ids joined by spaces. */
export interface SearchResult {
  products: number;
  /** Time to store the catalogue (ms). */
  loadMs: number;
  times: Record<string, number[]>;
  baseline: number[];
  results: Record<string, string[]>;
}

const CHUNK = 5_000;

/** Stores the catalogue in a fresh database and times every query. */
export async function searchProducts(args: SearchArgs): Promise<SearchResult> {
  const response = await fetch(args.catalogueUrl);
  if (!response.ok) throw new Error(`search: the catalogue answered ${response.status}`);
  const { products, categories } = (await response.json()) as { products: StoredRecord[]; categories: StoredRecord[] };
  // The baseline's prefix search reads an index of names, which an app would declare (`indexes`).
  const db = new MirrorDb(args.dbName, { indexes: { products: ['name'] } });
  try {
    const loading = performance.now();
    for (let i = 0; i < products.length; i += CHUNK) await db.products.bulkPut(products.slice(i, i + CHUNK));
    await db.categories.bulkPut(categories);
    const loadMs = performance.now() - loading;
    const query = createQueries(db);
    const out: SearchResult = { products: products.length, loadMs, times: {}, baseline: [], results: {} };
    for (const [kind, texts] of Object.entries(args.queries)) {
      out.times[kind] = [];
      out.results[kind] = [];
      for (const text of texts) {
        let started = performance.now();
        await db.products.where('name').startsWith(text).limit(50).toArray();
        out.baseline.push(performance.now() - started);
        started = performance.now();
        const found = await query.searchProducts(text);
        out.times[kind]!.push(performance.now() - started);
        out.results[kind]!.push(found.map((p) => p.id).join(' '));
      }
    }
    return out;
  } finally {
    db.close();
    await Dexie.delete(args.dbName);
  }
}
