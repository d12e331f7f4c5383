import type { JournalRange } from './store-format.js';

/**
 * The order of IndexedDB keys (the spec's "compare two keys"): numbers, then dates, then
 * strings, then binary keys, then arrays; within a type by value (strings by UTF-16 code unit,
 * binary keys byte by byte, arrays element by element, then by length). Takes keys as IndexedDB
 * stores them (dates as `Date`, binary keys as `ArrayBuffer`); what a restore sorts and merges
 * must come out in the order fake-indexeddb itself would keep.
 */
export function compareKeys(a: unknown, b: unknown): number {
  // Most keys are strings (ids) or numbers (`_v`, dates in milliseconds): decided without ranking.
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  const rankA = rankOf(a);
  const rankB = rankOf(b);
  if (rankA !== rankB) return rankA < rankB ? -1 : 1;
  if (rankA === DATE) return compareNumbers((a as Date).getTime(), (b as Date).getTime());
  if (rankA === BINARY) return compareBytes(new Uint8Array(a as ArrayBuffer), new Uint8Array(b as ArrayBuffer));
  const left = a as unknown[];
  const right = b as unknown[];
  const shared = Math.min(left.length, right.length);
  for (let i = 0; i < shared; i++) {
    const order = compareKeys(left[i], right[i]);
    if (order !== 0) return order;
  }
  return compareNumbers(left.length, right.length);
}

/** True when `key` lies in `range` (a journal's deletion range; type 3 holds every key, type 4 none). */
export function inRange(key: unknown, range: JournalRange): boolean {
  if (range.type === 4) return false;
  if (range.type === 3) return true;
  if (range.type === 1) return compareKeys(key, range.lower) === 0;
  if (range.lower !== undefined && range.lower !== null) {
    const order = compareKeys(key, range.lower);
    if (order < 0 || (order === 0 && range.lowerOpen)) return false;
  }
  if (range.upper !== undefined && range.upper !== null) {
    const order = compareKeys(key, range.upper);
    if (order > 0 || (order === 0 && range.upperOpen)) return false;
  }
  return true;
}

const NUMBER = 0;
const DATE = 1;
const STRING = 2;
const BINARY = 3;
const ARRAY = 4;

function rankOf(key: unknown): number {
  if (typeof key === 'number') return NUMBER;
  if (typeof key === 'string') return STRING;
  if (key instanceof Date) return DATE;
  if (Array.isArray(key)) return ARRAY;
  if (key instanceof ArrayBuffer) return BINARY;
  throw new TypeError(`not an IndexedDB key: ${Object.prototype.toString.call(key)}`);
}

function compareNumbers(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return compareNumbers(a.length, b.length);
}
