import fc from 'fast-check';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { compareKeys, inRange } from '../../src/node/key-order.js';
import type { JournalRange } from '../../src/node/store-format.js';

/** Keys of every kind IndexedDB has, as it stores them (dates as Date, binary keys as ArrayBuffer). */
const keyArbitrary: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  key: fc.oneof(
    { depthSize: 'small' },
    fc.double({ noNaN: true }),
    fc.integer({ min: -3, max: 3 }),
    fc.string({ maxLength: 4 }),
    fc.constantFrom('', 'a', 'ab', 'b', '\u00e9', '\ud83d\ude00'),
    fc.date({ noInvalidDate: true, min: new Date(-1e12), max: new Date(1e12) }),
    fc.uint8Array({ minLength: 1, maxLength: 3 }).map((bytes) => bytes.slice().buffer as ArrayBuffer),
    fc.array(tie('key'), { maxLength: 3 }),
  ),
})).key;

describe('compareKeys', () => {
  it('orders every kind of key as fake-indexeddb does', () => {
    const factory = new IDBFactory();
    fc.assert(
      fc.property(keyArbitrary, keyArbitrary, (a, b) => {
        expect(compareKeys(a, b)).toBe(factory.cmp(a, b));
      }),
      { numRuns: 2_000 },
    );
  });

  it('tells whether a key lies in a deletion range as IDBKeyRange does', () => {
    const rangeArbitrary = fc.record({
      lower: fc.option(keyArbitrary, { nil: undefined }),
      upper: fc.option(keyArbitrary, { nil: undefined }),
      lowerOpen: fc.boolean(),
      upperOpen: fc.boolean(),
    });
    fc.assert(
      fc.property(rangeArbitrary, keyArbitrary, ({ lower, upper, lowerOpen, upperOpen }, key) => {
        // Ranges IDBKeyRange refuses (lower above upper, or one key with an open end) are not made.
        const order = lower !== undefined && upper !== undefined ? compareKeys(lower, upper) : -1;
        if (order > 0 || (order === 0 && (lowerOpen || upperOpen))) return;
        const range: JournalRange = { type: 2, lower, upper, lowerOpen, upperOpen };
        const expected =
          lower === undefined && upper === undefined
            ? true
            : (lower === undefined ? IDBKeyRange.upperBound(upper, upperOpen) : upper === undefined ? IDBKeyRange.lowerBound(lower, lowerOpen) : IDBKeyRange.bound(lower, upper, lowerOpen, upperOpen)).includes(key);
        expect(inRange(key, range)).toBe(expected);
      }),
      { numRuns: 2_000 },
    );
    expect(inRange('a', { type: 1, lower: 'a', upper: 'a', lowerOpen: false, upperOpen: false })).toBe(true);
    expect(inRange('a', { type: 3, lower: undefined, upper: undefined, lowerOpen: false, upperOpen: false })).toBe(true);
    expect(inRange('a', { type: 4, lower: undefined, upper: undefined, lowerOpen: false, upperOpen: false })).toBe(false);
  });
});
