import type { Table, Transaction } from 'dexie';
import type { CollectionName } from '../schema/collections.js';
import type { ConflictRow, OutboxEntry, StoredRecord } from './sync-rows.js';
import { SYNC_TABLES } from './table-names.js';

/** The tables a local edit reads and writes, bound to the edit's own transaction (see {@link boundTables}). */
export interface BoundTables {
  /** The table of one collection. */
  collection(name: CollectionName): Table<StoredRecord, string>;
  outbox: Table<OutboxEntry, number>;
  conflicts: Table<ConflictRow, string>;
}

/**
 * The tables of `tx`, bound to it: every request made through them goes to that transaction
 * whatever Dexie's ambient transaction (its zone) is at the time. The zone follows a native
 * `await` only for a bounded number of microtasks, and a `db.table(...)` request made once it
 * is lost silently goes to a transaction of its own, not atomic with the rest; a request made
 * through these after `tx` ended fails instead.
 */
export function boundTables(tx: Transaction): BoundTables {
  return {
    collection: (name) => tx.table<StoredRecord, string>(name),
    outbox: tx.table<OutboxEntry, number>(SYNC_TABLES.outbox),
    conflicts: tx.table<ConflictRow, string>(SYNC_TABLES.conflicts),
  };
}
