import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../../../src/db/sync-rows.js';
import { mergeRecords } from '../../../src/sync/conflicts/merge.js';
import { diffFields, sameValue } from '../../../src/sync/records/fields.js';

const rec = (fields: Record<string, unknown>, v = 100): StoredRecord => ({ id: '7', _v: v, ...fields });

describe('mergeRecords', () => {
  // [title, base, local, server, expected merged fields, expected conflicts]
  const cases: [string, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>, string[]][] = [
    ['keeps a field changed only locally', { a: 1, b: 1 }, { a: 2, b: 1 }, { a: 1, b: 1 }, { a: 2, b: 1 }, []],
    ['keeps a field changed only on the server', { a: 1, b: 1 }, { a: 1, b: 1 }, { a: 1, b: 3 }, { a: 1, b: 3 }, []],
    ['merges disjoint changes of both sides silently', { a: 1, b: 1 }, { a: 2, b: 1 }, { a: 1, b: 3 }, { a: 2, b: 3 }, []],
    ['does not count the same change on both sides as a conflict', { a: 1 }, { a: 5 }, { a: 5 }, { a: 5 }, []],
    ['counts different changes of one field on both sides as a conflict and keeps the server value', { a: 1 }, { a: 2 }, { a: 3 }, { a: 3 }, ['a']],
    ['takes a field the server added', { a: 1 }, { a: 1 }, { a: 1, extra: 'x' }, { a: 1, extra: 'x' }, []],
    ['keeps a field the app added', { a: 1 }, { a: 1, note: 'n' }, { a: 1 }, { a: 1, note: 'n' }, []],
    ['removes a field the app removed', { a: 1, note: 'n' }, { a: 1 }, { a: 1, note: 'n' }, { a: 1 }, []],
    ['sees a field added on both sides with different values as a conflict', { a: 1 }, { a: 1, tag: 'x' }, { a: 1, tag: 'y' }, { a: 1, tag: 'y' }, ['tag']],
    ['compares nested values by structure', { o: { x: [1, 2] } }, { o: { x: [1, 2] } }, { o: { x: [1, 3] } }, { o: { x: [1, 3] } }, []],
    ['keeps the later date_updated when both sides touched the record', { date_updated: 1 }, { date_updated: 5 }, { date_updated: 9 }, { date_updated: 9 }, []],
    ['treats null as a value different from a missing key', { a: 1 }, { a: null }, { a: 1 }, { a: null }, []],
    ['reports every conflicting field, sorted', { b: 1, a: 1 }, { b: 2, a: 2 }, { b: 3, a: 3 }, { b: 3, a: 3 }, ['a', 'b']],
  ];

  it.each(cases)('%s', (_title, base, local, server, merged, conflicts) => {
    const result = mergeRecords(rec(base), rec(local), rec(server, 200));
    const { id: _id, _v, ...fields } = result.record;
    expect(fields).toEqual(merged);
    expect(_v).toBe(200);
    expect(result.conflicts).toEqual(conflicts);
  });

  it('ignores _v, pgx, _u_dyn, _t and hydrations: the merged record takes them from the server', () => {
    const result = mergeRecords(
      rec({ pgx: 'a', _u_dyn: 1, _t: 'products' }, 1),
      rec({ pgx: 'b', _u_dyn: 2, _t: 'products', __price_matrix_model: { x: 1 } }, 5),
      rec({ pgx: 'c', _u_dyn: 3, _t: 'products' }, 9),
    );
    expect(result.conflicts).toEqual([]);
    expect(result.record).toEqual({ id: '7', _v: 9, pgx: 'c', _u_dyn: 3, _t: 'products' });
  });

  it('with a null base (a local create), counts every field both sides hold with different values as a conflict', () => {
    const result = mergeRecords(null, rec({ name: 'mine', price: 1 }, 0), rec({ name: 'theirs', price: 1, id_c: '5' }));
    expect(result.conflicts).toEqual(['name']);
    expect(result.record.id_c).toBe('5');
  });

  it('with `changed`, lets the server win every field the app did not change', () => {
    // The local copy still shows an old server value of `b`: it is not a local change.
    const result = mergeRecords(rec({ a: 1, b: 1 }), rec({ a: 2, b: 1 }), rec({ a: 1, b: 3 }), ['a']);
    expect(result.record).toMatchObject({ a: 2, b: 3 });
    expect(result.changed).toEqual(['a']);
  });

  it('lists in `changed` the local changes the merged record still carries', () => {
    const result = mergeRecords(rec({ a: 1, b: 1, c: 1 }), rec({ a: 2, b: 2, c: 1 }), rec({ a: 1, b: 2, c: 4 }));
    expect(result.changed).toEqual(['a']);
  });
});

describe('sameValue', () => {
  it.each([
    [1, 1, true],
    [0, -0, true],
    [Number.NaN, Number.NaN, true],
    ['1', 1, false],
    [null, undefined, false],
    [[1, [2]], [1, [2]], true],
    [[1, 2], [2, 1], false],
    [{ a: 1, b: undefined }, { a: 1 }, true],
    [{ a: 1 }, [1], false],
    [{ a: { b: 1 } }, { a: { b: 2 } }, false],
  ])('sameValue(%j, %j) is %s', (a, b, expected) => {
    expect(sameValue(a, b)).toBe(expected);
  });
});

describe('diffFields', () => {
  it('lists the data fields that differ, without meta fields', () => {
    expect(diffFields(rec({ a: 1, b: 2, pgx: 'x' }, 1), rec({ a: 1, b: 3, c: 0, pgx: 'y' }, 2))).toEqual(['b', 'c']);
  });
});
