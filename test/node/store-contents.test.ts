import fc from 'fast-check';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { compareKeys } from '../../src/node/key-order.js';
import { inTransaction } from '../../src/node/load-stores.js';
import { StoreContents } from '../../src/node/store-contents.js';
import type { JournalRange, StoreSchema } from '../../src/node/store-format.js';

const SCHEMA: StoreSchema = { name: 'store', keyPath: null, autoIncrement: false, indexes: [] };

const keyArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: 0, max: 12 }),
  fc.constantFrom('a', 'b', 'ba', 'c', ''),
  fc.constantFrom(new Date(5), new Date(6)),
  fc.array(fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constantFrom('a', 'b')), { maxLength: 2 }),
);

type Op = { t: 'put'; key: unknown; value: number } | { t: 'delete'; key: unknown } | { t: 'deleteRange'; range: JournalRange };

const rangeArbitrary: fc.Arbitrary<JournalRange> = fc.oneof(
  fc.record({ type: fc.constant(1), lower: keyArbitrary, upper: fc.constant(undefined), lowerOpen: fc.constant(false), upperOpen: fc.constant(false) }),
  fc
    .record({ type: fc.constant(2), lower: fc.option(keyArbitrary, { nil: undefined }), upper: fc.option(keyArbitrary, { nil: undefined }), lowerOpen: fc.boolean(), upperOpen: fc.boolean() })
    .filter(({ lower, upper, lowerOpen, upperOpen }) => {
      if (lower === undefined || upper === undefined) return true;
      const order = compareKeys(lower, upper);
      return order < 0 || (order === 0 && !lowerOpen && !upperOpen);
    }),
  fc.constant({ type: 3, lower: undefined, upper: undefined, lowerOpen: false, upperOpen: false }),
);

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('put' as const), key: keyArbitrary, value: fc.integer() }),
  fc.record({ t: fc.constant('delete' as const), key: keyArbitrary }),
  fc.record({ t: fc.constant('deleteRange' as const), range: rangeArbitrary }),
);

function toKeyRange(range: JournalRange): IDBKeyRange | undefined {
  if (range.type === 1) return IDBKeyRange.only(range.lower);
  if (range.type === 3 || (range.lower === undefined && range.upper === undefined)) return undefined;
  if (range.lower === undefined) return IDBKeyRange.upperBound(range.upper, range.upperOpen);
  if (range.upper === undefined) return IDBKeyRange.lowerBound(range.lower, range.lowerOpen);
  return IDBKeyRange.bound(range.lower, range.upper, range.lowerOpen, range.upperOpen);
}

/** A store's records after `ops` over `base`, as fake-indexeddb applies them through its public API. */
async function throughIndexedDb(base: [unknown, number][], ops: Op[]): Promise<{ keys: unknown[]; values: unknown[] }> {
  const db = await new Promise<IDBDatabase>((resolve) => {
    const request = new IDBFactory().open('contents', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('store');
    request.onsuccess = () => resolve(request.result);
  });
  await inTransaction(db, ['store'], (tx) => {
    for (const [key, value] of base) tx.objectStore('store').put(value, key as IDBValidKey);
    for (const op of ops) {
      const store = tx.objectStore('store');
      if (op.t === 'put') store.put(op.value, op.key as IDBValidKey);
      else if (op.t === 'delete') store.delete(op.key as IDBValidKey);
      else {
        const range = toKeyRange(op.range);
        if (range === undefined) store.clear();
        else store.delete(range);
      }
    }
  });
  return new Promise((resolve) => {
    const tx = db.transaction(['store'], 'readonly');
    const keys = tx.objectStore('store').getAllKeys();
    const values = tx.objectStore('store').getAll();
    tx.oncomplete = () => resolve({ keys: keys.result, values: values.result });
  });
}

describe('StoreContents', () => {
  it('gives the records a store holds after a snapshot and the journal over it, as IndexedDB applies them', async () => {
    const baseArbitrary = fc.uniqueArray(fc.tuple(keyArbitrary, fc.integer()), { selector: ([key]) => JSON.stringify(key instanceof Date ? `d${key.getTime()}` : key), maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(baseArbitrary, fc.array(opArbitrary, { maxLength: 20 }), async (base, ops) => {
        const sortedBase = [...base].sort((a, b) => compareKeys(a[0], b[0]));
        const contents = new StoreContents(SCHEMA);
        // The snapshot comes in chunks, as it is written.
        expect(contents.addSnapshotRecords(sortedBase.slice(0, 5).map(([key]) => key), sortedBase.slice(0, 5).map(([, value]) => value))).toBe(true);
        expect(contents.addSnapshotRecords(sortedBase.slice(5).map(([key]) => key), sortedBase.slice(5).map(([, value]) => value))).toBe(true);
        for (const op of ops) {
          if (op.t === 'put') contents.put([op.key], [op.value]);
          else if (op.t === 'delete') contents.delete([op.key]);
          else contents.deleteRange(op.range);
        }
        expect(contents.sorted()).toEqual(await throughIndexedDb(sortedBase, ops));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses snapshot records that do not follow the ones before in ascending key order', () => {
    const contents = new StoreContents(SCHEMA);
    expect(contents.addSnapshotRecords(['a', 'c'], [1, 2])).toBe(true);
    expect(contents.addSnapshotRecords(['b'], [3])).toBe(false);
    expect(contents.addSnapshotRecords(['c'], [3])).toBe(false);
    expect(contents.addSnapshotRecords([2], [3])).toBe(false);
  });

  it('sets a generated key into a journaled value that was put without it, where the store keeps its keys', () => {
    const contents = new StoreContents({ name: 'queue', keyPath: 'deep.seq', autoIncrement: true, indexes: [] });
    contents.put([7, 8], [{ name: 'a' }, { name: 'b', deep: { seq: 8 } }]);
    expect(contents.sorted()).toEqual({ keys: [7, 8], values: [{ name: 'a', deep: { seq: 7 } }, { name: 'b', deep: { seq: 8 } }] });
  });
});
