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

// Only \uXXXX escapes make letters: `_` 5F, `c` 63, `n` 6E, `o` 6F, `p`..`u` 70-75.
const ESCAPED_KEY_LETTER = /\\u00(?:5[fF]|6[3eEfF]|7[0-5])/;

/**
 * True when `text` escapes a character that `__proto__` or `constructor` is made of, so that
 * one of them may hide behind escapes (`"\u005f_proto__"`). Their plain spellings are found by
 * `prepareJsonText`. One `indexOf` in the common case.
 */
export function hasEscapedKeyLetter(text: string): boolean {
  return text.includes('\\u00') && ESCAPED_KEY_LETTER.test(text);
}

/** A `JSON.parse` reviver that deletes the {@link PROTOTYPE_KEYS} wherever they occur. */
export function dropPrototypeKeys(key: string, value: unknown): unknown {
  return key === '__proto__' || key === 'constructor' ? undefined : value;
}
