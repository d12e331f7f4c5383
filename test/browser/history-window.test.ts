/**
 * The history window in a real browser's IndexedDB (Chromium: the window and its pruning are the
 * library's own logic over Dexie, which `test/mirror/history-window.test.ts` covers in Node; one
 * engine shows it holds over a real one). A first sync stops at the window's edge for orders and
 * their items and copies the rest whole; a clock moved on past the pruning interval prunes the
 * orders that fell out of the window with their items, except an order whose edit the server has
 * not acknowledged (its POSTs failing): it stays, with its items, and its edit still goes out. So
 * does an order in conflict, and an order one of whose items is, until the resolution has gone out.
 *
 * The tiny tenant's orders come in three bursts: the last half day, about 17 days ago and about
 * three years ago. A window of 30 days holds the first two; 15 days on, the second falls out.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeId } from '../../src/ids/decode-id.js';
import { PRUNE_INTERVAL_MS } from '../../src/sync/cycle/prune-history.js';
import type { PageWindow } from './page/harness.js';
import type { SimRow } from './sim-truth.js';
import { expectNoPageErrors, freshTenant, startStage, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

const DAY = 86_400_000;
const WINDOW_DAYS = 30;
const createdAt = (id: unknown) => decodeId(String(id)).createdAt;
/** The collections no window bounds here, which a first sync copies whole. */
const UNBOUNDED = ['transactions', 'shifts', 'stockup', 'stock_history', 'customers', 'products'] as const;

/** What the page's mirror holds, as `evaluate` returns it. */
interface Held {
  orders: string[];
  items: { id: string; idOrder: string }[];
  counts: Record<string, number>;
  edge: number | undefined;
  /** Outbox entries not yet acknowledged (`mirror.pending()`). */
  pending: number;
  /** Keys of the unresolved conflicts (`mirror.conflicts()`), sorted. */
  conflicts: string[];
}

describeEngines(
  'the history window in %s',
  { timeout: 60_000 },
  (engine) => {
    let stage: Stage;

    beforeAll(async () => {
      // The simulator's clock starts now, so its history ends now.
      stage = await startStage(engine);
    }, 60_000);

    afterAll(async () => {
      await stage?.close();
    });

    /** Opens a page whose mirror has a window of {@link WINDOW_DAYS} days on orders and a clock and POSTs the test moves, and syncs it once. */
    async function syncedPage(what: string) {
      const tab = await stage.openPage();
      const open = { token: stage.sim.token, tenant: freshTenant(what), pollIntervalMs: 600_000, reconcileIntervalMs: 0, historyWindow: { orders: WINDOW_DAYS }, testClock: true };
      await tab.evaluate(async (o) => {
        const { conformance } = window as unknown as PageWindow;
        await conformance.openMirror(o).syncNow();
      }, open);
      const held = () =>
        tab.evaluate(async (tables) => {
          const { mirror } = window as unknown as PageWindow;
          const counts: Record<string, number> = {};
          for (const table of tables) counts[table] = await mirror.db.table(table).count();
          return {
            orders: (await mirror.db.orders.toCollection().primaryKeys()).map(String),
            items: (await mirror.db.order_details.toArray()).map((d) => ({ id: String(d.id), idOrder: String(d.id_order) })),
            counts,
            edge: mirror.status.value.historyEdge.orders,
            pending: (await mirror.pending()).length,
            conflicts: (await mirror.conflicts()).map((c) => c.key).sort(),
          } satisfies Held;
        }, UNBOUNDED);
      /** Moves the mirror's clock `ms` ahead and makes its POSTs fail or not, then syncs (a failed sync is not thrown). */
      const syncAt = (offsetMs: number, postsFail: boolean) =>
        tab.evaluate(
          async ({ offsetMs, postsFail }) => {
            const { mirror, testClock } = window as unknown as PageWindow;
            Object.assign(testClock, { offsetMs, postsFail });
            return mirror.syncNow().then(
              () => 'synced',
              (error: unknown) => (error instanceof Error ? error.name : String(error)),
            );
          },
          { offsetMs, postsFail },
        );
      return { tab, held, syncAt };
    }

    it('has a first sync copy the orders and items of the window only, and every older record of the other collections', async () => {
      const { sim } = stage;
      const started = Date.now();
      const { tab, held } = await syncedPage('window-first');
      const seen = await held();

      const edge = seen.edge!;
      expect(edge).toBeGreaterThanOrEqual(started - WINDOW_DAYS * DAY);
      expect(edge).toBeLessThanOrEqual(Date.now() - WINDOW_DAYS * DAY);
      const orders = sim.store.list('orders') as SimRow[];
      const inWindow = orders.filter((o) => createdAt(o.id) >= edge + 1000).map((o) => o.id);
      const outside = orders.filter((o) => createdAt(o.id) < edge).map((o) => o.id);
      expect(inWindow.length).toBeGreaterThan(0);
      expect(outside.length).toBeGreaterThan(0);
      // Every order of the window, none older than its edge.
      expect(inWindow.filter((id) => !seen.orders.includes(id))).toEqual([]);
      expect(seen.orders.filter((id) => createdAt(id) < edge)).toEqual([]);
      // The items of those orders, and no other.
      const heldOrders = new Set(seen.orders);
      const items = (sim.store.list('order_details') as SimRow[]).filter((d) => heldOrders.has(String(d.id_order))).map((d) => d.id);
      expect(items.length).toBeGreaterThan(0);
      expect(seen.items.map((d) => d.id).sort()).toEqual([...items].sort());
      expect(seen.items.filter((d) => createdAt(d.id) < edge || !heldOrders.has(d.idOrder))).toEqual([]);
      // The collections no window bounds are whole, records older than the orders' edge among them.
      for (const table of UNBOUNDED) {
        expect.soft(seen.counts[table], table).toBe(sim.store.count(table));
      }
      for (const table of ['transactions', 'stock_history'] as const) {
        expect((sim.store.list(table) as SimRow[]).filter((r) => createdAt(r.id) < edge).length, table).toBeGreaterThan(0);
      }
      await tab.close();
      expectNoPageErrors(stage);
    });

    it('prunes the orders that fell out of the window with their items, but keeps an order whose edit is not acknowledged until it has gone out', async () => {
      const { sim } = stage;
      const { tab, held, syncAt } = await syncedPage('window-prune');
      const before = await held();
      const serverItems = sim.store.list('order_details') as SimRow[];
      const itemsOf = (idOrder: string) => serverItems.filter((d) => d.id_order === idOrder).map((d) => d.id).sort();

      // Fifteen days on, the orders of 17 days ago fall out of the window (far more than the pruning interval).
      const offset = 15 * DAY;
      const edgeThen = Date.now() + offset - WINDOW_DAYS * DAY;
      const leaving = before.orders.filter((id) => createdAt(id) < edgeThen);
      const staying = before.orders.filter((id) => createdAt(id) >= edgeThen + 60_000);
      expect(leaving.length).toBeGreaterThan(1);
      expect(staying.length).toBeGreaterThan(0);
      // One of them is edited, and its POSTs fail: the edit is still pending when the pruning comes.
      const edited = leaving.find((id) => itemsOf(id).length > 0)!;
      expect(edited).toBeDefined();
      await tab.evaluate(async (id) => {
        const { mirror } = window as unknown as PageWindow;
        await mirror.save('orders', { id, note: 'edited at the edge' });
      }, edited);
      const offline = await syncAt(offset, true);

      const pruned = await held();
      expect(pruned.pending).toBe(1);
      expect(pruned.edge).toBeGreaterThanOrEqual(edgeThen - 60_000);
      expect(pruned.edge).toBeLessThanOrEqual(Date.now() + offset - WINDOW_DAYS * DAY);
      // Only the edited order is left of those that fell out, with all its items; the window's own are all there.
      expect(pruned.orders.filter((id) => createdAt(id) < edgeThen)).toEqual([edited]);
      expect(staying.filter((id) => !pruned.orders.includes(id))).toEqual([]);
      const left = new Set(leaving.filter((id) => id !== edited));
      expect(pruned.items.filter((d) => left.has(d.idOrder))).toEqual([]);
      expect(pruned.items.filter((d) => d.idOrder === edited).map((d) => d.id).sort()).toEqual(itemsOf(edited));
      expect(pruned.items.length).toBe(before.items.filter((d) => !left.has(d.idOrder)).length);
      const note = await tab.evaluate(async (id) => (await (window as unknown as PageWindow).mirror.db.orders.get(id))?.note, edited);
      expect(note).toBe('edited at the edge');
      expect(sim.store.get('orders', edited)?.note).not.toBe('edited at the edge');
      expect(offline).toBe('NetworkError');

      // The POSTs go through again: the edit reaches the server.
      expect(await syncAt(offset, false)).toBe('synced');
      expect(sim.store.get('orders', edited)?.note).toBe('edited at the edge');
      expect((await held()).pending).toBe(0);

      // Acknowledged, the order goes with its items at the next pruning, once the edge has moved on by the interval.
      expect(await syncAt(offset + PRUNE_INTERVAL_MS + 60_000, false)).toBe('synced');
      const after = await held();
      expect(after.orders).not.toContain(edited);
      expect(after.items.filter((d) => d.idOrder === edited)).toEqual([]);
      expect(after.orders.filter((id) => createdAt(id) < edgeThen)).toEqual([]);
      await tab.close();
      expectNoPageErrors(stage);
    });

    it('keeps an order in conflict with its items, and an order one of whose items is in conflict, until the resolution has gone out', async () => {
      const { sim } = stage;
      const { tab, held, syncAt } = await syncedPage('window-conflict');
      const before = await held();
      const itemsOf = (idOrder: string) => before.items.filter((d) => d.idOrder === idOrder).map((d) => d.id).sort();
      const offset = 15 * DAY;
      const edgeThen = Date.now() + offset - WINDOW_DAYS * DAY;
      const leaving = before.orders.filter((id) => createdAt(id) < edgeThen);
      // Two of the orders that will fall out, with several items each: one gets a conflict on the order, the other on one of its items.
      const [order, parent] = leaving.filter((id) => itemsOf(id).length > 1);
      expect(parent).toBeDefined();
      const item = itemsOf(parent!)[0]!;
      const left = new Set(leaving.filter((id) => id !== order && id !== parent));
      expect(left.size).toBeGreaterThan(0);

      // The back office changes a field the page then changes too, on what it had.
      sim.store.write('orders', { id: order!, note: 'from the back office' });
      sim.store.write('order_details', { id: item, note: 'from the back office' });
      await tab.evaluate(
        async ([order, item]) => {
          const { mirror } = window as unknown as PageWindow;
          await mirror.save('orders', { id: order, note: 'from the register' });
          await mirror.save('order_details', { id: item, note: 'from the register' });
        },
        [order!, item] as [string, string],
      );
      expect(await syncAt(0, false)).toBe('synced');
      const keys = [`orders:${order!}`, `order_details:${item}`].sort();
      expect((await held()).conflicts).toEqual(keys);

      // Fifteen days on, both stay with all their items; the others that fell out are gone with theirs.
      expect(await syncAt(offset, false)).toBe('synced');
      const pruned = await held();
      expect(pruned.edge).toBeGreaterThanOrEqual(edgeThen - 60_000);
      expect(pruned.conflicts).toEqual(keys);
      expect(pruned.orders.filter((id) => createdAt(id) < edgeThen).sort()).toEqual([order!, parent!].sort());
      const heldOf = (idOrder: string) => pruned.items.filter((d) => d.idOrder === idOrder).map((d) => d.id).sort();
      expect(heldOf(order!)).toEqual(itemsOf(order!));
      expect(heldOf(parent!)).toEqual(itemsOf(parent!));
      expect(pruned.items.filter((d) => left.has(d.idOrder))).toEqual([]);

      // Resolved for the page, each change reaches the server once.
      await tab.evaluate(async (keys) => {
        const { mirror } = window as unknown as PageWindow;
        for (const key of keys) await mirror.resolveConflict(key, 'local');
      }, keys);
      expect(await syncAt(offset, false)).toBe('synced');
      expect(sim.store.get('orders', order!)?.note).toBe('from the register');
      expect(sim.store.get('order_details', item)?.note).toBe('from the register');
      expect([sim.requests.timesPosted('orders', order!), sim.requests.timesPosted('order_details', item)]).toEqual([1, 1]);
      expect(await held()).toMatchObject({ pending: 0, conflicts: [] });

      // Settled, both orders go with their items at the next pruning.
      expect(await syncAt(offset + PRUNE_INTERVAL_MS + 60_000, false)).toBe('synced');
      const after = await held();
      expect(after.orders.filter((id) => createdAt(id) < edgeThen)).toEqual([]);
      expect(after.items.filter((d) => d.idOrder === order || d.idOrder === parent)).toEqual([]);
      await tab.close();
      expectNoPageErrors(stage);
    });
  },
);
