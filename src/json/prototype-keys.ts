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

// Any text that can hold such a key contains the name literally or escapes one of its
// characters (only \uXXXX escapes make letters): `_` 5F, `c` 63, `n` 6E, `o` 6F, `p`..`u` 70-75.
const MAYBE = /__proto__|constructor|\\u00(?:5[fF]|6[3eEfF]|7[0-5])/;
const LITERAL_KEY = /"(?:__proto__|constructor)"[\t\n\r ]*:/;
const ESCAPED_LETTER = /\\u00(?:5[fF]|6[3eEfF]|7[0-5])/;

/**
 * False when `text` certainly holds no `__proto__` or `constructor` key, so that the parse can
 * skip the slower pass that drops them. One native regex scan in the common case.
 */
export function mayHavePrototypeKeys(text: string): boolean {
  if (!MAYBE.test(text)) return false;
  return LITERAL_KEY.test(text) || ESCAPED_LETTER.test(text);
}

/** A `JSON.parse` reviver that deletes the {@link PROTOTYPE_KEYS} wherever they occur. */
export function dropPrototypeKeys(key: string, value: unknown): unknown {
  return key === '__proto__' || key === 'constructor' ? undefined : value;
}
