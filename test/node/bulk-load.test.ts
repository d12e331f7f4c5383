import fc from 'fast-check';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { compareKeys } from '../../src/node/key-order.js';
import { inTransaction, loadStores } from '../../src/node/load-stores.js';
import type { SortedRecords } from '../../src/node/store-contents.js';
import type { SnapshotHeader, StoreSchema } from '../../src/node/store-format.js';

/**
 * A restore builds fake-indexeddb's trees itself (`bulk-load.ts`). These tests hold it to what
 * fake-indexeddb does with one put per record: the same records, the same entries in every
 * index in the same order, and trees that take later writes alike. They fail when an installed
 * fake-indexeddb stops taking the bulk path, or takes it with a different result.
 */

const STORES: StoreSchema[] = [
  {
    name: 'items',
    keyPath: 'id',
    autoIncrement: false,
    indexes: [
      { name: 'group', keyPath: 'group', unique: false, multiEntry: false },
      { name: 'tags', keyPath: 'tags', unique: false, multiEntry: true },
      { name: '[group+rank]', keyPath: ['group', 'rank'], unique: false, multiEntry: false },
      { name: 'nested.at', keyPath: 'nested.at', unique: false, multiEntry: false },
      { name: 'code', keyPath: 'code', unique: true, multiEntry: false },
      { name: 'whole', keyPath: ['id', 'nested.at'], unique: false, multiEntry: false },
    ],
  },
  { name: 'loose', keyPath: null, autoIncrement: false, indexes: [{ name: 'kind', keyPath: 'kind', unique: false, multiEntry: false }] },
  { name: 'queue', keyPath: 'seq', autoIncrement: true, indexes: [{ name: 'name', keyPath: 'name', unique: false, multiEntry: false }] },
];

/** What a field may hold: keys of every kind, and values that are no key (null, booleans, objects, NaN). */
const fieldArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('a', 'b', 'c', '', 'é'),
  fc.integer({ min: -2, max: 3 }),
  fc.constantFrom(null, undefined, true, Number.NaN, {}, new Date(Number.NaN)),
  fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(1e10) }),
  fc.array(fc.constantFrom('a', 'b', 1, 2, null, 'a'), { maxLength: 4 }),
  fc.uint8Array({ maxLength: 2 }),
);

const itemArbitrary = fc.record(
  {
    group: fieldArbitrary,
    rank: fieldArbitrary,
    tags: fieldArbitrary,
    nested: fc.oneof(fc.record({ at: fieldArbitrary }, { requiredKeys: [] }), fc.constant(null), fc.constant('flat')),
    unique: fc.boolean(),
  },
  { requiredKeys: [] },
);

interface Data {
  items: [string, Record<string, unknown>][];
  loose: [unknown, Record<string, unknown>][];
  queue: [number, Record<string, unknown>][];
}

const dataArbitrary: fc.Arbitrary<Data> = fc.record({
  items: fc.uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 3 }), itemArbitrary), { selector: ([id]) => id, maxLength: 60 }).map((rows) =>
    rows.map(([id, { unique, ...fields }]): [string, Record<string, unknown>] => [id, { id, ...fields, ...(unique ? { code: `code-${id}` } : {}) }]),
  ),
  loose: fc.uniqueArray(fc.tuple(fc.oneof(fc.integer({ min: 0, max: 50 }), fc.string({ maxLength: 2 }), fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 2 })), fieldArbitrary), {
    selector: ([key]) => JSON.stringify(key),
    maxLength: 20,
  }).map((rows) => rows.map(([key, kind]): [unknown, Record<string, unknown>] => [key, { kind }])),
  queue: fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { maxLength: 10 }).map((seqs) => seqs.map((seq): [number, Record<string, unknown>] => [seq, { seq, name: `n${seq % 3}` }])),
});

/** The records of `data`, sorted by key, as a restore hands them to the loader. */
function sortedOf(data: Data): Map<string, SortedRecords> {
  const out = new Map<string, SortedRecords>();
  for (const [name, rows] of Object.entries(data) as [string, [unknown, unknown][]][]) {
    const sorted = [...rows].sort((a, b) => compareKeys(a[0], b[0]));
    out.set(name, { keys: sorted.map(([key]) => key), values: sorted.map(([, value]) => structuredClone(value)) });
  }
  return out;
}

function header(name: string): SnapshotHeader {
  return { format: 2, db: name, version: 10, stores: STORES, journal: 0, from: 0 };
}

function openDb(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name, 10);
    request.onupgradeneeded = () => {
      for (const store of STORES) {
        const created = request.result.createObjectStore(store.name, { keyPath: store.keyPath, autoIncrement: store.autoIncrement });
        for (const index of store.indexes) created.createIndex(index.name, index.keyPath, { unique: index.unique, multiEntry: index.multiEntry });
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** The database `data` makes through the public API: one put per record, in the order given. */
async function putOneByOne(factory: IDBFactory, name: string, data: Data): Promise<IDBDatabase> {
  const db = await openDb(factory, name);
  await inTransaction(db, ['items', 'loose', 'queue'], (tx) => {
    for (const [, value] of data.items) tx.objectStore('items').put(structuredClone(value));
    for (const [key, value] of data.loose) tx.objectStore('loose').put(structuredClone(value), key as IDBValidKey);
    for (const [, value] of data.queue) tx.objectStore('queue').put(structuredClone(value));
  });
  return db;
}

/** Everything a database holds, read through the public API: every record, and every index's entries in order. */
function contentsOf(db: IDBDatabase): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const out: Record<string, unknown> = {};
    const tx = db.transaction(STORES.map((s) => s.name), 'readonly');
    type Records = { getAllRecords(): IDBRequest<{ key: unknown; primaryKey: unknown; value: unknown }[]> };
    for (const store of STORES) {
      const target = tx.objectStore(store.name);
      const records = (target as unknown as Records).getAllRecords();
      records.onsuccess = () => (out[store.name] = records.result.map((r) => [r.key, r.value]));
      for (const index of store.indexes) {
        const entries = (target.index(index.name) as unknown as Records).getAllRecords();
        entries.onsuccess = () => (out[`${store.name}.${index.name}`] = entries.result.map((r) => [r.key, r.primaryKey]));
      }
    }
    tx.oncomplete = () => resolve(out);
  });
}

/** The same later writes on both databases: puts over loaded records, new ones, deletions, a generated key. */
async function writeMore(db: IDBDatabase, data: Data): Promise<void> {
  await inTransaction(db, ['items', 'loose', 'queue'], (tx) => {
    data.items.forEach(([id, value], i) => {
      if (i % 3 === 0) tx.objectStore('items').delete(id);
      else if (i % 3 === 1) tx.objectStore('items').put({ ...value, group: 'changed', tags: ['x', 'y'], code: `again-${id}` });
    });
    tx.objectStore('items').put({ id: 'zz-new', group: 'a', tags: ['a'], rank: 1 });
    for (const [key] of data.loose.slice(0, 5)) tx.objectStore('loose').delete(key as IDBValidKey);
    tx.objectStore('queue').add({ name: 'generated' });
  });
}

describe('loading a restored database in bulk', () => {
  it('holds what one put per record gives, index by index, and takes later writes alike', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(dataArbitrary, async (data) => {
        const factory = new IDBFactory();
        const name = `bulk-${++run}`;
        expect(await loadStores(factory, header(name), sortedOf(data))).toBe('bulk');
        const bulk = await openDb(factory, name);
        const slow = await putOneByOne(factory, `${name}-put`, data);
        expect(await contentsOf(bulk)).toEqual(await contentsOf(slow));
        await writeMore(bulk, data);
        await writeMore(slow, data);
        expect(await contentsOf(bulk)).toEqual(await contentsOf(slow));
        bulk.close();
        slow.close();
      }),
      { numRuns: 40 },
    );
  });

  it('builds trees that stay searchable through many later writes and deletions', async () => {
    const factory = new IDBFactory();
    const rows: [string, Record<string, unknown>][] = Array.from({ length: 2_000 }, (_, i) => {
      const id = `id-${String(i * 7919 % 2_000).padStart(5, '0')}`;
      return [id, { id, group: `g${i % 13}`, rank: i % 7, tags: [`t${i % 5}`, `t${i % 3}`], code: `c${i}` }];
    });
    const data: Data = { items: rows, loose: [], queue: [] };
    expect(await loadStores(factory, header('many'), sortedOf(data))).toBe('bulk');
    const bulk = await openDb(factory, 'many');
    const slow = await putOneByOne(factory, 'many-put', data);
    for (let round = 0; round < 2; round++) {
      await writeMore(bulk, data);
      await writeMore(slow, data);
    }
    expect(await contentsOf(bulk)).toEqual(await contentsOf(slow));
    bulk.close();
    slow.close();
  });

  it('loads one put at a time with fake-indexeddb 6.1 (records in sorted arrays), holding what puts through it give', async () => {
    const { IDBFactory: OlderFactory } = (await import('fake-indexeddb-6-1')) as unknown as { IDBFactory: new () => IDBFactory };
    await fc.assert(
      fc.asyncProperty(dataArbitrary, async (data) => {
        const older = new OlderFactory();
        expect(await loadStores(older, header('older'), sortedOf(data))).toBe('put');
        const loaded = await openDb(older, 'older');
        const slow = await putOneByOne(new OlderFactory(), 'put', data);
        expect(await contentsOf(loaded)).toEqual(await contentsOf(slow));
        loaded.close();
        slow.close();
      }),
      { numRuns: 10 },
    );
  });

  it('refuses two records with the same key in a unique index', async () => {
    const data: Data = { items: [['a', { id: 'a', code: 'same' }], ['b', { id: 'b', code: 'same' }]], loose: [], queue: [] };
    await expect(loadStores(new IDBFactory(), header('twice'), sortedOf(data))).rejects.toThrow(/items .* unique index code/);
  });
});
