import type { DBCore, DBCoreMutateRequest, DBCoreTable, Middleware } from 'dexie';
import { categorySearchWords, productSearchWords, SEARCH_FIELD } from './search-words.js';

/** The tables whose rows carry search words, and how each row's words are made. */
const WORDS_OF: Readonly<Record<string, (record: Readonly<Record<string, unknown>>) => string[]>> = {
  products: productSearchWords,
  categories: categorySearchWords,
};

/** A row as stored, with its search words (see {@link SEARCH_FIELD}). */
function withSearchWords(record: unknown, words: (record: Readonly<Record<string, unknown>>) => string[]): unknown {
  if (typeof record !== 'object' || record === null) return record;
  return { ...record, [SEARCH_FIELD]: words(record as Record<string, unknown>) };
}

/**
 * Keeps the search words of every product and category current: each one written (whatever writes
 * it: a pull, a local edit, a reconcile sweep, a conflict resolution, an app writing to
 * `db.products` itself) is stored with its words in {@link SEARCH_FIELD}, which the multi-entry
 * index `*__search` of its table reads. A category's words let a search find the categories a word
 * reaches in its index, rather than reading every category for each search.
 */
export const productSearchIndex: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'pos-cloud-mirror:product-search-words',
  create(down) {
    return {
      ...down,
      table(name: string): DBCoreTable {
        const table = down.table(name);
        const words = WORDS_OF[name];
        if (!words) return table;
        return {
          ...table,
          mutate(request: DBCoreMutateRequest) {
            if (request.type !== 'put' && request.type !== 'add') return table.mutate(request);
            return table.mutate({ ...request, values: request.values.map((value) => withSearchWords(value, words)) });
          },
        };
      },
    };
  },
};
