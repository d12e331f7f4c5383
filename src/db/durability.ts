import type { DBCore, Middleware } from 'dexie';
import { SYNC_TABLES } from './table-names.js';

/**
 * The tables whose rows exist nowhere but on this device until a push lands: a local edit's
 * outbox entry, a conflict the app has not resolved, a batch's write-ahead snapshot.
 */
const ONLY_HERE: ReadonlySet<string> = new Set([SYNC_TABLES.outbox, SYNC_TABLES.conflicts, SYNC_TABLES.inflight]);

/**
 * The durability a transaction over `stores` asks IndexedDB for.
 *
 * - `strict` for a read-write transaction over a table of what exists only here (a local edit, a
 *   conflict resolution, a push's snapshot and acknowledgement, an edit moved to another copy):
 *   `complete` (the promise of `save()`) then means the OS was told to flush it, so an
 *   acknowledged edit survives a power cut or an OS crash.
 * - `relaxed` for everything else, above all a pulled page: its transaction also covers the
 *   quarantine (the one table only pulls write), and what it writes came from the server and is
 *   fetched again if the page and its cursor are lost together. Strict pages would cost a flush
 *   each on a first sync of thousands of pages.
 *
 * Chromium, Firefox and WebKit take the hint (each reports the transaction's `durability`).
 */
export function durabilityOf(stores: readonly string[], mode: 'readonly' | 'readwrite'): 'strict' | 'relaxed' {
  if (mode !== 'readwrite' || stores.includes(SYNC_TABLES.quarantine)) return 'relaxed';
  return stores.some((store) => ONLY_HERE.has(store)) ? 'strict' : 'relaxed';
}

/** Gives each transaction the durability {@link durabilityOf} chooses for its tables. */
export const durabilityByTables: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'pos-cloud-mirror:durability',
  create(down) {
    return {
      ...down,
      transaction(stores, mode, options) {
        return down.transaction(stores, mode, { ...options, durability: durabilityOf(stores, mode) });
      },
    };
  },
};
