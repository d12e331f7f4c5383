import { compareKeys } from './key-order.js';
import { addIndexKeys, valueAt } from './index-keys.js';
import type { SortedRecords } from './store-contents.js';
import type { IndexSchema, StoreSchema } from './store-format.js';

/**
 * Loading a restored store into fake-indexeddb in one step per tree, instead of one `put` per
 * record. fake-indexeddb (6.2 on) keeps each object store's records, and each index's entries,
 * in a binary search tree of `{ key, value }` records, and can build such a tree balanced from a
 * sorted array (`_rebuild`, what it does itself after many deletions). A restore has its records
 * sorted already; it computes every index's entries, sorts them once, and builds each tree from
 * its array: no key comparison per insertion, no structured clone of values it has just read
 * (nothing else holds them), no exception per field that is not a key.
 *
 * These are fake-indexeddb's internals, not its API: the loader checks their shape before
 * touching them (any other shape: `unsupported`, nothing touched) and the restore checks the
 * result through the public API (counts, first and last keys) before it trusts it, loading the
 * slow way otherwise. `test/node/bulk-load.test.ts` fails when an installed version stops
 * taking this path, or takes it with a different result than `put`.
 */

/** A tree of fake-indexeddb's records, as far as the loader uses it. */
interface RecordTree {
  _root: unknown;
  _numNodes: number;
  _numTombstones: number;
  _rebuild(records: TreeRecord[], parent: undefined, red: boolean): unknown;
}

/** A record of a tree: for a store, key and value; for an index, the index key and the record's primary key. */
interface TreeRecord {
  key: unknown;
  value: unknown;
}

/**
 * The tree of a store or index that holds no record (it may hold deleted ones: a key generator
 * is advanced by a put and a delete), or undefined when it does not look like one.
 */
function emptyTreeOf(holder: unknown): RecordTree | undefined {
  const records = (holder as { records?: unknown } | undefined)?.records;
  if (typeof records !== 'object' || records === null) return undefined;
  const tree = records as Partial<RecordTree>;
  if (typeof tree._rebuild !== 'function') return undefined;
  if (typeof tree._numNodes !== 'number' || tree._numTombstones !== tree._numNodes) return undefined;
  return tree as RecordTree;
}

/** The internal stores of an open fake-indexeddb database, or undefined when it keeps them otherwise. */
function rawStoresOf(db: IDBDatabase): Map<string, unknown> | undefined {
  // Internals of fake-indexeddb, which its types do not show: read as unknown, and checked.
  const raw: unknown = Reflect.get(db, '_rawDatabase');
  const stores: unknown = typeof raw === 'object' && raw !== null ? Reflect.get(raw, 'rawObjectStores') : undefined;
  return stores instanceof Map ? stores : undefined;
}

/** How a store and its indexes were found: their empty trees, or why they cannot be loaded at once. */
type Trees = { records: RecordTree; indexes: { schema: IndexSchema; tree: RecordTree }[] } | undefined;

function treesOf(db: IDBDatabase, schema: StoreSchema): Trees {
  const raw = rawStoresOf(db)?.get(schema.name) as { records?: unknown; rawIndexes?: unknown } | undefined;
  const records = emptyTreeOf(raw?.records);
  if (!raw || !records || !(raw.rawIndexes instanceof Map)) return undefined;
  const indexes = [];
  for (const index of schema.indexes) {
    const rawIndex = raw.rawIndexes.get(index.name) as { records?: unknown; initialized?: unknown; unique?: unknown; multiEntry?: unknown } | undefined;
    const tree = emptyTreeOf(rawIndex?.records);
    if (!tree || rawIndex?.initialized !== true || rawIndex.unique !== index.unique || rawIndex.multiEntry !== index.multiEntry) return undefined;
    indexes.push({ schema: index, tree });
  }
  if (raw.rawIndexes.size !== indexes.length) return undefined;
  return { records, indexes };
}

/** What {@link loadInBulk} did. */
export type BulkLoad =
  /** Loaded: the entries of each index, to check it by. */
  | { loaded: true; entries: Map<string, TreeRecord[]> }
  /**
   * Not loaded, nothing touched: fake-indexeddb keeps its records otherwise, or (`duplicate`, the
   * index's name) two records share the key of a unique index, which is damaged data.
   */
  | { loaded: false; duplicate?: string };

/**
 * Loads `records` (ascending keys, as a snapshot holds them) into the empty store `schema` of
 * `db`, and builds its indexes from them.
 */
export function loadInBulk(db: IDBDatabase, schema: StoreSchema, records: SortedRecords): BulkLoad {
  const trees = treesOf(db, schema);
  if (!trees) return { loaded: false };
  const { keys, values } = records;
  if (typeof schema.keyPath === 'string') shareInlineKeys(schema.keyPath, keys, values);
  const entries = new Map<string, TreeRecord[]>();
  for (const { schema: index } of trees.indexes) {
    const indexed = indexEntries(index, keys, values);
    if (indexed === undefined) return { loaded: false, duplicate: index.name };
    entries.set(index.name, indexed);
  }
  build(trees.records, keys.map((key, i) => ({ key, value: values[i] })));
  for (const { schema: index, tree } of trees.indexes) build(tree, entries.get(index.name)!);
  return { loaded: true, entries };
}

/**
 * The entries of `index` in the order its tree keeps them: by index key, then by primary key.
 * The records come in primary key order and the sort is stable, so sorting by index key alone
 * leaves entries of one key in primary key order. Undefined when a unique index has a key twice.
 */
function indexEntries(index: IndexSchema, keys: readonly unknown[], values: readonly unknown[]): TreeRecord[] | undefined {
  const entries: TreeRecord[] = [];
  // Keys all of one primitive type (most indexes) are compared without ranking their types.
  const all = { strings: true, numbers: true };
  let primaryKey: unknown;
  const add = (key: unknown) => {
    if (typeof key !== 'string') all.strings = false;
    if (typeof key !== 'number') all.numbers = false;
    entries.push({ key, value: primaryKey });
  };
  for (let i = 0; i < values.length; i++) {
    primaryKey = keys[i];
    addIndexKeys(index, values[i], add);
  }
  entries.sort(all.strings ? byStringKey : all.numbers ? byNumberKey : byKey);
  let kept = 0;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const previous = kept > 0 ? entries[kept - 1]! : undefined;
    if (previous && compareKeys(previous.key, entry.key) === 0) {
      if (index.unique) return undefined;
      // One record listing the same key twice in a multi-entry array is one entry, as a put keeps it.
      if (compareKeys(previous.value, entry.value) === 0) continue;
    }
    entries[kept++] = entry;
  }
  entries.length = kept;
  return entries;
}

const byKey = (a: TreeRecord, b: TreeRecord) => compareKeys(a.key, b.key);
const byStringKey = (a: TreeRecord, b: TreeRecord) => ((a.key as string) < (b.key as string) ? -1 : (a.key as string) > (b.key as string) ? 1 : 0);
const byNumberKey = (a: TreeRecord, b: TreeRecord) => ((a.key as number) < (b.key as number) ? -1 : (a.key as number) > (b.key as number) ? 1 : 0);

/**
 * Where a record carries its key (`keyPath`), the key read with it is a second copy of a string
 * the value holds: the value's own is kept instead, as a put keeps it, and the copy let go.
 */
function shareInlineKeys(keyPath: string, keys: unknown[], values: readonly unknown[]): void {
  for (let i = 0; i < keys.length; i++) {
    const own = valueAt(values[i], keyPath);
    if (typeof own === 'string' && own === keys[i]) keys[i] = own;
  }
}

/** Builds `tree` balanced from `sorted`, as fake-indexeddb rebuilds a tree after deletions. */
function build(tree: RecordTree, sorted: TreeRecord[]): void {
  tree._root = tree._rebuild(sorted, undefined, false);
  tree._numNodes = sorted.length;
  tree._numTombstones = 0;
}
