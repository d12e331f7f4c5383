import { describe, expect, it } from 'vitest';
import { parseRecord } from '../../src/schema/index.js';

describe('parseRecord', () => {
  it('returns the parsed record on success', () => {
    expect(parseRecord('customers', { id: '0012', _v: 3, id_c: '0005', company: null })).toEqual({
      ok: true,
      record: { id: '12', _v: 3, id_c: '5', _d: 0, _t: 'customers', company: null },
    });
  });

  it('returns every issue with paths instead of throwing', () => {
    const result = parseRecord('orders', { id: 'x', _v: -1, id_shop: 'y', dine_in: 'no' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.path)).toEqual([['id'], ['_v'], ['id_shop'], ['dine_in']]);
    expect(result.issues[3]?.message).toBe('expected true or false, got the string "no"');
  });

  it('reports a body that is not an object at the record level', () => {
    for (const raw of [null, 5, 'x', [1]]) {
      const result = parseRecord('products', raw);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.issues[0]?.path).toEqual([]);
    }
  });

  it('answers an unknown collection with an issue, not a throw', () => {
    expect(parseRecord('nope' as 'products', { id: 1, _v: 1 })).toEqual({
      ok: false,
      issues: [{ path: [], message: 'unknown collection "nope"' }],
    });
  });

  it('does not modify the raw record', () => {
    const raw = { id: 5, _v: 1, id_x: '07' };
    parseRecord('shifts', raw);
    expect(raw).toEqual({ id: 5, _v: 1, id_x: '07' });
  });

  it('never lets a __proto__ key reach the prototype of the record or of objects', () => {
    const raw = JSON.parse('{"id": 1, "_v": 1, "__proto__": {"polluted": true}, "constructor": 5}') as unknown;
    const result = parseRecord('shifts', raw);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.getPrototypeOf(result.record)).toBe(Object.prototype);
    expect((result.record as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(result.record['constructor']).toBe(5);
  });
});
