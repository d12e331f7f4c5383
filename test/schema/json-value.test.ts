import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { nonJsonFields } from '../../src/schema/json-value.js';

describe('nonJsonFields', () => {
  it('takes a plain object of another realm as plain (a record read through another frame\'s IndexedDB)', () => {
    const other = runInNewContext('({ address: { city: "Brno", lines: ["a"] } })') as Record<string, unknown>;
    expect(Object.getPrototypeOf(other.address)).not.toBe(Object.prototype);
    expect(nonJsonFields(other)).toEqual([]);
  });

  it('still refuses an object with a prototype of its own', () => {
    class Money {
      amount = 1;
    }
    expect(nonJsonFields({ price: new Money() })).toHaveLength(1);
    expect(nonJsonFields({ at: new Date(0) })).toHaveLength(1);
  });
});
