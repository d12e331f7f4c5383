import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonParseError } from '../../src/errors/index.js';
import { parseJson } from '../../src/json/index.js';
import { prepareJsonText } from '../../src/json/prepare-json-text.js';
import { jsonDocument, mutatedJsonText } from './helpers/json-documents.js';
import { differencesFromNative } from './helpers/same-as-native.js';

function parseError(text: unknown): JsonParseError {
  try {
    parseJson(text as string);
  } catch (error) {
    if (error instanceof JsonParseError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

describe('parseJson', () => {
  describe('integers', () => {
    it('returns integers outside the safe range as exact decimal strings', () => {
      expect(parseJson('{"id":123456789012345678901}')).toEqual({ id: '123456789012345678901' });
      expect(parseJson('[9007199254740992,9007199254740993,18014398509481985]')).toEqual([
        '9007199254740992',
        '9007199254740993',
        '18014398509481985',
      ]);
    });

    it('keeps the sign of a negative big integer', () => {
      expect(parseJson('[-9007199254740992, -123456789012345678901234567890]')).toEqual([
        '-9007199254740992',
        '-123456789012345678901234567890',
      ]);
    });

    it('returns safe integers, 16-digit ones included, as numbers', () => {
      expect(parseJson('[9007199254740991,-9007199254740991,1000000000000000,8999999999999999,0,-1]')).toEqual([
        9007199254740991, -9007199254740991, 1000000000000000, 8999999999999999, 0, -1,
      ]);
    });

    it('leaves numbers with a fraction or an exponent to JSON.parse, however long', () => {
      const values = parseJson('[1e400, -0, 1.0, 12345678901234567890.5, 12345678901234567890e0, 1E22, -1e-400]') as number[];
      // eslint-disable-next-line no-loss-of-precision -- the same rounding JSON.parse does is the point
      expect(values).toEqual([Number.POSITIVE_INFINITY, -0, 1, 12345678901234567890.5, 12345678901234567890, 1e22, -0]);
      expect(Object.is(values[1], -0)).toBe(true);
    });

    it('keeps a top-level big integer exact, with surrounding whitespace', () => {
      expect(parseJson(' \n12345678901234567890\t')).toBe('12345678901234567890');
      expect(parseJson('-12345678901234567890')).toBe('-12345678901234567890');
    });

    it('finds big integers in pretty-printed text', () => {
      const text = '{\n  "id" : 12345678901234567890 ,\n  "ids": [ 12345678901234567891\n, 2 ],\n  "id_c":\r\n\t12345678901234567892\n}';
      expect(parseJson(text)).toEqual({ id: '12345678901234567890', ids: ['12345678901234567891', 2], id_c: '12345678901234567892' });
    });

    it('never touches digits inside strings, whatever surrounds them', () => {
      const inner = '{"id":12345678901234567890,"list":[12345678901234567891]}';
      const text = JSON.stringify({ internal_json: inner, note: 'x:12345678901234567890,', tail: '\\', barcode: '12345678901234567890' });
      expect(parseJson(text)).toEqual({ internal_json: inner, note: 'x:12345678901234567890,', tail: '\\', barcode: '12345678901234567890' });
      // A string that ends in an escaped backslash must not hide the number after it.
      expect(parseJson('["a\\\\",12345678901234567890,"\\"",12345678901234567891]')).toEqual([
        'a\\',
        '12345678901234567890',
        '"',
        '12345678901234567891',
      ]);
    });

    it('returns for random documents what they were built to hold', () => {
      fc.assert(
        fc.property(jsonDocument, ({ text, value }) => {
          expect(parseJson(text)).toEqual(value);
        }),
        { numRuns: 500 },
      );
    });
  });

  describe('strictness', () => {
    it('rejects exactly what JSON.parse rejects, also around big integers', () => {
      fc.assert(
        fc.property(mutatedJsonText, (text) => {
          let native: unknown;
          let nativeOk = true;
          try {
            native = JSON.parse(text);
          } catch {
            nativeOk = false;
          }
          if (nativeOk) {
            // The exact quoting supplies the digits, so a token the fast scan missed shows up.
            const exact: unknown = JSON.parse(prepareJsonText(text));
            expect(differencesFromNative(parseJson(text), native, exact)).toEqual([]);
          } else {
            expect(() => parseJson(text)).toThrow(JsonParseError);
          }
        }),
        { numRuns: 3000 },
      );
    });

    it('does not let quoting turn an invalid text into a valid one', () => {
      for (const text of [
        '{12345678901234567890:1}',
        '{12345678901234567890 : 1}',
        '{"a":1,12345678901234567890}',
        '[012345678901234567890]',
        '[-012345678901234567890]',
        '[--12345678901234567890]',
        '[+12345678901234567890]',
        '["a"12345678901234567890]',
        '[12345678901234567890"a"]',
        '[1 12345678901234567890]',
        '["abc 12345678901234567890]',
        '[12345678901234567890.]',
        '[12345678901234567890e]',
        '\ufeff12345678901234567890',
      ]) {
        expect(() => JSON.parse(text)).toThrow(SyntaxError);
        expect(() => parseJson(text), text).toThrow(JsonParseError);
      }
    });

    it('reports the position of the first bad character in the caller\'s text, with a reason', () => {
      const cases: [string, number, RegExp][] = [
        ['', 0, /unexpected end of text, expected a value/],
        ['[12345678901234567890, 12345678901234567891,]', 44, /unexpected '\]', expected a value/],
        ['{"a":1 "b":2}', 7, /expected ',' or '}' after a property value/],
        ['[1,2', 4, /unexpected end of text, expected ',' or '\]'/],
        ['{"a" 1}', 5, /expected ':' after a property name/],
        ['["tab\there"]', 5, /unescaped control character U\+0009 in a string/],
        ['["\\x"]', 2, /invalid escape: 'x' after a backslash/],
        ['["\\u12G4"]', 6, /a hex digit in a \\u escape/],
        ['[01]', 2, /leading zero/],
        ['[1.]', 3, /a digit after '\.'/],
        ['[1e+]', 4, /a digit in the exponent/],
        ['[tru]', 4, /expected 'true'/],
        ['{"a":1}x', 7, /expected the end of the text after the JSON value/],
        ['["open', 6, /unterminated string/],
        ['[NaN]', 1, /unexpected 'N', expected a value/],
      ];
      for (const [text, position, reason] of cases) {
        const error = parseError(text);
        expect(error.position, text).toBe(position);
        expect(error.message, text).toMatch(reason);
      }
    });

    it('counts lines and columns for multi-line text', () => {
      expect(parseError('{\n  "a": 1,\n  "b": ]\n}').message).toMatch(/^invalid JSON at line 3, column 8 \(position 19\): unexpected '\]'/);
    });

    it('keeps the engine error as the cause', () => {
      expect(parseError('[1,]').cause).toBeInstanceOf(SyntaxError);
    });

    it('rejects input that is not a string with a JsonParseError', () => {
      expect(parseError(Buffer.from('[1]')).message).toBe('parseJson: expected the JSON text as a string, got object');
      expect(parseError(undefined).message).toMatch(/got undefined/);
    });
  });

  describe('prototype keys', () => {
    const snapshot = () => Object.getOwnPropertyNames(Object.prototype).sort();

    it('drops __proto__ and constructor keys at any depth', () => {
      const before = snapshot();
      const value = parseJson(
        '{"__proto__":{"x":1},"a":[{"constructor":{"prototype":{"y":2}},"b":1}],"c":{"__proto__":null,"d":2}}',
      ) as Record<string, unknown>;
      expect(value).toEqual({ a: [{ b: 1 }], c: { d: 2 } });
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.getPrototypeOf(value.c)).toBe(Object.prototype);
      expect(Object.hasOwn(value, '__proto__')).toBe(false);
      expect((value as { x?: unknown }).x).toBeUndefined();
      expect(snapshot()).toEqual(before);
    });

    it('drops them when they are spelled with escapes', () => {
      expect(parseJson('{"\\u005f_proto__":{"x":1},"\\u0063onstructor":1,"__pro\\u0074o__":2,"ok":3}')).toEqual({ ok: 3 });
    });

    it('keeps the same words as values and inside other keys', () => {
      expect(parseJson('{"note":"__proto__","constructor_name":"constructor","x":{"k":"\\u005f"}}')).toEqual({
        note: '__proto__',
        constructor_name: 'constructor',
        x: { k: '_' },
      });
    });

    it('leaves nothing that Object.assign, spread or a naive deep merge could use to pollute', () => {
      const parsed = parseJson('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"safe":true}');
      const assigned = Object.assign({}, parsed) as Record<string, unknown>;
      const spread = { ...(parsed as object) } as Record<string, unknown>;
      expect(assigned.polluted).toBeUndefined();
      expect(spread.polluted).toBeUndefined();
      expect(Object.getPrototypeOf(assigned)).toBe(Object.prototype);
      const merge = (target: Record<string, unknown>, source: Record<string, unknown>): void => {
        for (const key in source) {
          const value = source[key];
          if (value !== null && typeof value === 'object') {
            if (typeof target[key] !== 'object' && typeof target[key] !== 'function') target[key] = {};
            merge(target[key] as Record<string, unknown>, value as Record<string, unknown>);
          } else target[key] = value;
        }
      };
      merge({}, parsed as Record<string, unknown>);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
    });

    it('would be polluted by the same merge of a JSON.parse result (the test can fail)', () => {
      const parsed = JSON.parse('{"__proto__":{"polluted":1}}') as object;
      expect((Object.assign({}, parsed) as Record<string, unknown>).polluted).toBe(1);
    });
  });
});
