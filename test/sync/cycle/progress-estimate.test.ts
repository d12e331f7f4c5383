import { describe, expect, it } from 'vitest';
import {
  estimateFromWindows,
  guessed,
  idWindows,
  MAX_PROBES,
  newestDensity,
  probeCount,
  roughRemaining,
  splitLargest,
  windowCount,
  type IdWindow,
} from '../../../src/sync/cycle/progress-estimate.js';

const ids = (...values: number[]) => values.map(BigInt);
const window = (start: number, end: number, probe: number[], full: boolean): IdWindow => ({ start: BigInt(start), end: BigInt(end), ids: ids(...probe), full });

describe('the estimate of what a traversal has left', () => {
  it('cuts the ids ahead into windows of equal width that cover them exactly', () => {
    const windows = idWindows('1000', '1999', 4);
    expect(windows.map((w) => [Number(w.start), Number(w.end)])).toEqual([[1000, 1250], [1250, 1500], [1500, 1750], [1750, 2000]]);
    expect(idWindows('1000', '1002', 8).map((w) => Number(w.end - w.start))).toEqual([1, 1, 1]);
    expect(idWindows('2000', '1000', 4)).toEqual([]);
  });

  it('counts a window exactly when its probe passed its end or reached the collection’s end, and by density when the probe ended inside it', () => {
    // Three ids inside, one past the end: exactly three.
    expect(windowCount(window(0, 100, [10, 20, 30, 150], true))).toBe(3);
    // A probe that got fewer than it asked: the collection ends inside the window.
    expect(windowCount(window(0, 100, [10, 20], false))).toBe(2);
    // A full probe of 4 ids over the window's first 40 ids: its 4, and 0.1 a step over the 60
    // left; with a density of 0.3 at its end, the average of the two.
    const dense = window(0, 100, [9, 19, 29, 39], true);
    expect(windowCount(dense)).toBeCloseTo(10);
    expect(windowCount(dense, 0.3)).toBeCloseTo(4 + 0.2 * 60);
    // A burst (4 ids in the first 4) counts at most four times the end's density.
    expect(windowCount(window(0, 1000, [0, 1, 2, 3], true), 0.01)).toBeCloseTo(4 + 0.025 * 996);
    expect(newestDensity(ids(300, 290, 280, 270))).toBeCloseTo(4 / 31);
    expect(guessed(dense)).toBe(true);
    expect(guessed(window(0, 100, [10, 20, 30, 150], true))).toBe(false);
  });

  it('splits the window guessed to hold the most records, keeping its probe for the left half', () => {
    const windows = [window(0, 100, [1, 2, 3, 4], true), window(100, 200, [110, 120, 130, 140, 250], true), window(200, 300, [210, 220, 230, 240], true)];
    const right = splitLargest(windows, '0')!;
    expect([Number(right.start), Number(right.end)]).toEqual([50, 100]);
    expect(windows.map((w) => [Number(w.start), Number(w.end)])).toEqual([[0, 50], [50, 100], [100, 200], [200, 300]]);
    expect(right.ids).toEqual([]);
    // Four ids over the first five: 0.8 a step over the rest of the half left.
    expect(windowCount(windows[0]!)).toBeCloseTo(4 + 0.8 * 45);
    // Nothing to split once every count is exact.
    expect(splitLargest([window(0, 100, [10, 150], true)], '0')).toBeUndefined();
    // Nor a window the traversal has mostly passed.
    expect(splitLargest([window(0, 100, [1, 2, 3, 4], true)], '60')).toBeUndefined();
  });

  it('adds the windows ahead of the position, the one it is inside for the part ahead', () => {
    const windows = [window(0, 100, [10, 20, 150], true), window(100, 200, [110, 120, 130, 140, 250], true), window(200, 300, [210], false)];
    expect(estimateFromWindows(50, '0', windows)).toEqual({ remaining: 7, total: 57, fraction: 50 / 57 });
    // Halfway through the second window: half of its four, and the third's one.
    expect(estimateFromWindows(50, '150', windows).remaining).toBe(3);
    expect(estimateFromWindows(50, '300', windows)).toEqual({ remaining: 0, total: 50, fraction: 1 });
  });

  it('asks a probe per thousand records expected, at least one and at most the most', () => {
    expect(probeCount(0)).toBe(1);
    expect(probeCount(2_500)).toBe(3);
    expect(probeCount(1e9)).toBe(MAX_PROBES);
    expect(probeCount(1e9, 8)).toBe(8);
    expect(roughRemaining([{ records: 10, position: '100' }, { records: 20, position: '200' }], '1200')).toBe(100);
    expect(roughRemaining([{ records: 10, position: '100' }], '1200')).toBeUndefined();
  });
});
