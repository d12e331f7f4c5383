import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonParseError } from '../../src/errors/index.js';
import { parseJson, parseJsonBytes } from '../../src/json/index.js';
import { corpus } from './helpers/corpus.js';
import { jsonDocument, mutatedJsonText } from './helpers/json-documents.js';

const encoder = new TextEncoder();
const documents = [...(await corpus('y_')), ...(await corpus('n_')), ...(await corpus('i_'))];

/** A parser's outcome: the value, or the error's name, message and position. */
function outcome(parse: () => unknown): unknown {
  try {
    return { value: parse() };
  } catch (error) {
    if (!(error instanceof JsonParseError)) throw error;
    return { error: error.name, message: error.message, position: error.position };
  }
}

describe('parseJsonBytes', () => {
  it('keeps unsafe integers exact next to multi-byte characters', () => {
    const text = '{"note":"Pivo 12° 🍺 ×2","id":12345678901234567890,"č":[-9007199254740993,"日本",9007199254740991]}';
    expect(parseJsonBytes(encoder.encode(text))).toEqual({
      note: 'Pivo 12° 🍺 ×2',
      id: '12345678901234567890',
      č: ['-9007199254740993', '日本', 9007199254740991],
    });
  });

  it('finds a token wherever it falls against the 16-byte stride', () => {
    for (let pad = 0; pad < 40; pad++) {
      const text = `["${'é'.repeat(pad)}",${' '.repeat(pad % 3)}12345678901234567890]`;
      expect(parseJsonBytes(encoder.encode(text)), text).toEqual(['é'.repeat(pad), '12345678901234567890']);
    }
  });

  it('gives what parseJson gives for the decoded text, value or error, on every corpus document', async () => {
    for (const { name, text, bytes } of documents) {
      expect(outcome(() => parseJsonBytes(bytes)), name).toEqual(outcome(() => parseJson(text)));
    }
  });

  it('gives what parseJson gives on random and broken documents', () => {
    fc.assert(
      fc.property(fc.oneof(mutatedJsonText, jsonDocument.map((d) => d.text)), (text) => {
        expect(outcome(() => parseJsonBytes(encoder.encode(text)))).toEqual(outcome(() => parseJson(text)));
      }),
      { numRuns: 2000 },
    );
  });

  it('takes the exact path when digits inside a string look like a value', () => {
    const text = '["a,12345678901234567890]",12345678901234567891]';
    expect(parseJsonBytes(encoder.encode(text))).toEqual(['a,12345678901234567890]', '12345678901234567891']);
  });

  it('drops one leading byte order mark, as the Encoding standard\'s UTF-8 decode does, and only one', () => {
    const bom = [0xef, 0xbb, 0xbf];
    const one = new Uint8Array([...bom, ...encoder.encode('12345678901234567890')]);
    expect(parseJsonBytes(one)).toBe('12345678901234567890');
    // A second mark is a character of the text, and JSON does not allow it there.
    const two = new Uint8Array([...bom, ...bom, ...encoder.encode('[1]')]);
    expect(new TextDecoder().decode(two)).toBe('\ufeff[1]');
    expect(() => parseJsonBytes(two)).toThrow(/position 0\): unexpected U\+FEFF/);
  });

  it('reads invalid UTF-8 as U+FFFD, as Response.text() does', async () => {
    const bytes = new Uint8Array([0x5b, 0x22, 0xff, 0xc3, 0x22, 0x2c, ...encoder.encode('12345678901234567890'), 0x5d]);
    expect(parseJsonBytes(bytes)).toEqual(['\ufffd\ufffd', '12345678901234567890']);
    expect(parseJsonBytes(bytes)).toEqual(parseJson(await new Response(bytes).text()));
  });

  it('accepts an ArrayBuffer, a Buffer, a sub-view and a view of another type', () => {
    const bytes = encoder.encode('[12345678901234567890]');
    const framed = new Uint8Array(bytes.length + 4);
    framed.set(bytes, 2);
    for (const input of [bytes.buffer, Buffer.from(bytes), framed.subarray(2, 2 + bytes.length), new DataView(bytes.buffer)])
      expect(parseJsonBytes(input as Uint8Array)).toEqual(['12345678901234567890']);
  });

  it('refuses what is not bytes with a JsonParseError naming what it got', () => {
    for (const [input, got] of [['[1]', 'string'], [null, 'null'], [[1], 'an array'], [undefined, 'undefined']] as const)
      expect(() => parseJsonBytes(input as unknown as Uint8Array)).toThrow(new RegExp(`expected the JSON body as a Uint8Array or an ArrayBuffer, got ${got}$`));
  });

  it('drops __proto__ and constructor keys, plain or escaped', () => {
    const value = parseJsonBytes(encoder.encode('{"__proto__":{"x":1},"a":{"\\u0063onstructor":2,"id":12345678901234567890}}'));
    expect(value).toEqual({ a: { id: '12345678901234567890' } });
    expect(Object.keys((value as { a: object }).a)).toEqual(['id']);
  });
});
