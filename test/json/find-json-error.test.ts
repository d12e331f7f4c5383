import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonError } from '../../src/json/find-json-error.js';
import { corpus } from './helpers/corpus.js';
import { mutatedJsonText } from './helpers/json-documents.js';

function nativeAccepts(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('findJsonError', () => {
  it('finds an error in every n_ document of the corpus and agrees with JSON.parse on the i_ ones', async () => {
    for (const { name, text } of await corpus('n_')) expect(findJsonError(text), name).toBeDefined();
    for (const { name, text } of await corpus('i_')) expect(findJsonError(text) === undefined, name).toBe(nativeAccepts(text));
  });

  it('agrees with JSON.parse on randomly broken documents', () => {
    fc.assert(
      fc.property(mutatedJsonText, (text) => {
        expect(findJsonError(text) === undefined).toBe(nativeAccepts(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('handles deep nesting without recursion', () => {
    const depth = 200_000;
    expect(findJsonError('['.repeat(depth) + ']'.repeat(depth))).toBeUndefined();
    expect(findJsonError('[{"a":'.repeat(depth))).toEqual({ position: depth * 6, reason: 'unexpected end of text, expected a value' });
  });

  it('points at the first bad character', () => {
    expect(findJsonError('{"a":[1,2,}]}')).toEqual({ position: 10, reason: "unexpected '}', expected a value" });
    expect(findJsonError('"\u0001"')).toEqual({ position: 1, reason: 'unescaped control character U+0001 in a string' });
    expect(findJsonError('[1]\u00a0')).toEqual({ position: 3, reason: 'unexpected U+00A0, expected the end of the text after the JSON value' });
  });
});
