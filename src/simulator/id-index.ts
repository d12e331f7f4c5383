/**
 * One collection's ids in ascending order, with each record's `_v` and where its generated
 * (base) data lives. Ids are 64-bit keys in a typed array, so a page starts with a binary
 * search and a full traversal costs O(n) in total: no page ever rescans from the start.
 * New ids are nearly always the newest (appended in O(1)); an older id is inserted in place.
 */
import type { Id } from '../ids/id.js';

/** Marks a position whose record exists only as a written record: created by a write, or overwritten. */
export const NO_BASE = -1;

/** Largest id a key holds: 64 bits. */
const MAX_KEY = (1n << 64n) - 1n;

/**
 * An id written as text (a path segment, a query parameter, a canonical id) in canonical form, or
 * undefined when it is not an id the index can hold: 1 to 20 digits, leading zeros allowed ("0"
 * included), with a value that fits 64 bits.
 */
export function parseIdText(raw: string): Id | undefined {
  if (!/^[0-9]{1,20}$/.test(raw)) return undefined;
  const value = BigInt(raw);
  return value <= MAX_KEY ? value.toString() : undefined;
}

/** Sorted ids plus, per position, the record's `_v` and its generated-data index. */
export class IdIndex {
  private keys: BigUint64Array;
  private versions: Float64Array;
  private bases: Int32Array;
  private size: number;

  /**
   * @param keys - ids in strictly ascending order
   * @param versions - `_v` of each id's record (same length)
   */
  constructor(keys: BigUint64Array, versions: Float64Array) {
    if (keys.length !== versions.length) throw new RangeError('IdIndex: keys and versions differ in length');
    for (let i = 1; i < keys.length; i++) {
      if ((keys[i] as bigint) <= (keys[i - 1] as bigint)) throw new RangeError(`IdIndex: ids not strictly ascending at ${i}`);
    }
    this.size = keys.length;
    this.keys = keys;
    this.versions = versions;
    this.bases = new Int32Array(keys.length);
    for (let i = 0; i < keys.length; i++) this.bases[i] = i;
  }

  /** Number of ids. */
  get length(): number {
    return this.size;
  }

  /** The id at a position (0 = oldest). */
  keyAt(pos: number): bigint {
    return this.keys[pos] as bigint;
  }

  /** `_v` of the record at a position. */
  versionAt(pos: number): number {
    return this.versions[pos] as number;
  }

  /** Generated-data index of the record at a position, or {@link NO_BASE}. */
  baseAt(pos: number): number {
    return this.bases[pos] as number;
  }

  /** Records a new `_v` for the record at a position. */
  setVersion(pos: number, version: number): void {
    this.versions[pos] = version;
  }

  /** Records that the record at a position was overwritten: its generated data no longer applies. */
  markWritten(pos: number): void {
    this.bases[pos] = NO_BASE;
  }

  /** First position whose id is >= `key` (length when none). */
  lowerBound(key: bigint): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] as bigint) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First position whose id is > `key` (length when none). */
  upperBound(key: bigint): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] as bigint) <= key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Position of `key`, or -1. */
  find(key: bigint): number {
    const pos = this.lowerBound(key);
    return pos < this.size && this.keys[pos] === key ? pos : -1;
  }

  /** Adds an id that is not present yet (a written record with no generated data); returns its position. */
  insert(key: bigint, version: number): number {
    const pos = this.size > 0 && key > (this.keys[this.size - 1] as bigint) ? this.size : this.lowerBound(key);
    if (pos < this.size && this.keys[pos] === key) throw new RangeError(`IdIndex: id ${key} already present`);
    if (this.size === this.keys.length) this.grow();
    if (pos < this.size) {
      this.keys.copyWithin(pos + 1, pos, this.size);
      this.versions.copyWithin(pos + 1, pos, this.size);
      this.bases.copyWithin(pos + 1, pos, this.size);
    }
    this.keys[pos] = key;
    this.versions[pos] = version;
    this.bases[pos] = NO_BASE;
    this.size++;
    return pos;
  }

  private grow(): void {
    const capacity = Math.max(16, Math.ceil(this.keys.length * 1.5));
    const keys = new BigUint64Array(capacity);
    keys.set(this.keys.subarray(0, this.size));
    const versions = new Float64Array(capacity);
    versions.set(this.versions.subarray(0, this.size));
    const bases = new Int32Array(capacity);
    bases.set(this.bases.subarray(0, this.size));
    this.keys = keys;
    this.versions = versions;
    this.bases = bases;
  }
}
