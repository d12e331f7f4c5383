/**
 * Seeded randomness for the simulator. Data and faults never use `Math.random`: the same seed gives
 * the same tenant and the same fault sequence, so a failing test can be replayed.
 */

/** Mixes 32-bit integers into one well-spread 32-bit hash (murmur3 finalizer over a running state). */
export function hash32(...parts: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    // Fold numbers beyond 32 bits in as two halves so that large seeds and times still differ.
    const low = part | 0;
    const high = Math.floor(part / 4294967296) | 0;
    h = Math.imul(h ^ low, 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13) ^ high, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** A string's 32-bit hash, used to give each collection its own random stream. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * A small, fast pseudo-random generator (mulberry32) with the helpers the data generator needs.
 * Not cryptographic; only reproducible.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A generator whose stream is fixed by the given parts (seed, collection hash, record index...). */
  static of(...parts: readonly number[]): Rng {
    return new Rng(hash32(...parts));
  }

  /** Next value in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('Rng.pick: empty array');
    return item;
  }

  /** A 32-bit unsigned integer, for deriving further seeds. */
  uint32(): number {
    return Math.floor(this.next() * 4294967296) >>> 0;
  }
}
