import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { PosCloudError, ValidationError } from '../../src/errors/index.js';
import { createMirror, type Mirror } from '../../src/mirror/create-mirror.js';
import type { MirrorOptions } from '../../src/mirror/options.js';
import { COLLECTIONS, type CollectionName } from '../../src/schema/collections.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { DEFAULT_SYNC_GROUPS, orderByGroups } from '../../src/sync/cycle/sync-groups.js';
import { expectConverged } from './convergence.js';

/** Records per page: not the progress estimate's probes' 100, so a traversal's own pages can be told apart. */
const PAGE = 200;

let sim: Simulator | undefined;
const mirrors: Mirror[] = [];
afterEach(async () => {
  for (const m of mirrors.splice(0)) await m.close();
  await sim?.close();
  sim = undefined;
});

async function startSimulator(): Promise<Simulator> {
  sim = await createSimulator({ port: 0, size: 'small', seed: 11, logSize: 20_000 });
  return sim;
}

/** A mirror of `server` over real HTTP; `fail` may drop a request (by its URL) before it is sent. */
function mirrorOf<G extends string = 'reference' | 'catalogue' | 'recent' | 'history'>(
  server: Simulator,
  options: Partial<MirrorOptions<G>> & { factory?: IDBFactory; fail?: (url: URL) => boolean } = {},
): Mirror<G> {
  const { factory, fail, ...rest } = options;
  const made = createMirror<G>({
    baseUrl: server.baseUrl,
    token: server.token,
    userAgent: 'pos-cloud-mirror tests (sync groups)',
    indexedDB: factory ?? new IDBFactory(),
    IDBKeyRange,
    dbName: 'sync-groups',
    categories: false,
    reconcileIntervalMs: 0,
    pollIntervalMs: 60_000,
    pageLimit: PAGE,
    retry: 0,
    fetch: async (input, init) => {
      if (fail?.(new URL(input instanceof Request ? input.url : String(input)))) throw new TypeError('fetch failed');
      return fetch(input, init);
    },
    ...rest,
  } as MirrorOptions<G>);
  mirrors.push(made as Mirror);
  return made;
}

/** The pages of first syncs the simulator served, in arrival order, by collection: the estimate's probes left out. */
function traversalPages(server: Simulator): CollectionName[] {
  return server.requests
    .recent()
    .filter((r) => r.method === 'GET' && r.query.limit === String(PAGE))
    .map((r) => r.path.split('/').at(-1) as CollectionName);
}

const historyCollections = DEFAULT_SYNC_GROUPS.find((g) => g.name === 'history')!.collections;

describe('sync groups', () => {
  it('fill the reference data and the catalogue before the first page of history is asked', async () => {
    const server = await startSimulator();
    const mirror = mirrorOf(server);
    await mirror.syncNow();

    const pages = traversalPages(server);
    const firstOf = (c: CollectionName) => pages.indexOf(c);
    expect([...new Set(pages)]).toEqual(orderByGroups(DEFAULT_SYNC_GROUPS, COLLECTIONS));
    const firstHistoryPage = Math.min(...historyCollections.map(firstOf));
    for (const c of [...DEFAULT_SYNC_GROUPS[0]!.collections, ...DEFAULT_SYNC_GROUPS[1]!.collections]) expect(pages.lastIndexOf(c)).toBeLessThan(firstHistoryPage);
    expect(mirror.status.value.groups).toEqual({ reference: { initialDone: true }, catalogue: { initialDone: true }, recent: { initialDone: true }, history: { initialDone: true } });
  });

  it('follow the order an app gives, its groups named in the status', async () => {
    const server = await startSimulator();
    const mirror = mirrorOf(server, {
      collections: ['customers', 'shops', 'orders'],
      syncGroups: [
        { name: 'sales', collections: ['orders', 'order_details'] },
        { name: 'people', collections: ['customers', 'shops'] },
      ],
    });
    expect(mirror.status.value.groups).toEqual({ sales: { initialDone: false }, people: { initialDone: false } });
    await mirror.syncNow();

    expect([...new Set(traversalPages(server))]).toEqual(['orders', 'order_details', 'customers', 'shops']);
    await mirror.whenSynced('sales');
    expect(mirror.status.value.groups).toEqual({ sales: { initialDone: true }, people: { initialDone: true } });
  });

  it('let an app wait for a group: whenSynced resolves while the history is still being copied', async () => {
    const server = await startSimulator();
    const mirror = mirrorOf(server);
    const sync = mirror.syncNow();
    await mirror.whenSynced('catalogue');

    const rows = await mirror.db._sync_checkpoints.bulkGet(['customers', 'stock_history']);
    expect(rows[0]?.initialDone).toBe(true);
    expect(rows[1]?.initialDone ?? false).toBe(false);
    expect(mirror.status.value.groups.history.initialDone).toBe(false);
    await sync;
    await mirror.whenSynced('history');
  });

  it('resolves whenSynced at once after a restart, with no request to the service', async () => {
    const server = await startSimulator();
    const factory = new IDBFactory();
    const first = mirrorOf(server, { factory });
    await first.syncNow();
    await first.close();

    const asked = server.requests.count();
    const again = mirrorOf(server, { factory });
    await again.whenSynced('history');
    expect(again.status.value.groups.reference.initialDone).toBe(true);
    expect(server.requests.count()).toBe(asked);
  });

  it('refuses a group the mirror does not have with a ValidationError naming the groups it has', async () => {
    const server = await startSimulator();
    const mirror: Mirror = mirrorOf(server);
    const refused = mirror.whenSynced('sales');
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toThrow('whenSynced: unknown sync group "sales"; known: reference, catalogue, recent, history');
  });

  it('ends a wait with the reason of its signal, aborted before or during it', async () => {
    const server = await startSimulator();
    const mirror = mirrorOf(server);
    await expect(mirror.whenSynced('history', { signal: AbortSignal.abort(new Error('left the screen')) })).rejects.toThrow('left the screen');
    const controller = new AbortController();
    const waiting = mirror.whenSynced('history', { signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('ends a wait when the mirror closes, and refuses one after', async () => {
    const server = await startSimulator();
    const mirror = mirrorOf(server);
    const waiting = mirror.whenSynced('reference');
    await mirror.close();
    await expect(waiting).rejects.toBeInstanceOf(PosCloudError);
    await expect(waiting).rejects.toThrow(/closed/);
    await expect(mirror.whenSynced('reference')).rejects.toThrow('whenSynced: the mirror is closed');
  });

  it('resumes a first sync cut off in the middle of the history: nothing missing, nothing twice', async () => {
    const server = await startSimulator();
    const factory = new IDBFactory();
    let orderDetailsPages = 0;
    const cut = mirrorOf(server, {
      factory,
      // The connection drops on the fourth page of order items: the run stops there.
      fail: (url) => url.pathname.endsWith('/order_details') && url.searchParams.get('limit') === String(PAGE) && ++orderDetailsPages === 4,
    });
    await expect(cut.syncNow()).rejects.toThrow();
    await cut.whenSynced('catalogue');
    const interrupted = await cut.db._sync_checkpoints.get('order_details');
    // The simulator's history ends before the last day: \`recent\` paused at once, and the history's traversal got some pages in.
    expect(interrupted?.backwardCursor?.records).toBeGreaterThanOrEqual(PAGE);
    expect(cut.status.value.groups.history.initialDone).toBe(false);
    await cut.close();

    const resumed = mirrorOf(server, { factory });
    await resumed.syncNow();
    await resumed.whenSynced('history');
    await expectConverged(resumed.db, server, COLLECTIONS);
  });
});
