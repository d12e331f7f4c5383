import type { IndexSchema } from './store-format.js';

/**
 * Hands `add` each key a record is found under in an index, as IndexedDB computes them when the
 * record is stored (the spec's "extract a key from a value using a key path" and "convert a value
 * to a key"): none when the key path leads nowhere or to something that is not a key (null, a
 * boolean, an object: the record is simply not in the index); for a multi-entry index over an
 * array, each valid element once. Never throws, where fake-indexeddb builds an exception for every
 * field that holds no key, which is most of what a restore would otherwise spend on indexes.
 */
export function addIndexKeys(index: IndexSchema, value: unknown, add: (key: unknown) => void): void {
  if (Array.isArray(index.keyPath)) {
    // Made at its length: an array grown by push keeps room for more, in every key of the index.
    const parts = new Array<unknown>(index.keyPath.length);
    for (let i = 0; i < parts.length; i++) {
      const part = toKey(valueAt(value, index.keyPath[i]!));
      if (part === NO_KEY) return;
      parts[i] = part;
    }
    add(parts);
    return;
  }
  const found = valueAt(value, index.keyPath);
  if (!index.multiEntry || !Array.isArray(found)) {
    const key = toKey(found);
    if (key !== NO_KEY) add(key);
    return;
  }
  // Duplicates are dropped as the spec drops them: an element equal (===) to one kept before.
  const kept: unknown[] = [];
  for (const element of found as unknown[]) {
    if (kept.indexOf(element) >= 0) continue;
    const key = toKey(element);
    if (key === NO_KEY) continue;
    kept.push(key);
    add(key);
  }
}

const NO_KEY = Symbol('no key');

/** The value `path` leads to in `value` (own properties only; `length` of a string or an array), or undefined. */
export function valueAt(value: unknown, path: string): unknown {
  if (path === '') return value;
  let at = value;
  let start = 0;
  for (;;) {
    const dot = path.indexOf('.', start);
    const name = dot < 0 ? path.slice(start) : path.slice(start, dot);
    if (name === 'length' && (typeof at === 'string' || Array.isArray(at))) at = at.length;
    else if (typeof at !== 'object' || at === null || !Object.hasOwn(at, name)) return undefined;
    else at = (at as Record<string, unknown>)[name];
    if (dot < 0) return at;
    start = dot + 1;
  }
}

/** `value` as a key (a copy where IndexedDB copies: dates, binary, arrays), or `NO_KEY`. */
function toKey(value: unknown, seen?: Set<unknown>): unknown {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isNaN(value) ? NO_KEY : value;
  if (typeof value !== 'object' || value === null) return NO_KEY;
  if (value instanceof Date) {
    const time = value.getTime();
    return Number.isNaN(time) ? NO_KEY : new Date(time);
  }
  if (Array.isArray(value)) {
    const within = seen ?? new Set<unknown>();
    if (within.has(value)) return NO_KEY;
    within.add(value);
    const key = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      if (!Object.hasOwn(value, i)) return NO_KEY;
      const element = toKey(value[i], within);
      if (element === NO_KEY) return NO_KEY;
      key[i] = element;
    }
    return key;
  }
  // A detached buffer has no bytes: an empty one is no key either.
  if (value instanceof ArrayBuffer) return value.byteLength === 0 ? NO_KEY : value.slice(0);
  if (ArrayBuffer.isView(value)) {
    const buffer = value.buffer as ArrayBuffer;
    return value.byteLength === 0 ? NO_KEY : buffer.slice(value.byteOffset, value.byteOffset + value.byteLength);
  }
  return NO_KEY;
}
