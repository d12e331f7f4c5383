import JSONbig from 'json-bigint';
import { describe, expect, it } from 'vitest';
import { JsonParseError } from '../../src/errors/index.js';
import { parseJson } from '../../src/json/index.js';
import { findJsonError } from '../../src/json/find-json-error.js';
import { corpus } from './helpers/corpus.js';
import { differencesFromNative } from './helpers/same-as-native.js';

const rejected = await corpus('n_');
const accepted = await corpus('y_');
const either = await corpus('i_');
const reference = JSONbig({ storeAsString: true });

/** parseJson's outcome: the value, or the error it threw. */
function outcome(text: string): { value: unknown } | { error: unknown } {
  try {
    return { value: parseJson(text) };
  } catch (error) {
    return { error };
  }
}

describe('parseJson on the JSONTestSuite corpus', () => {
  it('has the corpus it is meant to check', () => {
    expect([rejected.length, accepted.length, either.length]).toEqual([188, 95, 35]);
  });

  it.each(rejected.map((d) => [d.name, d.text]))('rejects %s with a JsonParseError that has a position', (_name, text) => {
    const result = outcome(text);
    expect('error' in result).toBe(true);
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(JsonParseError);
    const { position, message } = error as JsonParseError;
    expect(Number.isInteger(position) && position >= 0 && position <= text.length).toBe(true);
    expect(message).toMatch(/^invalid JSON at line \d+, column \d+ \(position \d+\): \S/);
  });

  it.each(accepted.map((d) => [d.name, d.text]))('accepts %s with the value JSON.parse gives', (_name, text) => {
    const mine = parseJson(text);
    let independent: unknown;
    try {
      independent = reference.parse(text);
    } catch {
      independent = undefined; // json-bigint refuses a few valid documents; the native check still applies
    }
    expect(differencesFromNative(mine, JSON.parse(text), independent)).toEqual([]);
    expect(findJsonError(text)).toBeUndefined();
  });

  it.each(either.map((d) => [d.name, d.text]))('returns or throws a JsonParseError for %s, agreeing with JSON.parse', { timeout: 5000 }, (_name, text) => {
    let native: { value: unknown } | undefined;
    try {
      native = { value: JSON.parse(text) };
    } catch {
      native = undefined;
    }
    const result = outcome(text);
    if (native === undefined) {
      expect((result as { error: unknown }).error).toBeInstanceOf(JsonParseError);
    } else {
      expect('value' in result).toBe(true);
      expect(differencesFromNative((result as { value: unknown }).value, native.value)).toEqual([]);
    }
  });

  it('keeps the big integers of the i_ documents exact', () => {
    const byName = new Map(either.map((d) => [d.name, d.text]));
    expect(parseJson(byName.get('i_number_too_big_pos_int.json')!)).toEqual(['100000000000000000000']);
    expect(parseJson(byName.get('i_number_too_big_neg_int.json')!)).toEqual(['-123123123123123123123123123123']);
    expect(parseJson(byName.get('i_number_very_big_negative_int.json')!)).toEqual(['-237462374673276894279832749832423479823246327846']);
    // Exponent forms stay numbers, however large.
    expect(parseJson(byName.get('i_number_huge_exp.json')!)).toEqual([Number.POSITIVE_INFINITY]);
    expect(parseJson(byName.get('i_number_real_underflow.json')!)).toEqual([0]);
  });
});
