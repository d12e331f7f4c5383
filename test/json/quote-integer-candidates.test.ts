import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareJsonText } from '../../src/json/prepare-json-text.js';
import { quoteIntegerCandidates } from '../../src/json/quote-integer-candidates.js';
import { jsonDocument } from './helpers/json-documents.js';

describe('quoteIntegerCandidates', () => {
  it('quotes unsafe integer values, with their sign, and nothing else', () => {
    expect(quoteIntegerCandidates('{"a":12345678901234567890,"b":[-9007199254740992 ,9007199254740991],"c":"x"}')).toBe(
      '{"a":"12345678901234567890","b":["-9007199254740992" ,9007199254740991],"c":"x"}',
    );
    expect(quoteIntegerCandidates('[12345678901234567890.5,12345678901234567890e3,1.12345678901234567890,012345678901234567890]')).toBe(
      '[12345678901234567890.5,12345678901234567890e3,1.12345678901234567890,012345678901234567890]',
    );
  });

  it('returns the very same string when there is nothing to quote', () => {
    const text = '{"n":9007199254740991,"m":[1,22,333],"s":"abc"}';
    expect(quoteIntegerCandidates(text)).toBe(text);
  });

  it('finds a token wherever it falls against the 16-character stride, at any length from 16 digits', () => {
    for (const digits of ['9007199254740992', '12345678901234567', '123456789012345678901234567890123']) {
      for (let pad = 0; pad < 40; pad++) {
        const text = `[${'1,'.repeat(pad >> 1)}${pad % 2 === 0 ? '' : ' '}${digits}]`;
        const expected = `[${'1,'.repeat(pad >> 1)}${pad % 2 === 0 ? '' : ' '}"${digits}"]`;
        expect(quoteIntegerCandidates(text), text).toBe(expected);
      }
      expect(quoteIntegerCandidates(digits)).toBe(`"${digits}"`);
      expect(quoteIntegerCandidates(`-${digits}`)).toBe(`"-${digits}"`);
    }
  });

  it('quotes digits inside a string when their neighbours look like a value: the result is then invalid', () => {
    const text = '["a,12345678901234567890]","b"]';
    const quoted = quoteIntegerCandidates(text);
    expect(quoted).toBe('["a,"12345678901234567890"]","b"]');
    expect(() => JSON.parse(quoted)).toThrow(SyntaxError);
    expect(JSON.parse(prepareJsonText(text))).toEqual(['a,12345678901234567890]', 'b']);
  });

  it('agrees with the exact quoting on every document whose strings hide no look-alike', () => {
    fc.assert(
      fc.property(
        jsonDocument.map((d) => d.text),
        (text) => {
          const exact = prepareJsonText(text);
          const fast = quoteIntegerCandidates(text);
          // Either both quote the same tokens, or the fast one also quoted digits in a string,
          // and then the native parser must refuse its result.
          if (fast !== exact) expect(() => JSON.parse(fast)).toThrow(SyntaxError);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
