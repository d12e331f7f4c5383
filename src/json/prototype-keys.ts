/**
 * Keys that parsed JSON never keeps: `__proto__` and `constructor`, at any depth.
 *
 * The native parser already stores `"__proto__"` as an own data property, so parsing alone
 * pollutes nothing. The danger comes later: `Object.assign(target, parsed)` assigns through the
 * `__proto__` setter and swaps `target`'s prototype, and a naive deep merge that walks
 * `constructor.prototype` reaches `Object.prototype`. Neither key is a field of the service, so
 * dropping them loses no data and closes both paths for every consumer of the parsed value.
 */
export const PROTOTYPE_KEYS: readonly string[] = ['__proto__', 'constructor'];

// A key spelled plainly, as a key or a value (either makes the parse take the reviver).
const LITERAL_KEY = /"(?:__proto__|constructor)"/;

// Only \uXXXX escapes make letters: `_` 5F, `c` 63, `n` 6E, `o` 6F, `p`..`u` 70-75.
const ESCAPED_KEY_LETTER = /\\u00(?:5[fF]|6[3eEfF]|7[0-5])/;

/**
 * True when `text` may hold one of the {@link PROTOTYPE_KEYS} as a key: it has a string spelled
 * `"__proto__"` or `"constructor"`, or it escapes a letter they are made of, so that one may hide
 * behind escapes (`"\u005f_proto__"`). A false alarm only costs the slower reviver parse; a miss
 * is impossible, since a key is a string token and an unescaped one is spelled literally.
 */
export function mayHoldPrototypeKey(text: string): boolean {
  return LITERAL_KEY.test(text) || (text.includes('\\u00') && ESCAPED_KEY_LETTER.test(text));
}

/** A `JSON.parse` reviver that deletes the {@link PROTOTYPE_KEYS} wherever they occur. */
export function dropPrototypeKeys(key: string, value: unknown): unknown {
  return key === '__proto__' || key === 'constructor' ? undefined : value;
}
