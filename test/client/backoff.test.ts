import { describe, expect, it } from 'vitest';
import { fullJitterDelay } from '../../src/client/backoff.js';

describe('fullJitterDelay', () => {
  const base = { baseDelayMs: 100, maxDelayMs: 1_000 };

  it('grows the ceiling exponentially and scales it by the random draw', () => {
    const top = { ...base, random: () => 0.999999 };
    expect([1, 2, 3, 4].map((n) => fullJitterDelay(n, top))).toEqual([99, 199, 399, 799]);
    expect(fullJitterDelay(3, { ...base, random: () => 0.5 })).toBe(200);
  });

  it('never exceeds maxDelayMs however many failures there were', () => {
    const top = { ...base, random: () => 0.999999 };
    expect(fullJitterDelay(10, top)).toBe(999);
    expect(fullJitterDelay(1_000, top)).toBe(999);
  });

  it('can draw a zero wait (full jitter) and survives a broken random source', () => {
    expect(fullJitterDelay(4, { ...base, random: () => 0 })).toBe(0);
    expect(fullJitterDelay(4, { ...base, random: () => Number.NaN })).toBe(0);
    expect(fullJitterDelay(1, { ...base, random: () => 7 })).toBe(100);
  });
});
