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

  it('grows back by doubling after a shrink, up to the target', () => {
    const sizer = createPageSizer({ target: 2000, maxBytes: 6_000_000 });
    sizer.shrink();
    sizer.shrink();
    expect(sizer.limit).toBe(500);
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      sizer.observe(sizer.limit * 100, sizer.limit);
      seen.push(sizer.limit);
    }
    expect(seen).toEqual([1000, 2000, 2000]);
  });

  it('can be made to ask for more than the target when a server needs it', () => {
    const sizer = createPageSizer({ target: 1, maxBytes: undefined });
    sizer.raiseFloor(2);
    expect(sizer.limit).toBe(2);
    expect(sizer.shrink()).toBe(false);
  });
});
