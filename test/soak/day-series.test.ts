import { describe, expect, it } from 'vitest';
import { memoryOf } from '../../scripts/engines/processes.js';
import { leastSquaresSlope, summarizeDay, type DaySample, type PagesSample } from '../../scripts/soak-browser/day-series.js';

const MB = 1024 * 1024;

/** A tab's series: a sample before the first sync, one after it, one every 30 s, one after settling. */
function series(tab: number, heaps: readonly (number | null)[], more: (i: number) => Partial<DaySample> = () => ({})): DaySample[] {
  return heaps.map((heap, i) => ({
    atMs: i * 30_000,
    tab,
    phase: i === 0 ? 'start' : i === 1 ? 'first-sync' : i === heaps.length - 1 ? 'end' : 'run',
    heap,
    usage: 1_000_000 + i * 10_000,
    tables: { customers: 1_000 + i * 10 },
    records: 1_000 + i * 10,
    outbox: 0,
    rejected: 0,
    conflicts: 0,
    quarantined: 0,
    ...more(i),
  }));
}

describe('day-series', () => {
  it('gives each measure its first, after-first-sync, least, most and last readings per tab', () => {
    const summary = summarizeDay([...series(2, [5 * MB, 20 * MB, 22 * MB, 19 * MB, 21 * MB]), ...series(1, [4 * MB, 30 * MB, 31 * MB])]);
    expect(summary.tabs.map((t) => t.tab)).toEqual([1, 2]);
    expect(summary.tabs[1]!.heap).toEqual({ first: 5 * MB, afterFirstSync: 20 * MB, min: 5 * MB, max: 22 * MB, last: 21 * MB });
    expect(summary.tabs[1]!.heapGrowth).toBe(1 * MB);
    expect(summary.tabs[1]!.records).toMatchObject({ first: 1_000, afterFirstSync: 1_010, last: 1_040 });
    expect(summary.tabs[1]!.minutes).toBe(1.5);
  });

  it('fits a straight line through the heap readings from the first sync on, per 10 minutes', () => {
    expect(leastSquaresSlope([[0, 1], [1, 3], [2, 5]])).toBe(2);
    expect(leastSquaresSlope([[5, 7]])).toBe(0);
    // 1 MB every 30 s after the first sync: 20 MB per 10 minutes; the reading before the sync is left out.
    const [tab] = summarizeDay(series(1, [0, 10 * MB, 11 * MB, 12 * MB, 13 * MB])).tabs;
    expect(tab!.heapSlopePer10Min).toBeCloseTo(20 * MB);
  });

  it('finds a flat heap flat, and misses the aim when the heap climbs beyond noise', () => {
    const flat = summarizeDay(series(1, [2 * MB, 30 * MB, 33 * MB, 29 * MB, 31 * MB, 30.5 * MB]));
    expect(flat.aims.find((a) => a.aim === 'heap flat')).toMatchObject({ met: true });
    const climbing = summarizeDay(series(1, [2 * MB, 30 * MB, 34 * MB, 38 * MB, 42 * MB, 46 * MB]));
    expect(climbing.aims.find((a) => a.aim === 'heap flat')).toMatchObject({ met: false });
    expect(climbing.missed).toBe(1);
  });

  it('does not take one high last reading for growth when the line through the series stays flat', () => {
    const summary = summarizeDay(series(1, [2 * MB, 30 * MB, 30 * MB, 30 * MB, 30 * MB, 30 * MB, 30 * MB, 30 * MB, 30 * MB, 36 * MB]));
    expect(summary.tabs[0]!.heapGrowth).toBe(6 * MB);
    expect(summary.aims.find((a) => a.aim === 'heap flat')).toMatchObject({ met: true });
  });

  it('says n/a for the heap where the engine gives no reading, and for bytes per record without a storage estimate', () => {
    const summary = summarizeDay(series(1, [null, null, null], () => ({ usage: null })));
    expect(summary.tabs[0]!.heap).toBeNull();
    expect(summary.aims.filter((a) => a.met === null).map((a) => a.aim)).toEqual(['heap flat', 'bytes per record steady']);
    expect(summary.missed).toBe(0);
  });

  it('misses the bytes-per-record aim when the database grows much faster than its records', () => {
    const steady = summarizeDay(series(1, [1, 1, 1, 1]));
    expect(steady.aims.find((a) => a.aim === 'bytes per record steady')).toMatchObject({ met: true });
    const bloated = summarizeDay(series(1, [1, 1, 1, 1], (i) => ({ usage: 1_000_000 * (i + 1) })));
    expect(bloated.aims.find((a) => a.aim === 'bytes per record steady')).toMatchObject({ met: false });
  });

  it('misses the sync-tables aim when an outbox entry, a conflict or a quarantined record is left at the end', () => {
    const drained = summarizeDay(series(1, [1, 1, 1, 1], (i) => ({ outbox: i === 2 ? 5 : 0, conflicts: i === 2 ? 1 : 0 })));
    expect(drained.aims.find((a) => a.aim === 'sync tables empty')).toMatchObject({ met: true });
    expect(drained.tabs[0]!.outbox.max).toBe(5);
    const left = summarizeDay(series(1, [1, 1, 1, 1], (i) => ({ quarantined: i === 3 ? 2 : 0 })));
    expect(left.aims.find((a) => a.aim === 'sync tables empty')).toMatchObject({ met: false, detail: expect.stringContaining('quarantined 2') });
  });

  it('reads the page processes once a round and judges their memory as the heap is judged', () => {
    // Process 11 serves the tabs throughout; 12 serves the first sync and ends; 13 is a spare started later.
    const pages = (bytes: readonly number[]): PagesSample[] =>
      bytes.map((b, i) => ({
        atMs: i * 30_000,
        phase: i === 0 ? 'start' : i === 1 ? 'first-sync' : i === bytes.length - 1 ? 'end' : 'run',
        processes: { 11: b, ...(i <= 2 ? { 12: 50 * MB } : {}), ...(i >= 3 ? { 13: 40 * MB } : {}) },
      }));
    const flat = summarizeDay(series(1, [null, null, null, null, null]), pages([90 * MB, 200 * MB, 210 * MB, 195 * MB, 205 * MB]));
    expect(flat.pages).toMatchObject({ samples: 5, minutes: 1.5, growth: 5 * MB, followed: 1, processes: { min: 2, max: 2 } });
    expect(flat.pages!.bytes).toEqual({ first: 90 * MB, afterFirstSync: 200 * MB, min: 90 * MB, max: 210 * MB, last: 205 * MB });
    expect(flat.aims.find((a) => a.aim === 'page memory flat')).toMatchObject({ tab: null, met: true });
    // 20 MB a reading is beyond the noise of a tenth of 200 MB: both the last reading and the line climb.
    const climbing = summarizeDay(series(1, [null, null, null, null, null]), pages([90 * MB, 200 * MB, 220 * MB, 240 * MB, 260 * MB]));
    expect(climbing.pages!.slopePer10Min).toBeCloseTo(400 * MB);
    expect(climbing.aims.find((a) => a.aim === 'page memory flat')).toMatchObject({ met: false });
    expect(climbing.missed).toBe(1);
    expect(summarizeDay(series(1, [1, 1, 1])).pages).toBeNull();
    // Where the heap is read (Chromium), it is judged, and the page processes' memory is not.
    const withHeap = summarizeDay(series(1, [2 * MB, 30 * MB, 30 * MB, 30 * MB, 30 * MB]), pages([90 * MB, 200 * MB, 220 * MB, 240 * MB, 260 * MB]));
    expect(withHeap.aims.find((a) => a.aim === 'page memory flat')).toMatchObject({ met: null });
    expect(withHeap.missed).toBe(0);
  });

  it('reads the memory a process holds from /proc, and nothing for one that is gone', () => {
    const own = memoryOf([process.pid]);
    expect(own).toBeGreaterThan(10 * MB);
    expect(own).toBeLessThan(process.memoryUsage().rss * 2);
    expect(memoryOf([process.pid, 2 ** 22 + 12_345])).toBeGreaterThan(0);
    expect(memoryOf([2 ** 22 + 12_345])).toBe(0);
  });
});
