import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createMirror, type Mirror } from '../../src/mirror/create-mirror.js';
import type { MirrorOptions } from '../../src/mirror/options.js';
import type { CollectionSyncProgress } from '../../src/mirror/status.js';
import { decodeId } from '../../src/ids/decode-id.js';
import { COLLECTIONS } from '../../src/schema/collections.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import type { DefaultSyncGroupName } from '../../src/sync/cycle/sync-groups.js';
import { expectConverged } from './convergence.js';

const DAY = 86_400_000;
const PAGE = 50;

let sim: Simulator | undefined;
const mirrors: Mirror[] = [];
afterEach(async () => {
  for (const m of mirrors.splice(0)) await m.close();
  await sim?.close();
  sim = undefined;
});

/** A tenant whose history ends now (the mirror's clock is the real one), so its last day has sales. */
async function startSimulator(): Promise<Simulator> {
  sim = await createSimulator({ port: 0, size: 'small', seed: 5, logSize: 50_000, clock: { start: Date.now() } });
  return sim;
}

function mirrorOf(server: Simulator, options: Partial<MirrorOptions> & { factory?: IDBFactory; fail?: (url: URL) => boolean } = {}): Mirror<DefaultSyncGroupName> {
  const { factory, fail, ...rest } = options;
  const made = createMirror<DefaultSyncGroupName>({
    baseUrl: server.baseUrl,
    token: server.token,
    userAgent: 'pos-cloud-mirror tests (recent group)',
    indexedDB: factory ?? new IDBFactory(),
    IDBKeyRange,
    dbName: 'recent-group',
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
  } as MirrorOptions<DefaultSyncGroupName>);
  mirrors.push(made as Mirror);
  return made;
}

/** The ids of the server's orders created since `since`, and of their items. */
function createdSince(server: Simulator, since: number): { orders: string[]; items: string[] } {
  const orders = server.store.list('orders').map((o) => String(o.id)).filter((id) => decodeId(id).createdAt >= since);
  const wanted = new Set(orders);
  const items = server.store.list('order_details').filter((d) => wanted.has(String(d.id_order))).map((d) => String(d.id));
  return { orders, items };
}

describe('the recent sync group', () => {
  it('has every order of the last day and its items in once whenSynced("recent") resolves, older orders not all yet, and the sync then ends equal to the server', async () => {
    const server = await startSimulator();
    const mirror = mirrorOf(server);
    const ordersProgress: CollectionSyncProgress[] = [];
    mirror.progress.subscribe((p) => p.collections.orders && ordersProgress.push(p.collections.orders));
    const sync = mirror.syncNow();
    await mirror.whenSynced('recent');
    const since = Date.now() - DAY;
    // Taken at once, in one read: the history goes on meanwhile.
    const [orders, items] = await mirror.db.transaction('r', ['orders', 'order_details'], async () => [
      (await mirror.db.orders.toCollection().primaryKeys()).map(String),
      (await mirror.db.order_details.toCollection().primaryKeys()).map(String),
    ]);
    const recent = createdSince(server, since);
    expect(recent.orders.length).toBeGreaterThan(0);
    const heldOrders = new Set(orders);
    const heldItems = new Set(items);
    expect(recent.orders.filter((id) => !heldOrders.has(id))).toEqual([]);
    expect(recent.items.filter((id) => !heldItems.has(id))).toEqual([]);
    expect(orders.length).toBeLessThan(server.store.count('orders'));
    expect(mirror.status.value.groups.history.initialDone).toBe(false);

    await sync;
    expect(mirror.status.value.groups).toMatchObject({ recent: { initialDone: true }, history: { initialDone: true } });
    // The history took the orders up where the recent group paused them: a continuation, not a resumption.
    const pausedWith = Math.max(...ordersProgress.filter((p) => p.continuedAt === undefined).map((p) => p.records));
    expect(ordersProgress.find((p) => p.continuedAt !== undefined)).toMatchObject({ continuedAt: pausedWith });
    expect(ordersProgress.filter((p) => p.resumedAt !== undefined)).toEqual([]);
    await expectConverged(mirror.db, server, COLLECTIONS);
  });

  it('stays complete after a restart, and a history cut off after it resumes where it stopped, skipping nothing', async () => {
    const server = await startSimulator();
    const factory = new IDBFactory();
    let historyPages = 0;
    const cut = mirrorOf(server, {
      factory,
      // The connection drops on the first page of orders of more than a year ago (the progress estimate's probes ask 100).
      fail: (url) => {
        const from = url.searchParams.get('id_start');
        const deep = url.pathname.endsWith('/orders') && url.searchParams.get('limit') === String(PAGE) && from !== null && decodeId(from).createdAt < Date.now() - 365 * DAY;
        return deep && ++historyPages === 1;
      },
    });
    await expect(cut.syncNow()).rejects.toThrow();
    expect(historyPages).toBe(1);
    await cut.whenSynced('recent');
    const row = await cut.db._sync_checkpoints.get('orders');
    expect(row?.pausedAt).toBeDefined();
    expect(row?.backwardCursor).toBeDefined();
    expect(cut.status.value.groups.history.initialDone).toBe(false);
    await cut.close();

    const asked = server.requests.count();
    const again = mirrorOf(server, { factory });
    await again.whenSynced('recent');
    expect(server.requests.count()).toBe(asked);
    server.store.advanceClock(5);
    const sold = String(server.store.sell().order.id);
    await again.syncNow();
    await again.whenSynced('history');
    expect(await again.db.orders.get(sold)).toBeDefined();
    await expectConverged(again.db, server, COLLECTIONS);
  });
});
