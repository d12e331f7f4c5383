import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../../../src/db/sync-rows.js';
import { traverse, traverseInGroups } from '../../../src/sync/pull/traverse.js';
import type { PageLike, SyncClient, TraversalQuery } from '../../../src/sync/sync-client.js';

/**
 * A client whose one traversal has `count` pages, each released by the test (`release(n)`) or at
 * once (`instant`). It records how many pages were asked for and whether its signal aborted.
 */
function pagedClient(count: number, options: { instant?: boolean; failAt?: number } = {}) {
  const asked: number[] = [];
  let released = options.instant ? Number.POSITIVE_INFINITY : 0;
  let wake: (() => void) | undefined;
  let signal: AbortSignal | undefined;
  const page = (index: number): PageLike =>
    Object.assign([{ id: String(index), _v: index + 1 } as StoredRecord], {
      rejected: [],
      cursor: index + 1 < count ? String(index + 1) : undefined,
      serverTime: 0,
      done: index + 1 === count,
    });
  const client = {
    pages(_collection: string, query: TraversalQuery): AsyncIterable<PageLike> {
      signal = query.signal;
      return (async function* () {
        for (let index = 0; index < count; index++) {
          asked.push(index);
          while (released <= index) {
            if (signal?.aborted) throw signal.reason;
            await new Promise<void>((resolve) => (wake = resolve));
          }
          if (signal?.aborted) throw signal.reason;
          if (index === options.failAt) throw new Error(`page ${index} failed`);
          yield page(index);
        }
      })();
    },
  } as unknown as SyncClient;
  return {
    client,
    asked,
    aborted: () => signal?.aborted === true,
    /** Lets the first `n` pages arrive. */
    release(n: number) {
      released = n;
      wake?.();
      wake = undefined;
    },
  };
}

const query = { direction: 'forward' as const, versionStart: 0 };
const ids = (pages: PageLike[]) => pages.map((p) => p[0]!.id);
const turns = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('traverseInGroups', () => {
  it('hands on every page once, in order, the pages that arrived during a write together, never more than asked', async () => {
    const source = pagedClient(23, { instant: true });
    const calls: string[][] = [];
    await traverseInGroups(source.client, 'customers', query, undefined, 4, async (pages) => {
      calls.push(ids(pages));
      await turns();
    });
    expect(calls.flat()).toEqual(Array.from({ length: 23 }, (_, i) => String(i)));
    expect(Math.max(...calls.map((c) => c.length))).toBe(4);
    // While the first page was written, the next ones came: the writes were grouped.
    expect(calls.length).toBeLessThan(23);
  });

  it('asks for no more pages than it may hold: at most pagesPerCall waiting while a write runs', async () => {
    const source = pagedClient(40, { instant: true });
    const held: number[] = [];
    let handed = 0;
    await traverseInGroups(source.client, 'customers', query, undefined, 3, async (pages) => {
      handed += pages.length;
      await turns();
      // Pages asked for and not yet handed on: those waiting, and the one being asked.
      held.push(source.asked.length - handed);
    });
    expect(Math.max(...held)).toBeLessThanOrEqual(3 + 1);
    expect(handed).toBe(40);
  });

  it('hands on each page as it comes when the network is the slower side', async () => {
    const source = pagedClient(5);
    const calls: string[][] = [];
    const walk = traverseInGroups(source.client, 'customers', query, undefined, 8, async (pages) => void calls.push(ids(pages)));
    for (let n = 1; n <= 5; n++) {
      source.release(n);
      await turns();
      expect(calls).toHaveLength(n);
    }
    await walk;
    expect(calls).toEqual([['0'], ['1'], ['2'], ['3'], ['4']]);
  });

  it('hands on the pages that came before a failed request, then raises its error', async () => {
    const source = pagedClient(10, { instant: true, failAt: 6 });
    const handed: string[] = [];
    await expect(
      traverseInGroups(source.client, 'customers', query, undefined, 4, async (pages) => {
        handed.push(...ids(pages));
        await turns();
      }),
    ).rejects.toThrow('page 6 failed');
    expect(handed).toEqual(['0', '1', '2', '3', '4', '5']);
  });

  it('cancels its requests when a write throws, and raises that error', async () => {
    const source = pagedClient(30, { instant: true });
    let calls = 0;
    await expect(
      traverseInGroups(source.client, 'customers', query, undefined, 4, async () => {
        if (++calls === 2) throw new Error('write failed');
        await turns();
      }),
    ).rejects.toThrow('write failed');
    expect(calls).toBe(2);
    expect(source.aborted()).toBe(true);
    await turns();
    expect(source.asked.length).toBeLessThan(30);
  });

  it('writes nothing that came after its signal aborted, and raises the abort', async () => {
    const source = pagedClient(30, { instant: true });
    const stop = new AbortController();
    const handed: string[] = [];
    await expect(
      traverseInGroups(source.client, 'customers', query, stop.signal, 4, async (pages) => {
        handed.push(...ids(pages));
        await turns();
        if (handed.length >= 2) stop.abort(new DOMException('stopped', 'AbortError'));
      }),
    ).rejects.toThrow('stopped');
    const atAbort = handed.length;
    await turns();
    expect(handed).toHaveLength(atAbort);
    expect(atAbort).toBeLessThan(30);
  });

  it('with one page per call, walks as traverse does: one page written, the next one asked', async () => {
    const source = pagedClient(6, { instant: true });
    const ahead: number[] = [];
    let handed = 0;
    await traverse(source.client, 'customers', query, undefined, async () => {
      handed++;
      await turns();
      ahead.push(source.asked.length - handed);
    });
    expect(handed).toBe(6);
    expect(Math.max(...ahead)).toBeLessThanOrEqual(1);
  });
});
