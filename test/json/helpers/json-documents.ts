import fc from 'fast-check';

/** A JSON text built piece by piece, with the value `parseJson` must return for it. */
export interface JsonDocument {
  text: string;
  value: unknown;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** JSON whitespace, often none. */
const ws = fc.constantFrom('', '', '', ' ', '\n  ', '\t', '\r\n');

/** Integers of every size, crowded around ±2^53 where exactness starts to matter. */
const integer = fc
  .oneof(
    fc.bigInt({ min: -1000n, max: 1000n }),
    fc.bigInt({ min: MAX_SAFE - 3n, max: MAX_SAFE + 3n }),
    fc.bigInt({ min: -MAX_SAFE - 3n, max: -MAX_SAFE + 3n }),
    fc.bigInt({ min: 10n ** 15n, max: 10n ** 16n }),
    fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
  )
  .map((n): JsonDocument => ({ text: n.toString(), value: n >= -MAX_SAFE && n <= MAX_SAFE ? Number(n) : n.toString() }));

/** Doubles as `JSON.stringify` writes them; a long integer-looking one is still an integer token. */
const double = fc.double({ noNaN: true, noDefaultInfinity: true }).map((d): JsonDocument => {
  const text = JSON.stringify(d);
  return { text, value: /^-?[0-9]+$/.test(text) && !Number.isSafeInteger(Number(text)) ? text : Number(text) };
});

/** Strings that look like JSON full of big numbers, so a scan that loses track would touch them. */
const trickyString = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: fc.constantFrom('1', '2', '9', '0', ':', ',', '[', ']', '{', '}', '"', '\\', ' ', '-', '.', 'e'), maxLength: 40 }),
  fc.constantFrom(':12345678901234567890,', '[12345678901234567890]', '{"id":12345678901234567890}', '\\":12345678901234567890}', '\\', '"', '9007199254740993'),
);

/** A string token, written plainly or with every code unit as a \u escape. */
const string = fc.tuple(trickyString, fc.boolean()).map(([s, escapeAll]): JsonDocument => ({
  text: escapeAll ? `"${Array.from({ length: s.length }, (_, i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')}"` : JSON.stringify(s),
  value: s,
}));

const literal = fc.constantFrom<JsonDocument>({ text: 'true', value: true }, { text: 'false', value: false }, { text: 'null', value: null });

const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('id', 'id_shop', '12345678901234567890', ':1', '__proto__', 'constructor'));

/** Random JSON documents with random whitespace, big integers in values and in arrays. */
export const jsonDocument: fc.Arbitrary<JsonDocument> = fc
  .letrec<{ node: JsonDocument }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      integer,
      double,
      string,
      literal,
      fc.tuple(fc.array(fc.tuple(ws, tie('node'), ws), { maxLength: 5 }), ws).map(([items, inner]): JsonDocument => ({
        text: items.length === 0 ? `[${inner}]` : `[${items.map(([a, n, b]) => a + n.text + b).join(',')}]`,
        value: items.map(([, n]) => n.value),
      })),
      fc
        .tuple(fc.uniqueArray(fc.tuple(key, ws, ws, tie('node'), ws), { selector: (e) => e[0], maxLength: 5 }), ws)
        .map(([entries, inner]): JsonDocument => {
          const value: Record<string, unknown> = {};
          for (const [k, , , n] of entries) {
            // parseJson drops these two keys; define the rest as own data properties.
            if (k !== '__proto__' && k !== 'constructor') Object.defineProperty(value, k, { value: n.value, enumerable: true, writable: true, configurable: true });
          }
          const body = entries.map(([k, a, b, n, c]) => `${a}${JSON.stringify(k)}${b}:${n.text}${c}`).join(',');
          return { text: entries.length === 0 ? `{${inner}}` : `{${body}}`, value };
        }),
    ),
  }))
  .node.chain((doc) => fc.tuple(ws, ws).map(([a, b]) => ({ text: a + doc.text + b, value: doc.value })));

/** Characters whose insertion or replacement is most likely to break or fool a scanner. */
const breaking = fc.constantFrom('"', '\\', ',', ':', '[', ']', '{', '}', '0', '1', '9', '-', '+', '.', 'e', ' ', '\n', 'a', '\u00a0', '\u0000');

/** A document with one to three random edits: most are invalid, some stay valid. */
export const mutatedJsonText: fc.Arbitrary<string> = fc
  .tuple(jsonDocument, fc.array(fc.tuple(fc.nat(), fc.constantFrom('insert', 'delete', 'replace'), breaking), { minLength: 1, maxLength: 3 }))
  .map(([doc, edits]) => {
    let text = doc.text;
    for (const [at, kind, ch] of edits) {
      const i = text.length === 0 ? 0 : at % (text.length + (kind === 'insert' ? 1 : 0));
      if (kind === 'insert') text = text.slice(0, i) + ch + text.slice(i);
      else if (kind === 'delete') text = text.slice(0, i) + text.slice(i + 1);
      else text = text.slice(0, i) + ch + text.slice(i + 1);
    }
    return text;
  });
