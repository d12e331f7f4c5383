import { Dexie, type Table, type Transaction } from 'dexie';
import { tryToId } from '../ids/id.js';
import type { CollectionName } from '../schema/collections.js';
import { durabilityByTables } from './durability.js';
import { foldInflightRows } from './inflight.js';
import { inTransaction } from './in-transaction.js';
import { quarantineKey } from './quarantine-key.js';
import { productSearchIndex } from './search-index.js';
import { categorySearchWords, productSearchWords, SEARCH_FIELD } from './search-words.js';
import { buildStores, INFLIGHT_STORE, QUARANTINE_MOVING, QUARANTINE_STORE, type ExtraIndexes } from './stores.js';
import { version1Stores } from './version-1-stores.js';
import type {
  CheckpointRow,
  ConflictRow,
  InflightRow,
  MetaRow,
  OutboxEntry,
  QuarantineRow,
  StoredRecord,
} from './sync-rows.js';
import { SYNC_TABLES } from './table-names.js';

/** Where Dexie finds IndexedDB: the browser's globals, or injected ones (fake-indexeddb in Node). */
export interface IndexedDbDependencies {
  indexedDB?: IDBFactory | undefined;
  IDBKeyRange?: typeof IDBKeyRange | undefined;
}

/** Options of {@link MirrorDb}. */
export interface MirrorDbOptions extends IndexedDbDependencies {
  /** Extra indexes per collection (each costs time on every write). */
  indexes?: ExtraIndexes | undefined;
}

/**
 * The mirror's IndexedDB database: `db.<collection>` for every collection, `db.categories`
 * (the tree flattened, parent indexed) and the sync tables.
 *
 * Schema versions are declared the Dexie way: a later library version adds a
 * `this.version(n + 1).stores(...)` (with an `upgrade` when rows must change) below the
 * existing ones, so an older database opens without losing data.
 */
export class MirrorDb extends Dexie {
  declare products: Table<StoredRecord, string>;
  declare customers: Table<StoredRecord, string>;
  declare product_price_matrix: Table<StoredRecord, string>;
  declare shops: Table<StoredRecord, string>;
  declare cash_registers: Table<StoredRecord, string>;
  declare employees: Table<StoredRecord, string>;
  declare park_locations: Table<StoredRecord, string>;
  declare shifts: Table<StoredRecord, string>;
  declare stock_history: Table<StoredRecord, string>;
  declare stockup: Table<StoredRecord, string>;
  declare transactions: Table<StoredRecord, string>;
  declare warehouses: Table<StoredRecord, string>;
  declare orders: Table<StoredRecord, string>;
  declare order_details: Table<StoredRecord, string>;
  declare categories: Table<StoredRecord, string>;
  declare _sync_checkpoints: Table<CheckpointRow, string>;
  declare _sync_quarantine: Table<QuarantineRow, string>;
  declare _sync_outbox: Table<OutboxEntry, number>;
  declare _sync_conflicts: Table<ConflictRow, string>;
  declare _sync_meta: Table<MetaRow, string>;
  declare _sync_inflight: Table<InflightRow, number>;

  constructor(name: string, options: MirrorDbOptions = {}) {
    const deps: { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange } = {};
    if (options.indexedDB) deps.indexedDB = options.indexedDB;
    if (options.IDBKeyRange) deps.IDBKeyRange = options.IDBKeyRange;
    // Relaxed unless a transaction holds what exists only here (`durabilityByTables`).
    super(name, { ...deps, chromeTransactionDurability: 'relaxed' });
    this.version(1).stores(version1Stores(options.indexes));
    // Versions 2 to 5 re-key `_sync_quarantine` by record (one row each, `QuarantineRow.key`).
    // IndexedDB cannot change a primary key in place, so the rows move out to a side table
    // (deduplicated: the latest refusal of a record wins), the table is dropped, made again with
    // the new key, and the rows move back. A new database is created at version 5 directly.
    this.version(2)
      .stores({ [QUARANTINE_MOVING]: QUARANTINE_STORE })
      .upgrade((tx) => moveQuarantineRows(tx, SYNC_TABLES.quarantine, QUARANTINE_MOVING));
    this.version(3).stores({ [SYNC_TABLES.quarantine]: null });
    this.version(4)
      .stores({ [SYNC_TABLES.quarantine]: QUARANTINE_STORE })
      .upgrade((tx) => moveQuarantineRows(tx, QUARANTINE_MOVING, SYNC_TABLES.quarantine));
    this.version(5).stores({ [QUARANTINE_MOVING]: null });
    // Version 6 adds `_sync_inflight`, the write-ahead snapshots of batch POSTs (see `InflightRow`).
    // Nothing moves: an outbox entry of an older database keeps its `sent` snapshot, still read.
    this.version(6).stores({ [SYNC_TABLES.inflight]: INFLIGHT_STORE });
    // Version 7 indexes each product's search words (`__search`, multi-entry), which a middleware
    // keeps current on every write; products stored before are given theirs.
    this.version(7)
      .stores({ products: `${version1Stores(options.indexes).products}, *${SEARCH_FIELD}` })
      .upgrade((tx) =>
        tx
          .table('products')
          .toCollection()
          .modify((product: StoredRecord) => {
            product[SEARCH_FIELD] = productSearchWords(product);
          }),
      );
    // Version 8 indexes each category's name words the same way (`__search`, multi-entry), so a
    // search finds the categories a word reaches in the index instead of reading them all.
    this.version(8)
      .stores({ categories: `${version1Stores(options.indexes).categories}, *${SEARCH_FIELD}` })
      .upgrade((tx) =>
        tx
          .table('categories')
          .toCollection()
          .modify((category: StoredRecord) => {
            category[SEARCH_FIELD] = categorySearchWords(category);
          }),
      );
    // Version 9 keeps only the indexes a query helper or the sync reads by (`DEFAULT_INDEXES`, and
    // the app's own): IndexedDB updates every index on every write. Dropping an index changes no
    // row, so outbox entries, conflicts and checkpoints stay as they are. A tab of an earlier
    // release that opens the database afterwards adds back the indexes it declares (Dexie does so
    // for a schema that lacks some), and this version ignores indexes it does not declare.
    this.version(9).stores(buildStores(options.indexes));
    this.use(productSearchIndex);
    this.use(durabilityByTables);
    // Batch snapshots a dead process left are moved onto their entries as soon as the database
    // opens (a push does it again before each collection, for a tab that stayed open meanwhile).
    this.on('ready', (vip) => foldLeftoverInflight(vip), true);
  }

  /** The table of one collection (or the flattened categories). */
  collection(name: CollectionName | 'categories'): Table<StoredRecord, string> {
    return this.table(name);
  }

  /** The sync tables, for transactions that span them. */
  get syncTables(): Table[] {
    return Object.values(SYNC_TABLES).map((t) => this.table(t));
  }
}

/**
 * Folds the in-flight rows left in the database into their entries (see `foldInflightRows`). Never
 * fails the opening: a row left now is folded by the next push of its collection.
 */
async function foldLeftoverInflight(db: Dexie): Promise<void> {
  try {
    const inflight = db.table<InflightRow, number>(SYNC_TABLES.inflight);
    if ((await inflight.count()) === 0) return;
    const outbox = db.table<OutboxEntry, number>(SYNC_TABLES.outbox);
    await inTransaction(db, 'rw', [outbox, inflight], (tx) => foldInflightRows(tx.table(SYNC_TABLES.outbox), tx.table(SYNC_TABLES.inflight)));
  } catch {
    // Left for the next push.
  }
}

/**
 * Copies the quarantine rows of table `from` into table `to` keyed by record (an upgrade step):
 * rows of version 1 get their `key` (and lose `seq`), their `id` is made canonical, and of several
 * rows of one record the last one (the latest refusal) is kept.
 */
async function moveQuarantineRows(tx: Transaction, from: string, to: string): Promise<void> {
  const byKey = new Map<string, QuarantineRow>();
  for (const row of (await tx.table(from).toArray()) as (QuarantineRow & { seq?: number })[]) {
    const { seq: _seq, ...rest } = row;
    const key = quarantineKey(row.collection, row.id, row.record);
    const id = row.id === undefined ? undefined : (tryToId(row.id) ?? row.id);
    byKey.set(key, { ...rest, key, id }); // rows come in key order: a later refusal replaces an earlier one
  }
  if (byKey.size > 0) await tx.table(to).bulkPut([...byKey.values()]);
}
