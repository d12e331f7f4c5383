/**
 * Page code: what each of the mirror's default indexes costs a write. A collection's pages are
 * fetched and parsed first, untimed (the mirror's first-sync traversal: its direction and page
 * limit), then written with bare `bulkPut`s, one page a transaction, into a fresh table keyed by
 * `id` with no secondary index, with each default index alone, and with all of them (the
 * mirror's own table definition, `buildStores`), the variants' order turning each round.
 */
import { Dexie } from 'dexie';
import { buildStores } from '../../../src/db/stores.js';
import type { CollectionName } from '../../../src/schema/collections.js';
import { PULL_DEFAULTS } from '../../../src/sync/pull/pull-defaults.js';
import { pageLimitFor } from '../../../src/sync/pull/traverse.js';
import { traversalDirection } from '../../../src/sync/pull/traversal-direction.js';

/** What the measurement is given. */
export interface IndexCostArgs {
  /** The API's base URL, as the page reaches it (ids served as strings). */
  base: string;
  token: string;
  collections: CollectionName[];
  rounds: number;
}

/** One collection's writes: records/s by variant (`none`, each index, `all`), one value per round. */
export interface IndexCostCollection {
  collection: CollectionName;
  records: number;
  /** The variants in the order they are reported: `none`, each default index alone, `all`. */
  variants: string[];
  rates: Record<string, number[]>;
}

/** The variant with no secondary index, and the one with every default index. */
export const NO_INDEX = 'none';
export const ALL_INDEXES = 'all';

/** Fetches each collection's pages once, then times each variant's writes `rounds` times. */
export async function indexCost(args: IndexCostArgs): Promise<IndexCostCollection[]> {
  const out: IndexCostCollection[] = [];
  for (const collection of args.collections) {
    const pages = await fetchPages(args, collection);
    const records = pages.reduce((n, page) => n + page.length, 0);
    const all = buildStores()[collection]!;
    const indexes = all.split(',').map((s) => s.trim()).slice(1);
    const specs = new Map<string, string>([[NO_INDEX, 'id'], ...indexes.map((index): [string, string] => [index, `id, ${index}`]), [ALL_INDEXES, all]]);
    const variants = [...specs.keys()];
    const rates: Record<string, number[]> = {};
    // One untimed write first: the first variant timed would otherwise also pay for the engine's warm-up.
    await timeWrites(`index-cost-${collection}-warm-up`, collection, specs.get(ALL_INDEXES)!, pages);
    for (let round = 0; round < args.rounds; round++) {
      for (const variant of variants.map((_, i, list) => list[(i + round) % list.length]!)) {
        const ms = await timeWrites(`index-cost-${collection}-${round}`, collection, specs.get(variant)!, pages);
        (rates[variant] ??= []).push(records / (ms / 1000));
      }
    }
    out.push({ collection, records, variants, rates });
  }
  return out;
}

/** Writes `pages` into a fresh table of `collection` defined by `spec`, one page a transaction; the writes' time (ms). */
async function timeWrites(name: string, collection: CollectionName, spec: string, pages: readonly { id: string }[][]): Promise<number> {
  const db = new Dexie(name);
  db.version(1).stores({ [collection]: spec });
  try {
    await db.open();
    const table = db.table(collection);
    const started = performance.now();
    for (const page of pages) await table.bulkPut(page);
    return performance.now() - started;
  } finally {
    db.close();
    await Dexie.delete(name);
  }
}

/** Every page of a first sync's traversal of `collection`, parsed with `JSON.parse`. */
async function fetchPages(args: IndexCostArgs, collection: CollectionName): Promise<{ id: string }[][]> {
  const direction = traversalDirection(collection, 0);
  const limit = pageLimitFor(collection, PULL_DEFAULTS.pageLimit);
  const pages: { id: string }[][] = [];
  let idStart: string | undefined;
  for (;;) {
    const url = `${args.base}/${collection}?limit=${limit}&direction=${direction}&version_start=0${idStart === undefined ? '' : `&id_start=${idStart}`}`;
    const response = await fetch(url, { headers: { Authorization: `A|${args.token}`, Accept: 'application/json' } });
    if (!response.ok) throw new Error(`index cost: GET ${collection} answered ${response.status}`);
    const page = JSON.parse(await response.text()) as { id: string }[];
    pages.push(page);
    if (page.length < limit) return pages;
    idStart = page[page.length - 1]!.id;
  }
}
