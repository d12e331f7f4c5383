import { Dexie, type Transaction } from 'dexie';
import type { MirrorDb } from '../db/mirror-db.js';
import { foldForSearch, searchWords, SEARCH_FIELD, wholeNameEntry } from '../db/search-words.js';
import { isLive, type StoredRecord } from '../db/sync-rows.js';
import { inTransaction } from '../db/in-transaction.js';

/**
 * How many live candidates a search ranks at most before it answers: the results asked for and a
 * few more (at least 20, at most 200), so a one-letter search of a big catalogue reads a few dozen
 * records, not thousands. Candidates come best first (see {@link singleWord}, {@link severalWords}),
 * so the window holds the best of them.
 */
function rankWindow(limit: number): number {
  return Math.min(200, Math.max(20, limit + 10));
}

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

/** The categories one word typed reaches: those with a word it starts, and those having it whole. */
interface CategoryReach {
  prefix: ReadonlySet<string>;
  whole: ReadonlySet<string>;
}

/** The words typed, and the categories each of them reaches (in the same order). */
interface Search {
  words: string[];
  code: string;
  categories: CategoryReach[];
}

/**
 * Live products matching `text`, best first, at most `limit`. A product matches when every word
 * typed starts a word of its name, its alternative name, its SKU, barcode, EAN or UPC, or its
 * category's name, ignoring case and diacritics ("kava" finds "Káva Yirgacheffe", "yirga" finds it
 * too). Ranked: the product whose code is the text, the product whose name is the text, products
 * with every word matched whole, then by prefix; within a rank, products whose name starts with the
 * first word typed, then by name.
 *
 * Candidates come from the multi-entry indexes `__search` of products and categories (kept by the
 * database on every write): for one word, those having it whole, then those having a word it
 * starts, then those of a category it reaches; for several, the products every word reaches. At
 * most a few times `limit` live candidates are ranked, so a one-letter search of a big catalogue
 * answers quickly with good matches rather than all of them in order.
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
  return inTransaction(db, 'r', [db.products, db.categories], (db) => rankedSearch(db, text, words, limit));
}

/**
 * The candidates met so far, in the order they came, and the live matches among them with their
 * rank, until the window is full. A candidate met again is passed over (a product found by two of
 * its words, or by a word and its category).
 */
class Ranking {
  private readonly seen = new Set<string>();
  private readonly ranked: { product: StoredRecord; rank: Rank; first: boolean }[] = [];

  constructor(
    private readonly search: Search,
    private readonly window: number,
  ) {}

  get full(): boolean {
    return this.ranked.length >= this.window;
  }

  /** Whether `key` has not been met yet. */
  isNew(key: string): boolean {
    return !this.seen.has(key);
  }

  /** Takes candidates in order until the window is full. */
  take(products: readonly (StoredRecord | undefined)[]): void {
    for (const product of products) {
      if (this.full) return;
      if (!product || this.seen.has(product.id)) continue;
      this.seen.add(product.id);
      if (!isLive(product)) continue;
      const rank = rankOf(product, this.search);
      if (rank === undefined) continue;
      const name = typeof product.name === 'string' ? searchWords(product.name) : [];
      this.ranked.push({ product, rank, first: name[0]?.startsWith(this.search.words[0]!) ?? false });
    }
  }

  /**
   * Reads the candidates of `keys` not met yet, a window's worth at a time (most candidates
   * match: the window is usually full after one read), each read awaited straight from Dexie (a
   * transaction stays open across awaits of its own requests only), until the window is full.
   */
  async takeKeys(db: MirrorDb, keys: readonly string[]): Promise<void> {
    const fresh = [...new Set(keys)].filter((key) => this.isNew(key));
    for (let start = 0; start < fresh.length && !this.full; start += this.window) {
      this.take(await db.products.bulkGet(fresh.slice(start, start + this.window)));
    }
  }

  /** The best `limit`. */
  best(limit: number): StoredRecord[] {
    this.ranked.sort((a, b) => a.rank - b.rank || Number(b.first) - Number(a.first) || nameOf(a.product).localeCompare(nameOf(b.product)));
    return this.ranked.slice(0, limit).map((r) => r.product);
  }
}

async function rankedSearch(db: MirrorDb, text: string, words: string[], limit: number): Promise<StoredRecord[]> {
  const search: Search = { words, code: foldForSearch(text.trim()), categories: [] };
  const ranking = new Ranking(search, rankWindow(limit));
  await (words.length === 1 ? singleWord(db, search, ranking, rankWindow(limit)) : severalWords(db, search, ranking, rankWindow(limit)));
  return ranking.best(limit);
}

/**
 * A search of one word. Candidates, in order: the product whose whole name it is, those having a
 * word it starts (the index holds those having it whole first), at most `2 * window` entries, then
 * the products of the categories it reaches, at most `window` each. The products come with the
 * index reads themselves, one request each (reading their keys and then each product by key costs
 * a request per product), and no more is read once the window is full.
 */
async function singleWord(db: MirrorDb, search: Search, ranking: Ranking, window: number): Promise<void> {
  const word = search.words[0]!;
  const index = () => db.products.where(SEARCH_FIELD);
  // The reads are independent: asked together, the engine answers them in one go.
  const [exact, prefixed, reach] = await Promise.all([
    index().equals(wholeNameEntry(search.words)).toArray(),
    index().startsWith(word).limit(window).toArray(),
    categoryReach(db, word),
  ]);
  search.categories = [reach];
  ranking.take(exact);
  ranking.take(prefixed);
  if (!ranking.full && prefixed.length === window) ranking.take((await index().startsWith(word).limit(2 * window).toArray()).slice(window));
  if (!ranking.full) await ranking.takeKeys(db, (await inCategories(db, reach.prefix, window)).keys);
}

/**
 * A search of several words. Each word's products (by a word of their own or of their category)
 * are read up to a cap; the words whose products were all read narrow the candidates to those
 * every one of them reaches, exactly. When every word is common (each read was cut at the cap),
 * the candidates are the first products of the longest word, and ranking keeps those all the words
 * reach: a search of common words answers with some of its matches, quickly, rather than all.
 * The product whose whole name is the text comes first.
 */
async function severalWords(db: MirrorDb, search: Search, ranking: Ranking, window: number): Promise<void> {
  const cap = 4 * window;
  const index = () => db.products.where(SEARCH_FIELD);
  // Each word's categories are read once, and serve both its candidates and the ranking.
  const reaching = search.words.map((word) => categoryReach(db, word));
  const [exact, reaches, byWord] = await Promise.all([
    index().equals(wholeNameEntry(search.words)).toArray(),
    Promise.all(reaching),
    Promise.all(
      [...search.words.keys()]
        .sort((a, b) => search.words[b]!.length - search.words[a]!.length)
        .map(async (i) => {
          const [own, reach] = await Promise.all([index().startsWith(search.words[i]!).limit(cap).primaryKeys(), reaching[i]!]);
          // A word whose own products fill the cap is common whatever its categories hold: their
          // products are read only if it is the longest word and its own do not fill the window.
          const category = own.length < cap ? await inCategories(db, reach.prefix, cap) : undefined;
          return { word: search.words[i]!, own, reach, category, complete: category?.complete === true };
        }),
    ),
  ]);
  search.categories = reaches;
  ranking.take(exact);
  const complete = byWord.filter((w) => w.complete).map((w) => new Set([...w.own, ...w.category!.keys]));
  if (complete.length === 0) {
    // The longest word's own candidates come first: read with the index itself, as for one word
    // (a window's worth, then the rest when some did not match), then those of its categories.
    // Every read is awaited right here, straight from Dexie: an extra async layer between two
    // reads can lose the transaction's zone, and the later reads then run outside it.
    const { word: longest, own, reach, category } = byWord[0]!;
    const first = await index().startsWith(longest).limit(window).toArray();
    ranking.take(first);
    if (!ranking.full && own.length > window) ranking.take((await index().startsWith(longest).limit(cap).toArray()).slice(window));
    if (ranking.full) return;
    const inCategory = category ?? (await inCategories(db, reach.prefix, cap));
    return ranking.takeKeys(db, [...own, ...inCategory.keys]);
  }
  let common = complete[0]!;
  for (const keys of complete.slice(1)) common = new Set([...common].filter((key) => keys.has(key)));
  return ranking.takeKeys(db, [...common]);
}

/** The categories `word` reaches, from the categories' search index (a few keys each). */
async function categoryReach(db: MirrorDb, word: string): Promise<CategoryReach> {
  const index = () => db.categories.where(SEARCH_FIELD);
  const [prefix, whole] = await Promise.all([index().startsWith(word).primaryKeys(), index().equals(word).primaryKeys()]);
  return { prefix: new Set(prefix), whole: new Set(whole) };
}

/**
 * Keys of products in the categories `ids`, in the order of the categories' ids, at most `cap` per
 * category (one key range each: a range is read in one request, where `anyOf` walks a cursor).
 */
async function inCategories(db: MirrorDb, ids: ReadonlySet<string>, cap: number): Promise<{ keys: string[]; complete: boolean }> {
  const ordered = [...ids].sort();
  const keys = await Promise.all(ordered.map((id) => db.products.where('id_category').equals(id).limit(cap).primaryKeys()));
  return { keys: keys.flat(), complete: keys.every((k) => k.length < cap) };
}

/** The rank of a product for the search, or undefined when a word typed starts none of its words. */
function rankOf(product: StoredRecord, search: Search): Rank | undefined {
  const own = (product[SEARCH_FIELD] as string[] | undefined) ?? [];
  const category = typeof product.id_category === 'string' ? product.id_category : undefined;
  let whole = true;
  for (const [i, word] of search.words.entries()) {
    const reach = search.categories[i]!;
    const inCategory = category !== undefined && reach.prefix.has(category);
    if (!inCategory && !own.some((w) => w.startsWith(word))) return undefined;
    if (whole && !own.includes(word) && !(category !== undefined && reach.whole.has(category))) whole = false;
  }
  for (const field of ['barcode', 'ean13', 'upc', 'sku'] as const) {
    const value = product[field];
    if (typeof value === 'string' && value !== '' && foldForSearch(value) === search.code) return Rank.Code;
  }
  if (own.includes(wholeNameEntry(search.words))) return Rank.Name;
  return whole ? Rank.WholeWords : Rank.Prefixes;
}

function nameOf(product: StoredRecord): string {
  return typeof product.name === 'string' ? product.name : '';
}
