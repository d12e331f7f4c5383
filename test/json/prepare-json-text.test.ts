import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareJsonText } from '../../src/json/prepare-json-text.js';

import { jsonDocument, mutatedJsonText } from './helpers/json-documents.js';

const quoteUnsafeIntegers = prepareJsonText;

describe('prepareJsonText', () => {
  it('quotes unsafe integer tokens and nothing else', () => {
    expect(quoteUnsafeIntegers('{"a":12345678901234567890,"b":[-9007199254740992 ,9007199254740991],"c":"12345678901234567890"}')).toBe(
      '{"a":"12345678901234567890","b":["-9007199254740992" ,9007199254740991],"c":"12345678901234567890"}',
    );
    expect(quoteUnsafeIntegers('[12345678901234567890.5,12345678901234567890e3,1.12345678901234567890]')).toBe(
      '[12345678901234567890.5,12345678901234567890e3,1.12345678901234567890]',
    );
  });

  it('returns the very same string when there is nothing to quote', () => {
    const text = '{"id":"12345678901234567890","n":9007199254740991}';
    expect(quoteUnsafeIntegers(text)).toBe(text);
  });

  it('only ever inserts quote characters around digit runs', () => {
    fc.assert(
      fc.property(fc.oneof(mutatedJsonText, jsonDocument.map((d) => d.text)), (text) => {
        const out = quoteUnsafeIntegers(text);
        // Removing every inserted quote gives the input back, and each one touches a digit or '-'.
        let i = 0;
        let j = 0;
        while (j < out.length) {
          if (out[j] === text[i]) {
            i++;
            j++;
            continue;
          }
          expect(out[j]).toBe('"');
          expect(/[-0-9]/.test(out[j + 1] ?? '') || /[0-9]/.test(out[j - 1] ?? '')).toBe(true);
          j++;
        }
        expect(i).toBe(text.length);
      }),
      { numRuns: 1000 },
    );
  });
});
