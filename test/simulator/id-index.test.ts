import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdIndex } from '../../src/simulator/id-index.js';

const index = (ids: bigint[]) => new IdIndex(BigUint64Array.from(ids), Float64Array.from(ids, (_, i) => i));

describe('IdIndex', () => {
  it('finds bounds by binary search', () => {
    const ix = index([10n, 20n, 30n]);
    expect([ix.lowerBound(5n), ix.lowerBound(20n), ix.lowerBound(25n), ix.lowerBound(99n)]).toEqual([0, 1, 2, 3]);
    expect([ix.upperBound(5n), ix.upperBound(20n), ix.upperBound(30n)]).toEqual([0, 2, 3]);
    expect([ix.find(20n), ix.find(21n)]).toEqual([1, -1]);
  });

  it('refuses ids that are not strictly ascending, and duplicates on insert', () => {
    expect(() => index([1n, 1n])).toThrow(/ascending/);
    expect(() => index([10n]).insert(10n, 0)).toThrow(/already/);
  });

  it('stays sorted under any sequence of inserts, keeping versions with their ids', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.bigInt({ min: 1n, max: (1n << 64n) - 1n }), { maxLength: 60 }), (ids) => {
        const ix = index([]);
        ids.forEach((id, i) => ix.insert(id, i));
        const sorted = [...ids].sort((a, b) => (a < b ? -1 : 1));
        expect(Array.from({ length: ix.length }, (_, p) => ix.keyAt(p))).toEqual(sorted);
        for (let p = 0; p < ix.length; p++) expect(ix.versionAt(p)).toBe(ids.indexOf(ix.keyAt(p)));
      }),
    );
  });

  it('marks inserted ids as having no generated record', () => {
    const ix = index([10n, 30n]);
    ix.insert(20n, 5);
    expect([ix.baseAt(0), ix.baseAt(1), ix.baseAt(2)]).toEqual([0, -1, 1]);
  });
});
