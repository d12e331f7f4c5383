import { describe, expect, it } from 'vitest';
import { createPageSizer } from '../../src/client/page-sizer.js';

describe('createPageSizer', () => {
  it('keeps the target when the collection has no byte cap', () => {
    const sizer = createPageSizer({ target: 400, maxBytes: undefined });
    sizer.observe(50_000_000, 400);
    expect(sizer.limit).toBe(400);
  });

  it('shrinks the next page when records are fat enough to near the cap', () => {
    const sizer = createPageSizer({ target: 2000, maxBytes: 6_000_000 });
    sizer.observe(2000 * 1_000, 2000); // 1 kB per record: 2 MB pages fit
    expect(sizer.limit).toBe(2000);
    sizer.observe(2000 * 5_000, 2000); // 5 kB per record: 10 MB would not
    expect(sizer.limit).toBe(900);
    expect(900 * 5_000).toBeLessThan(6_000_000);
  });

  it('halves on a size failure, down to 1, then refuses', () => {
    const sizer = createPageSizer({ target: 5, maxBytes: 6_000_000 });
    expect([sizer.shrink(), sizer.limit, sizer.shrink(), sizer.limit, sizer.shrink()]).toEqual([true, 2, true, 1, false]);
  });

  it('grows back by doubling after a shrink, up to the target, when the failure was a one-off', () => {
    const sizer = createPageSizer({ target: 2000, maxBytes: 6_000_000 });
    sizer.shrink();
    sizer.observe(1000 * 100, 1000);
    expect(sizer.limit).toBe(1530); // 3/4 of the limit that failed, relaxed by one good page
    const seen: number[] = [];
    for (let i = 0; i < 40 && sizer.limit < 2000; i++) {
      sizer.observe(sizer.limit * 100, sizer.limit);
      seen.push(sizer.limit);
    }
    expect(sizer.limit).toBe(2000);
    expect(seen.length).toBeLessThan(40);
  });

  it('settles under a server cap it has to learn by failures, without failing on every page', () => {
    const sizer = createPageSizer({ target: 40, maxBytes: 6_000_000 });
    let failures = 0;
    let served = 0;
    for (let i = 0; i < 60; i++) {
      const bytes = sizer.limit * 1_050;
      if (bytes > 21_000) {
        failures++;
        expect(sizer.shrink()).toBe(true);
      } else {
        served++;
        sizer.observe(bytes, sizer.limit);
      }
    }
    expect(failures).toBeLessThan(served / 6);
  });

  it('can be made to ask for more than the target when a server needs it', () => {
    const sizer = createPageSizer({ target: 1, maxBytes: undefined });
    sizer.raiseFloor(2);
    expect(sizer.limit).toBe(2);
    expect(sizer.shrink()).toBe(false);
  });
});
