import type { DBCore, DBCoreMutateRequest, DBCoreTable, Middleware } from 'dexie';
import { productSearchWords, SEARCH_FIELD } from './search-words.js';

/** A product as stored, with its search words (see {@link SEARCH_FIELD}). */
function withSearchWords(record: unknown): unknown {
  if (typeof record !== 'object' || record === null) return record;
  return { ...record, [SEARCH_FIELD]: productSearchWords(record as Record<string, unknown>) };
}

/**
 * Keeps every product's search words current: each product written (whatever writes it: a pull, a
 * local edit, a reconcile sweep, a conflict resolution, an app writing to `db.products` itself)
 * is stored with its words in {@link SEARCH_FIELD}, which the multi-entry index `*__search` reads.
 */
export const productSearchIndex: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'pos-cloud-mirror:product-search-words',
  create(down) {
    return {
      ...down,
      table(name: string): DBCoreTable {
        const table = down.table(name);
        if (name !== 'products') return table;
        return {
          ...table,
          mutate(request: DBCoreMutateRequest) {
            if (request.type !== 'put' && request.type !== 'add') return table.mutate(request);
            return table.mutate({ ...request, values: request.values.map(withSearchWords) });
          },
        };
      },
    };
  },
};
