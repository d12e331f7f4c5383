import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import {
  idField,
  idFieldsOf,
  isIdFieldName,
  normalizeIdFields,
  nullableIdField,
  optionalIdField,
  optionalNullableIdField,
} from '../../src/schema/index.js';

const BEYOND_2_53 = '1152921504606846976';

describe('idField', () => {
  it('outputs the canonical decimal string for numbers, bigints and digit strings', () => {
    expect(idField.parse(0)).toBe('0');
    expect(idField.parse(12345)).toBe('12345');
    expect(idField.parse(Number.MAX_SAFE_INTEGER)).toBe('9007199254740991');
    expect(idField.parse(2n ** 60n)).toBe(BEYOND_2_53);
    expect(idField.parse(BEYOND_2_53)).toBe(BEYOND_2_53);
    expect(idField.parse(`0000${BEYOND_2_53}`)).toBe(BEYOND_2_53);
    expect(idField.parse('000')).toBe('0');
  });

  it('agrees with BigInt on any non-negative integer, whatever the input form', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 80n }), fc.nat(3), (value, zeros) => {
        const expected = value.toString();
        expect(idField.parse(value)).toBe(expected);
        expect(idField.parse('0'.repeat(zeros) + expected)).toBe(expected);
        if (value <= BigInt(Number.MAX_SAFE_INTEGER)) expect(idField.parse(Number(value))).toBe(expected);
      }),
    );
  });

  it('rejects what cannot be an id, saying why', () => {
    const cases: Array<[unknown, RegExp]> = [
      [-1, /must be an id .*got number -1/],
      [1.5, /got number 1.5/],
      [-1n, /got bigint -1/],
      ['12a', /got the string "12a"/],
      ['', /got the string ""/],
      [' 12', /got the string " 12"/],
      ['-5', /got the string "-5"/],
      ['1e3', /got the string "1e3"/],
      [null, /got null/],
      [true, /got boolean true/],
      [{}, /got an object/],
      [2 ** 60, /beyond 2\^53 and its exact digits are lost/],
      [undefined, /^required$/],
    ];
    for (const [input, message] of cases) {
      const result = idField.safeParse(input);
      expect(result.success, String(input)).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(message);
    }
  });

  it('has nullable and optional variants', () => {
    expect(nullableIdField.parse(null)).toBeNull();
    expect(nullableIdField.safeParse(undefined).success).toBe(false);
    expect(optionalIdField.parse(undefined)).toBeUndefined();
    expect(optionalIdField.safeParse(null).success).toBe(false);
    expect(optionalNullableIdField.parse(null)).toBeNull();
    expect(optionalNullableIdField.parse(undefined)).toBeUndefined();
    const shape = z.object({ id_a: optionalNullableIdField });
    expect(shape.parse({})).toEqual({});
    expect(shape.parse({ id_a: 7 })).toEqual({ id_a: '7' });
  });
});

describe('isIdFieldName', () => {
  it('names id, id_c and id_* references', () => {
    for (const name of ['id', 'id_c', 'id_shop', 'id_order_details_parent', 'id_x']) expect(isIdFieldName(name)).toBe(true);
  });

  it('leaves out id_payment (a payment-form code) and look-alikes', () => {
    for (const name of ['id_payment', 'ids', 'idx', 'product_attribute_id', 'pid', 'Id', '_id']) {
      expect(isIdFieldName(name), name).toBe(false);
    }
  });
});

describe('normalizeIdFields', () => {
  it('canonicalizes every id field in place and leaves the rest', () => {
    const record = { id: 5, id_c: '007', id_x: 3n, id_null: null, id_bad: 'abc', id_payment: 221, name: '0042' };
    expect(normalizeIdFields(record)).toBe(record);
    expect(record).toEqual({ id: '5', id_c: '7', id_x: '3', id_null: null, id_bad: 'abc', id_payment: 221, name: '0042' });
  });
});

describe('idFieldsOf', () => {
  it('lists the fields that hold a canonical id, for the JSON writer to emit as bare integers', () => {
    const record = { id: BEYOND_2_53, name: 'x', id_c: '42', id_customer: null, id_payment: 221, id_shop: '0', id_odd: 'abc' };
    expect(idFieldsOf(record)).toEqual(['id', 'id_c', 'id_shop']);
  });
});
