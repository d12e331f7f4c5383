import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createMirror, type Mirror } from '../../src/mirror/create-mirror.js';
import type { CollectionSyncProgress, SyncProgress } from '../../src/mirror/status.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { MAX_PROBES } from '../../src/sync/cycle/progress-estimate.js';

describe('mirror.progress during a first sync', () => {
  let sim: Simulator | undefined;
  let mirror: Mirror | undefined;
  afterEach(async () => {
    await mirror?.close();
    await sim?.close();
    mirror = sim = undefined;
  });

  /**
   * A mirror of stock history alone (or of `collection`), 50 records a page, its requests counted: its
   * pages, and the estimate's questions with their directions.
   */
  function stockMirror(
    server: Simulator,
    factory = new IDBFactory(),
    fail?: (page: number) => boolean,
    collection: 'stock_history' | 'customers' = 'stock_history',
  ): { mirror: Mirror; requests: { pages: number; probes: number; probeDirections: string[]; pageDirections: string[] } } {
    const requests = { pages: 0, probes: 0, probeDirections: [] as string[], pageDirections: [] as string[] };
    const made = createMirror({
      baseUrl: server.baseUrl,
      token: server.token,
      userAgent: 'pos-cloud-mirror tests (progress)',
      indexedDB: factory,
      IDBKeyRange,
      dbName: 'progress',
      collections: [collection],
      categories: false,
      reconcileIntervalMs: 0,
      pageLimit: 50,
      // A progress report after each page, so the estimate is read at the page that reaches halfway
      // (with several pages per transaction it is the same estimate, read less often).
      pagesPerTransaction: 1,
      retry: 0,
      fetch: async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        if (url.pathname.endsWith(`/${collection}`)) {
          const direction = url.searchParams.get('direction') ?? '';
          if (url.searchParams.get('limit') !== '50') {
            requests.probes++;
            requests.probeDirections.push(direction);
          } else if (fail?.(requests.pages + 1)) throw new TypeError('fetch failed');
          else {
            requests.pages++;
            requests.pageDirections.push(direction);
          }
        }
        return fetch(input, init);
      },
    });
    return { mirror: made, requests };
  }

  it.each([
    // A first traversal of stock history goes newest first: its records left lie below its position.
    { collection: 'stock_history' as const, direction: 'backward' },
    { collection: 'customers' as const, direction: 'forward' },
  ])('shows the records so far and an estimate that comes close before the end and is exact at it ($collection, $direction)', async ({ collection, direction }) => {
    sim = await createSimulator({ port: 0, size: { [collection]: 3_000 }, seed: 4, activity: false });
    const actual = sim.store.count(collection);
    expect(actual).toBeGreaterThan(2_000);
    const made = stockMirror(sim, undefined, undefined, collection);
    mirror = made.mirror;
    const seen: SyncProgress[] = [];
    mirror.progress.subscribe((p) => seen.push(p));
    await mirror.syncNow();

    const entries = seen.map((p) => p.collections[collection]).filter((p): p is CollectionSyncProgress => p !== undefined);
    const last = entries.at(-1)!;
    expect(last).toMatchObject({ done: true, records: actual, direction, estimate: { remaining: 0, total: actual, fraction: 1 } });
    expect(seen.at(-1)).toMatchObject({ records: actual, remaining: undefined });
    // The estimate arrives while the traversal runs, and from then on the totals carry it.
    const estimated = seen.filter((p) => !p.collections[collection]?.done && p.remaining !== undefined);
    expect(estimated.length).toBeGreaterThan(0);
    for (const p of estimated) expect(p.remaining).toBe(p.collections[collection]!.estimate!.remaining);
    const halfway = entries.find((p) => !p.done && p.estimate && p.records >= actual / 2)!;
    expect(Math.abs(halfway.estimate!.total - actual) / actual).toBeLessThan(0.25);
    // One question for where the traversal ends (the other way), and probes within the limit, the traversal's way.
    expect(made.requests.probes).toBeGreaterThan(1);
    expect(made.requests.probes).toBeLessThanOrEqual(1 + MAX_PROBES);
    expect(new Set(made.requests.pageDirections)).toEqual(new Set([direction]));
    const other = direction === 'forward' ? 'backward' : 'forward';
    expect(made.requests.probeDirections.filter((d) => d === other)).toHaveLength(1);
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

  it('asks no probe for a first sync of a few pages: only where it ends, once, which counts what is left', async () => {
    sim = await createSimulator({ port: 0, size: { stock_history: 180 }, seed: 4, activity: false });
    const made = stockMirror(sim);
    mirror = made.mirror;
    await mirror.syncNow();
    expect(made.requests.pages).toBeGreaterThanOrEqual(4);
    expect(made.requests.probes).toBeLessThanOrEqual(1);
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
