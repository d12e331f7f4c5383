import { describe, expect, it } from 'vitest';
import { ID_EPOCH, ID_EPOCH as SHARED_EPOCH, composeId as sharedCompose, decodeId } from '../../src/ids/index.js';
import { SimClock } from '../../src/simulator/clock.js';
import { TokenBucket } from '../../src/simulator/http/token-bucket.js';
import { Rng } from '../../src/simulator/rng.js';
import { composeId } from '../../src/simulator/sim-ids.js';
import { distribute, ownerOf, spreadTimes } from '../../src/simulator/tenant/timeline.js';
import { ean13 } from '../../src/simulator/tenant/words.js';

describe('composeId', () => {
  it('agrees with the ids layer and gives multiples of 10', () => {
    expect(ID_EPOCH).toBe(SHARED_EPOCH);
    const rng = new Rng(5);
    for (let i = 0; i < 500; i++) {
      const ms = rng.int(ID_EPOCH, Date.UTC(2030, 0, 1));
      const tableId = rng.int(0, 63);
      const id = composeId(ms, tableId, rng.next());
      expect(id % 10n).toBe(0n);
      const parts = decodeId(id.toString());
      expect(parts).toMatchObject({ createdAt: ms, tableId });
      expect(sharedCompose({ createdAt: ms, tableId, random: parts.random })).toBe(id.toString());
    }
  });
});

describe('Rng', () => {
  it('repeats its stream for the same seed and stays in range', () => {
    const a = Rng.of(1, 2, 3);
    const b = Rng.of(1, 2, 3);
    const xs = Array.from({ length: 100 }, () => a.next());
    expect(Array.from({ length: 100 }, () => b.next())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(Rng.of(1, 2, 4).next()).not.toBe(xs[0]);
    const r = new Rng(9);
    const ints = Array.from({ length: 1000 }, () => r.int(3, 5));
    expect(new Set(ints)).toEqual(new Set([3, 4, 5]));
  });
});

describe('SimClock', () => {
  it('runs from its start with the elapsed source, and stamps strictly increasing', () => {
    let elapsed = 0;
    const clock = new SimClock(1_000_000, () => elapsed);
    expect(clock.now()).toBe(1_000_000);
    const stamps = [clock.stamp(), clock.stamp(), clock.stamp()];
    expect(stamps).toEqual([1_000_000, 1_000_001, 1_000_002]);
    elapsed = 500;
    expect(clock.now()).toBe(1_000_500);
    expect(clock.advance(1000)).toBe(1_001_500);
    expect(clock.stamp()).toBe(1_001_500);
  });
});

describe('TokenBucket', () => {
  it('lets a burst through, then asks to wait until a token refills', () => {
    let now = 0;
    const bucket = new TokenBucket(2, 3, () => now);
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([0, 0, 0]);
    expect(bucket.take()).toBe(1);
    now = 500;
    expect(bucket.take()).toBe(0);
    expect(bucket.take()).toBe(1);
  });
});

describe('timeline helpers', () => {
  it('spreads strictly increasing times inside the window', () => {
    const times = spreadTimes(1000, 1_000_000, 2_000_000, new Rng(1));
    for (let i = 1; i < times.length; i++) expect(times[i] as number).toBeGreaterThan(times[i - 1] as number);
    expect(times[0] as number).toBeGreaterThanOrEqual(1_000_000);
    expect(times[999] as number).toBeLessThan(2_000_000);
  });

  it('distributes exactly the total over owners', () => {
    const starts = distribute(1000, 37, new Rng(2));
    expect(starts[0]).toBe(0);
    expect(starts[37]).toBe(1000);
    for (let k = 0; k < 37; k++) expect(starts[k + 1] as number).toBeGreaterThanOrEqual(starts[k] as number);
    for (const i of [0, 1, 500, 999]) {
      const owner = ownerOf(starts, i);
      expect(i).toBeGreaterThanOrEqual(starts[owner] as number);
      expect(i).toBeLessThan(starts[owner + 1] as number);
    }
  });

  it('makes EAN-13 codes with a valid check digit', () => {
    const rng = new Rng(3);
    for (let n = 0; n < 50; n++) {
      const code = ean13(rng);
      const digits = [...code].map(Number);
      const sum = digits.slice(0, 12).reduce((s, d, i) => s + d * (i % 2 === 0 ? 1 : 3), 0);
      expect(digits[12]).toBe((10 - (sum % 10)) % 10);
    }
  });
});
