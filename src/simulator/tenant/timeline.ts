/**
 * Time helpers of the data generator. Every collection's creation times are strictly increasing
 * in index order, so index order is id order and ids never clash (distinct ms, same table id).
 */
import { composeId } from '../sim-ids.js';
import type { Rng } from '../rng.js';

/** One day in ms. */
export const DAY = 86_400_000;
/** How far back the generated history reaches: three years. */
export const HISTORY_SPAN = 3 * 365 * DAY;

/** Makes `times` strictly increasing whole ms, in place (each at least one more than the previous). */
export function strictlyIncreasing(times: Float64Array): Float64Array {
  for (let i = 0; i < times.length; i++) {
    const t = Math.floor(times[i] as number);
    times[i] = i > 0 && t <= (times[i - 1] as number) ? (times[i - 1] as number) + 1 : t;
  }
  return times;
}

/** `n` strictly increasing times spread at random over [from, to). */
export function spreadTimes(n: number, from: number, to: number, rng: Rng): Float64Array {
  const times = new Float64Array(n);
  // Sorted uniform points from normalized exponential gaps: O(n), no sort.
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += -Math.log(1 - rng.next());
    times[i] = total;
  }
  total += -Math.log(1 - rng.next());
  const width = to - from;
  for (let i = 0; i < n; i++) times[i] = from + ((times[i] as number) / total) * width;
  return strictlyIncreasing(times);
}

/** How many of the ascending `times` are < t. */
export function countBefore(times: Float64Array, t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Splits `total` items over `parts` owners with random weights: owner k gets items
 * starts[k] .. starts[k + 1] - 1. `weight` draws one owner's relative share.
 */
export function distribute(total: number, parts: number, rng: Rng, weight: (rng: Rng) => number = (r) => 0.5 + r.next()): Int32Array {
  const starts = new Int32Array(parts + 1);
  if (parts === 0) return starts;
  const weights = new Float64Array(parts);
  let sum = 0;
  for (let k = 0; k < parts; k++) {
    const w = weight(rng);
    weights[k] = w;
    sum += w;
  }
  let acc = 0;
  for (let k = 0; k < parts; k++) {
    starts[k] = Math.round((acc / sum) * total);
    acc += weights[k] as number;
  }
  starts[parts] = total;
  return starts;
}

/** The owner of item `i` given {@link distribute}'s starts (binary search). */
export function ownerOf(starts: Int32Array, i: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((starts[mid] as number) <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Ids for strictly increasing creation times of one table: ascending by construction. */
export function keysFor(times: Float64Array, tableId: number, rng: Rng): BigUint64Array {
  const keys = new BigUint64Array(times.length);
  for (let i = 0; i < times.length; i++) keys[i] = composeId(times[i] as number, tableId, rng.next());
  return keys;
}
