import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createMirror, type Mirror } from '../../src/mirror/create-mirror.js';
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
} from '../../src/mirror/progress-estimate.js';
import type { CollectionSyncProgress, SyncProgress } from '../../src/mirror/status.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';

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

describe('mirror.progress during a first sync', () => {
  let sim: Simulator | undefined;
  let mirror: Mirror | undefined;
  afterEach(async () => {
    await mirror?.close();
    await sim?.close();
    mirror = sim = undefined;
  });

  /** A mirror of stock history alone, 50 records a page, its requests counted: its pages, and the estimate's questions. */
  function stockMirror(server: Simulator, factory = new IDBFactory(), fail?: (page: number) => boolean): { mirror: Mirror; requests: { pages: number; probes: number } } {
    const requests = { pages: 0, probes: 0 };
    const made = createMirror({
      baseUrl: server.baseUrl,
      token: server.token,
      userAgent: 'pos-cloud-mirror tests (progress)',
      indexedDB: factory,
      IDBKeyRange,
      dbName: 'progress',
      collections: ['stock_history'],
      categories: false,
      reconcileIntervalMs: 0,
      pageLimit: 50,
      retry: 0,
      fetch: async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        if (url.pathname.endsWith('/stock_history')) {
          if (url.searchParams.get('limit') !== '50') requests.probes++;
          else if (fail?.(requests.pages + 1)) throw new TypeError('fetch failed');
          else requests.pages++;
        }
        return fetch(input, init);
      },
    });
    return { mirror: made, requests };
  }

  it('shows the records so far and an estimate that comes close before the end and is exact at it', async () => {
    sim = await createSimulator({ port: 0, size: { stock_history: 3_000 }, seed: 4, activity: false });
    const actual = sim.store.count('stock_history');
    expect(actual).toBeGreaterThan(2_000);
    const made = stockMirror(sim);
    mirror = made.mirror;
    const seen: SyncProgress[] = [];
    mirror.progress.subscribe((p) => seen.push(p));
    await mirror.syncNow();

    const entries = seen.map((p) => p.collections.stock_history).filter((p): p is CollectionSyncProgress => p !== undefined);
    const last = entries.at(-1)!;
    expect(last).toMatchObject({ done: true, records: actual, estimate: { remaining: 0, total: actual, fraction: 1 } });
    expect(seen.at(-1)).toMatchObject({ records: actual, remaining: undefined });
    // The estimate arrives while the traversal runs, and from then on the totals carry it.
    const estimated = seen.filter((p) => !p.collections.stock_history?.done && p.remaining !== undefined);
    expect(estimated.length).toBeGreaterThan(0);
    for (const p of estimated) expect(p.remaining).toBe(p.collections.stock_history!.estimate!.remaining);
    const halfway = entries.find((p) => !p.done && p.estimate && p.records >= actual / 2)!;
    expect(Math.abs(halfway.estimate!.total - actual) / actual).toBeLessThan(0.25);
    // One question for the newest id, and probes within the limit.
    expect(made.requests.probes).toBeGreaterThan(1);
    expect(made.requests.probes).toBeLessThanOrEqual(1 + MAX_PROBES);
  });

  it('shows the estimate within a few pages of a slow service: its first probes do not go one round trip at a time', async () => {
    // Every answer waits 100 ms, the traversal's pages and the estimate's questions alike, so each
    // round trip costs about a page (the traversal reads one page ahead, and a page is written in
    // far less). Asked one at a time, the newest records and the first eight probes took nine round
    // trips after the second page: the estimate came at about page 11, near half of this traversal.
    sim = await createSimulator({ port: 0, size: { stock_history: 1_500 }, seed: 4, activity: false, faults: { latencyMs: 100 } });
    const made = stockMirror(sim);
    mirror = made.mirror;
    const seen: CollectionSyncProgress[] = [];
    mirror.progress.subscribe((p) => p.collections.stock_history && seen.push(p.collections.stock_history));
    await mirror.syncNow();

    const pages = seen.at(-1)!.pages;
    expect(pages).toBeGreaterThanOrEqual(25);
    const first = seen.find((p) => p.estimate && !p.done);
    // The newest records, then the first pass's probes a few at a time: three round trips, about as many pages.
    expect(first?.pages, 'the page at which the first estimate showed').toBeLessThanOrEqual(7);
    expect(made.requests.probes).toBeLessThanOrEqual(1 + MAX_PROBES);
  });

  it('asks nothing more for a delta of one page', async () => {
    sim = await createSimulator({ port: 0, size: { stock_history: 300 }, seed: 4, activity: false });
    const made = stockMirror(sim);
    mirror = made.mirror;
    await mirror.syncNow();
    made.requests.probes = 0;
    made.requests.pages = 0;
    await mirror.syncNow();
    expect(made.requests.pages).toBe(1);
    expect(made.requests.probes).toBe(0);
  });

  it('says where a first sync the last visit left unfinished resumed', async () => {
    sim = await createSimulator({ port: 0, size: { stock_history: 1_000 }, seed: 4, activity: false });
    const factory = new IDBFactory();
    // The connection drops on the seventh page: six pages (300 records) are kept with their cursor.
    const first = stockMirror(sim, factory, (page) => page === 7);
    await expect(first.mirror.syncNow()).rejects.toThrow();
    await first.mirror.close();

    const second = stockMirror(sim, factory);
    mirror = second.mirror;
    const seen: CollectionSyncProgress[] = [];
    mirror.progress.subscribe((p) => p.collections.stock_history && seen.push(p.collections.stock_history));
    await mirror.syncNow();
    expect(seen[0]).toMatchObject({ resumedAt: 300, records: 350, pages: 1 });
    // Resumed where it stopped: the pages left of the traversal (the last one short, or empty), then a delta of one.
    expect(second.requests.pages).toBe(Math.floor((sim.store.count('stock_history') - 300) / 50) + 1 + 1);
  });
});
