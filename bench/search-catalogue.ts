/**
 * The product catalogue the search benchmarks query, in Node and in each browser engine alike: the
 * simulator's products (names a shop would have, seed 11) read as the mirror stores them, and the
 * queries a shop person types, drawn from the catalogue's own names and codes. Not a benchmark
 * itself: `bench/run.ts` runs only files named `*.bench.ts`.
 */
import { foldForSearch, searchWords } from '../src/db/search-words.js';
import type { StoredRecord } from '../src/db/sync-rows.js';
import { parseRecord } from '../src/schema/index.js';
import { createSimulator } from '../src/simulator/index.js';

/** Queries of each kind. */
export const QUERIES_PER_KIND = 40;

/** Products and categories as the mirror stores them. */
export interface Catalogue {
  products: StoredRecord[];
  categories: StoredRecord[];
}

/** Generates a catalogue of `products` products (and 200 categories). */
export async function catalogue(products: number): Promise<Catalogue> {
  const sim = await createSimulator({ port: 0, seed: 11, size: { products, categories: 200, orders: 10, customers: 10 }, activity: false });
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

/** Queries by kind (a whole word, the start of a word, two words, a word without its accents, a code). */
export function searchQueries(products: readonly StoredRecord[]): Record<string, string[]> {
  const pick = (i: number) => products[(i * 7919) % products.length]!;
  const kinds: Record<string, string[]> = { 'whole word': [], 'word start': [], 'two words': [], 'no accents': [], code: [] };
  for (let i = 0; kinds['whole word']!.length < QUERIES_PER_KIND; i++) {
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
