import { Dexie, type Transaction } from 'dexie';
import type { MirrorDb } from '../db/mirror-db.js';
import { foldForSearch, searchWords, SEARCH_FIELD, wholeNameEntry } from '../db/search-words.js';
import { isLive, type StoredRecord } from '../db/sync-rows.js';

/**
 * How many live candidates a search ranks at most before it answers: the results asked for and a
 * few more (at least 20, at most 200), so a one-letter search of a big catalogue reads a few dozen
 * records, not thousands. Candidates come best first (see {@link candidateKeys}), so the window
 * holds the best of them.
 */
function rankWindow(limit: number): number {
  return Math.min(200, Math.max(20, limit + 10));
}

/** How many candidates are read from IndexedDB at once. */
const READ_CHUNK = 50;

/** How well a product matches: the lower, the earlier it is listed. */
const enum Rank {
  /** The whole text is the product's barcode, EAN, UPC or SKU. */
  Code = 0,
  /** The whole text is the product's name (case and accents aside). */
  Name = 1,
  /** Every word typed is a whole word of the product (name, alternative name, codes, category name). */
  WholeWords = 2,
  /** Every word typed starts a word of the product. */
  Prefixes = 3,
}

/** The words typed, and the category words they reach. */
interface Search {
  words: string[];
  code: string;
  categories: ReadonlyMap<string, readonly string[]>;
}

/**
 * Live products matching `text`, best first, at most `limit`. A product matches when every word
 * typed starts a word of its name, its alternative name, its SKU, barcode, EAN or UPC, or its
 * category's name, ignoring case and diacritics ("kava" finds "Káva Yirgacheffe", "yirga" finds it
 * too). Ranked: the product whose code is the text, the product whose name is the text, products
 * with every word matched whole, then by prefix; within a rank, products whose name starts with the
 * first word typed, then by name.
 *
 * Candidates come from the multi-entry index `__search` (kept by the database on every write): for
 * one word, those having it whole and then those having a word it starts; for several, the products
 * every word reaches. At most a few times `limit` live candidates are ranked, so a one-letter search
 * of a big catalogue answers quickly with good matches rather than all of them in order.
 */
export async function searchProducts(db: MirrorDb, text: string, limit: number): Promise<StoredRecord[]> {
  const words = searchWords(text);
  if (words.length === 0 || limit <= 0) return [];
  // Every read of one search in one read-only transaction: one snapshot of the catalogue, and the
  // engine's cost of opening a transaction paid once rather than for each read (a dozen or more).
  // Inside a transaction of the app's (or a live query's), the reads join it as they are.
  // (Dexie types `currentTransaction` as always set; it is null outside a transaction.)
  const ambient = Dexie.currentTransaction as Transaction | null;
  if (ambient) return rankedSearch(db, text, words, limit);
  return db.transaction('r', [db.products, db.categories], () => rankedSearch(db, text, words, limit));
}

async function rankedSearch(db: MirrorDb, text: string, words: string[], limit: number): Promise<StoredRecord[]> {
  const search: Search = { words, code: foldForSearch(text.trim()), categories: await categoryWords(db) };
  const window = rankWindow(limit);
  const ranked: { product: StoredRecord; rank: Rank; first: boolean }[] = [];
  const keys = await candidateKeys(db, search, window);
  // Read in chunks, each awaited straight from Dexie: a transaction stays open across awaits of its
  // own requests only (an async generator's extra turns let the engine commit it under the search).
  for (let start = 0; start < keys.length && ranked.length < window; start += READ_CHUNK) {
    for (const product of await db.products.bulkGet(keys.slice(start, start + READ_CHUNK))) {
      if (!product || !isLive(product)) continue;
      const rank = rankOf(product, search);
      if (rank === undefined) continue;
      const name = typeof product.name === 'string' ? searchWords(product.name) : [];
      ranked.push({ product, rank, first: name[0]?.startsWith(words[0]!) ?? false });
      if (ranked.length >= window) break;
    }
  }
  ranked.sort((a, b) => a.rank - b.rank || Number(b.first) - Number(a.first) || nameOf(a.product).localeCompare(nameOf(b.product)));
  return ranked.slice(0, limit).map((r) => r.product);
}

/** The keys of the products that may match, best candidates first, each once. */
async function candidateKeys(db: MirrorDb, search: Search, window: number): Promise<string[]> {
  const index = () => db.products.where(SEARCH_FIELD);
  // The reads are independent: asked together, the engine answers them in one go.
  const exact = index().equals(wholeNameEntry(search.words)).primaryKeys();
  let rest: Promise<string[][]>;
  if (search.words.length === 1) {
    const word = search.words[0]!;
    rest = Promise.all([
      index().equals(word).limit(window).primaryKeys(),
      index().startsWith(word).limit(2 * window).primaryKeys(),
      inCategories(db, search, word, window).then((found) => found.keys),
    ]);
  } else {
    rest = commonKeys(db, search, window).then((keys) => [keys]);
  }
  const [first, others] = await Promise.all([exact, rest]);
  return [...new Set([...first, ...others.flat()])];
}

/**
 * Candidates of a search of several words. Each word's products (by a word of their own or of their
 * category) are read up to a cap; the words whose products were all read narrow the candidates to
 * those every one of them reaches, exactly. When every word is common (each read was cut at the cap),
 * the candidates are the first products of the longest word, and ranking keeps those all the words
 * reach: a search of common words answers with some of its matches, quickly, rather than all.
 */
async function commonKeys(db: MirrorDb, search: Search, window: number): Promise<string[]> {
  const cap = 4 * window;
  const byWord = await Promise.all(
    [...search.words]
      .sort((a, b) => b.length - a.length)
      .map(async (word) => {
        const own = await db.products.where(SEARCH_FIELD).startsWith(word).limit(cap).primaryKeys();
        const category = await inCategories(db, search, word, cap);
        return { keys: new Set([...own, ...category.keys]), complete: own.length < cap && category.complete };
      }),
  );
  const complete = byWord.filter((w) => w.complete);
  if (complete.length === 0) return [...byWord[0]!.keys];
  let common = complete[0]!.keys;
  for (const { keys } of complete.slice(1)) common = new Set([...common].filter((key) => keys.has(key)));
  return [...common];
}

/**
 * Keys of products in a category whose name has a word `word` starts, at most `cap` per category
 * (one key range each: a range is read in one request, where `anyOf` walks a cursor).
 */
async function inCategories(db: MirrorDb, search: Search, word: string, cap: number): Promise<{ keys: string[]; complete: boolean }> {
  const ids = [...search.categories].filter(([, words]) => words.some((w) => w.startsWith(word))).map(([id]) => id);
  const keys = await Promise.all(ids.map((id) => db.products.where('id_category').equals(id).limit(cap).primaryKeys()));
  return { keys: keys.flat(), complete: keys.every((k) => k.length < cap) };
}

/** The rank of a product for the search, or undefined when a word typed starts none of its words. */
function rankOf(product: StoredRecord, search: Search): Rank | undefined {
  const own = (product[SEARCH_FIELD] as string[] | undefined) ?? [];
  const category = typeof product.id_category === 'string' ? (search.categories.get(product.id_category) ?? []) : [];
  let whole = true;
  for (const word of search.words) {
    const matches = (w: string) => w.startsWith(word);
    if (!own.some(matches) && !category.some(matches)) return undefined;
    if (whole && !own.includes(word) && !category.includes(word)) whole = false;
  }
  for (const field of ['barcode', 'ean13', 'upc', 'sku'] as const) {
    const value = product[field];
    if (typeof value === 'string' && value !== '' && foldForSearch(value) === search.code) return Rank.Code;
  }
  if (own.includes(wholeNameEntry(search.words))) return Rank.Name;
  return whole ? Rank.WholeWords : Rank.Prefixes;
}

/** The words of every live category's name, by category id (a few hundred categories at most). */
async function categoryWords(db: MirrorDb): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const category of await db.categories.toArray()) {
    if (isLive(category) && typeof category.name === 'string') out.set(category.id, searchWords(category.name));
  }
  return out;
}

function nameOf(product: StoredRecord): string {
  return typeof product.name === 'string' ? product.name : '';
}
