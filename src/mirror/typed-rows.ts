import type { Table } from 'dexie';
import type { MirrorDb } from '../db/mirror-db.js';
import type { ConflictRow, OutboxEntry } from '../db/sync-rows.js';
import type { Id } from '../ids/id.js';
import type { CollectionName } from '../schema/collections.js';
import type { StoredRecordOf } from '../schema/types.js';

/**
 * An edit the server has not acknowledged yet (an outbox entry), typed by its collection: narrow
 * on `collection` and `base` and `server` are records of that collection.
 */
export type PendingEdit<C extends CollectionName = CollectionName> = {
  [K in C]: Omit<OutboxEntry, 'collection' | 'base' | 'server'> & {
    collection: K;
    /** Server state the first edit was made on; null for a record created here. */
    base: StoredRecordOf<K> | null;
    /** Latest server state seen since `base`. */
    server: StoredRecordOf<K> | null;
  };
}[C];

/**
 * An unresolved conflict, typed by its collection: the record as this device left it (`local`),
 * as the server has it (`server`) and as both last agreed (`base`), each a record of `collection`,
 * with the fields each side changed.
 */
export type Conflict<C extends CollectionName = CollectionName> = {
  [K in C]: Omit<ConflictRow, 'collection' | 'local' | 'server' | 'base'> & {
    collection: K;
    local: StoredRecordOf<K> | null;
    server: StoredRecordOf<K> | null;
    base: StoredRecordOf<K> | null;
    /** Fields this device changed (sorted), as its edit recorded them. */
    localChanged: string[];
    /** Fields the server changed since `base` (sorted); those also in `localChanged` with other values are `fields`. */
    serverChanged: string[];
  };
}[C];

/** The table of every collection (and the flattened categories), typed by its records. */
export type CollectionTables = { readonly [C in CollectionName | 'categories']: Table<StoredRecordOf<C>, Id> };

/**
 * The mirror's Dexie database as an app sees it: `db.<collection>` is a `Table` of that
 * collection's records (`db.customers.get(id)` is a `Customer`), `collection(name)` too.
 */
export type MirrorDatabase = Omit<MirrorDb, CollectionName | 'categories' | 'collection'> &
  CollectionTables & {
    /** The table of one collection (or the flattened categories). */
    collection<C extends CollectionName | 'categories'>(name: C): Table<StoredRecordOf<C>, Id>;
  };
