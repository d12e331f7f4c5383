import { describe, expect, it } from 'vitest';
import type { TimeToUsefulResult } from '../../bench/browser/in-page/time-to-useful.js';
import { timeToUsefulOptions } from '../../bench/browser/time-to-useful-options.js';
import { usefulFigures } from '../../bench/browser/useful-figures.js';

const round = (over: Partial<TimeToUsefulResult>): TimeToUsefulResult => ({
  usefulMs: 2000, recordsAtUseful: 100, syncMs: 4000, records: 400, groupsMs: {}, checks: 10, longestCheckMs: 1, missing: null, bounded: false, ...over,
});

describe("the time-to-useful benchmark's options", () => {
  it('take the medium and large tenants, three rounds and every engine unless told otherwise', () => {
    expect(timeToUsefulOptions({})).toMatchObject({ tenants: ['medium', 'large'], rounds: 3, roundLimitMs: 1_800_000, pollMs: 50, engines: ['chromium', 'firefox', 'webkit'] });
    expect(timeToUsefulOptions({ TENANTS: 'small', ROUNDS: '1', ENGINES: 'webkit', POLL_MS: '20' })).toMatchObject({ tenants: ['small'], rounds: 1, engines: ['webkit'], pollMs: 20 });
  });

  it('refuse an unknown tenant and a bad number, naming them', () => {
    expect(() => timeToUsefulOptions({ TENANTS: 'huge' })).toThrow('TENANTS: expected some of tiny, small, medium, large, got "huge"');
    expect(() => timeToUsefulOptions({ ROUNDS: '0' })).toThrow('ROUNDS: expected a whole number >= 1, got "0"');
  });
});

describe("the time-to-useful benchmark's figures", () => {
  it('give useful as a share of the same round\'s first sync, and leave out what a round did not reach', () => {
    const rounds = [
      round({ groupsMs: { reference: 500, history: 3900 } }),
      round({ usefulMs: 3000, syncMs: 5000, recordsAtUseful: 120, groupsMs: { reference: 700 } }),
      round({ usefulMs: null, recordsAtUseful: null, syncMs: null, bounded: true }),
    ];
    const figures = usefulFigures('chromium', 'Chromium', 'small', 400, 26, rounds);
    expect(figures.usefulSeconds).toEqual([2, 3]);
    expect(figures.syncSeconds).toEqual([4, 5]);
    expect(figures.usefulShare).toEqual([0.5, 0.6]);
    expect(figures.recordsAtUseful).toEqual([100, 120]);
    expect(figures.groupSeconds).toEqual({ reference: [0.5, 0.7], history: [3.9] });
  });
});
