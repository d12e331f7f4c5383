import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { OutsideHistoryWindowError, ValidationError } from '../../src/errors/index.js';
import { createMirror, type Mirror } from '../../src/mirror/create-mirror.js';
import type { MirrorOptions } from '../../src/mirror/options.js';
import { decodeId } from '../../src/ids/decode-id.js';
import { compareIds } from '../../src/ids/id.js';
import type { StoredRecordOf } from '../../src/schema/types.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { expectConverged } from './convergence.js';

const DAY = 86_400_000;

let sim: Simulator | undefined;
const mirrors: Mirror[] = [];
afterEach(async () => {
  for (const m of mirrors.splice(0)) await m.close();
  await sim?.close();
  sim = undefined;
});

/** A mirror of a tenant whose history ends now, on a clock the test moves (`clock.offset`), whose POSTs fail while `clock.postsFail`. */
async function setup(options: Partial<MirrorOptions> = {}) {
  sim = await createSimulator({ port: 0, size: 'small', seed: 7, logSize: 20_000, clock: { start: Date.now() } });
  const server = sim;
  const clock = { offset: 0, postsFail: false };
  const mirror = createMirror({
    baseUrl: server.baseUrl,
    token: server.token,
    userAgent: 'pos-cloud-mirror tests (history window)',
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    dbName: 'history-window',
    categories: false,
    reconcileIntervalMs: 0,
    pollIntervalMs: 60_000,
    pageLimit: 100,
    retry: 0,
    environment: { now: () => Date.now() + clock.offset },
    fetch: async (input, init) => {
      if (clock.postsFail && (init?.method ?? (input instanceof Request ? input.method : 'GET')) === 'POST') throw new TypeError('fetch failed');
      return fetch(input, init);
    },
    ...options,
  });
  mirrors.push(mirror);
  return { server, mirror, clock };
}

const createdAt = (record: object) => decodeId(String((record as { id: unknown }).id)).createdAt;

describe('the history window', { timeout: 90_000 }, () => {
  it.each([
    [{ orders: 0 }, 'historyWindow.orders', /positive number of days/],
    [{ order_details: 3 }, 'historyWindow.order_details', /order_details follow their orders/],
    [{ products: 3 }, 'historyWindow.products', /not a collection a window bounds; known: orders, transactions, shifts, stockup, stock_history/],
  ])('refuses %j with a ValidationError naming the key', (historyWindow, path, message) => {
    let error: unknown;
    try {
      createMirror({ baseUrl: 'http://127.0.0.1:9/api', token: 't0ken', userAgent: 'tests (dev@example.com)', indexedDB: new IDBFactory(), IDBKeyRange, historyWindow } as MirrorOptions);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path.join('.'))).toContain(path);
    expect((error as ValidationError).message).toMatch(message);
  });

  it('has a first sync stop at the edge: the orders and items of the window, every stock move of its last week, everything else whole', async () => {
    const { server, mirror } = await setup({ historyWindow: { orders: 30, stock_history: 7 } });
    const started = Date.now();
    await mirror.syncNow();
    const ordersEdge = mirror.status.value.historyEdge.orders!;
    expect(ordersEdge).toBeGreaterThanOrEqual(started - 30 * DAY);
    expect(ordersEdge).toBeLessThanOrEqual(Date.now() - 30 * DAY);
    const inWindow = server.store.list('orders').filter((o) => createdAt(o) >= ordersEdge + 1000);
    const held = new Set((await mirror.db.orders.toCollection().primaryKeys()).map(String));
    expect(inWindow.length).toBeGreaterThan(0);
    expect(inWindow.filter((o) => !held.has(String(o.id)))).toEqual([]);
    expect([...held].every((id) => createdAt({ id }) >= ordersEdge)).toBe(true);
    expect(held.size).toBeLessThan(server.store.count('orders'));
    const items = await mirror.db.order_details.toArray();
    expect(items.every((d) => createdAt(d) >= ordersEdge)).toBe(true);
    expect(mirror.status.value.historyEdge.stock_history).toBeLessThanOrEqual(Date.now() - 7 * DAY);
    expect(mirror.status.value.historyEdge.transactions).toBeUndefined();
    expect(await mirror.db.transactions.count()).toBe(server.store.count('transactions'));
    expect(mirror.status.value.groups).toMatchObject({ recent: { initialDone: true }, history: { initialDone: true } });
    await expectConverged(mirror.db, server, ['products', 'customers', 'transactions', 'shifts', 'stockup']);
  });

  it('prunes what falls out of the window, orders with their items, but keeps and still pushes a record with an edit not yet acknowledged', async () => {
    const { server, mirror, clock } = await setup({ historyWindow: { orders: 30 } });
    await mirror.syncNow();
    const orders = (await mirror.db.orders.toArray()).sort((a, b) => compareIds(a.id, b.id));
    const oldest = orders[0]!;
    // Ten days on, the orders of the window's first ten days fall out of it.
    clock.offset = 10 * DAY;
    const edge = Date.now() + clock.offset - 30 * DAY;
    const leaving = orders.filter((o) => createdAt(o) < edge);
    expect(leaving.length).toBeGreaterThan(1);
    await mirror.save('orders', { id: oldest.id, note: 'edited at the edge' });
    clock.postsFail = true;
    await mirror.syncNow().catch(() => undefined);

    const held = await mirror.db.orders.toArray();
    expect(held.filter((o) => createdAt(o) < edge).map((o) => o.id)).toEqual([oldest.id]);
    expect((await mirror.db.orders.get(oldest.id))?.note).toBe('edited at the edge');
    const leftIds = new Set(leaving.map((o) => String(o.id)).filter((id) => id !== oldest.id));
    expect((await mirror.db.order_details.toArray()).filter((d) => leftIds.has(String(d.id_order)))).toEqual([]);
    expect(mirror.status.value.historyEdge.orders).toBeGreaterThanOrEqual(edge - 60_000);

    clock.postsFail = false;
    await mirror.syncNow();
    expect(server.store.get('orders', oldest.id)?.note).toBe('edited at the edge');
    expect(mirror.status.value.pendingPushes).toBe(0);
    // Acknowledged, it goes with the next pruning.
    clock.offset += 2 * 3_600_000;
    await mirror.syncNow();
    expect(await mirror.db.orders.get(oldest.id)).toBeUndefined();
  });

  it('keeps an order in conflict with its items, and an order one of whose items is in conflict, until the resolution has gone out', async () => {
    const { server, mirror, clock } = await setup({ historyWindow: { orders: 30 } });
    await mirror.syncNow();
    const items = await mirror.db.order_details.toArray();
    const itemsOf = (idOrder: string) => items.filter((d) => String(d.id_order) === idOrder).map((d) => String(d.id)).sort();
    // Ten days on, the orders of the window's first ten days fall out of it.
    const offset = 10 * DAY;
    const edge = Date.now() + offset - 30 * DAY;
    const leaving = (await mirror.db.orders.toArray()).sort((a, b) => compareIds(a.id, b.id)).filter((o) => createdAt(o) < edge).map((o) => String(o.id));
    // Two of them with several items each: one gets a conflict on the order, the other on one of its items.
    const [order, parent] = leaving.filter((id) => itemsOf(id).length > 1);
    expect(parent).toBeDefined();
    const item = itemsOf(parent!)[0]!;
    const others = leaving.filter((id) => id !== order && id !== parent);
    expect(others.length).toBeGreaterThan(0);

    // The back office changes a field the register then changes too, on what it had.
    server.store.write('orders', { id: order!, note: 'from the back office' });
    server.store.write('order_details', { id: item, note: 'from the back office' });
    await mirror.save('orders', { id: order!, note: 'from the register' });
    await mirror.save('order_details', { id: item, note: 'from the register' });
    await mirror.syncNow();
    const keys = [`orders:${order!}`, `order_details:${item}`];
    expect((await mirror.conflicts()).map((c) => c.key).sort()).toEqual([...keys].sort());
    expect(mirror.status.value.conflicts).toBe(2);

    clock.offset = offset;
    await mirror.syncNow();
    const held = await mirror.db.orders.toArray();
    expect(held.filter((o) => createdAt(o) < edge).map((o) => String(o.id)).sort()).toEqual([order!, parent!].sort());
    expect((await mirror.db.orders.get(order!))?.note).toBe('from the register');
    const heldItems = await mirror.db.order_details.toArray();
    const heldOf = (idOrder: string) => heldItems.filter((d) => String(d.id_order) === idOrder).map((d) => String(d.id)).sort();
    expect(heldOf(order!)).toEqual(itemsOf(order!));
    expect(heldOf(parent!)).toEqual(itemsOf(parent!));
    expect((await mirror.db.order_details.get(item))?.note).toBe('from the register');
    expect(others.flatMap(heldOf)).toEqual([]);
    expect(mirror.status.value.historyEdge.orders).toBeGreaterThanOrEqual(edge - 60_000);
    expect(mirror.status.value.conflicts).toBe(2);

    for (const key of keys) await mirror.resolveConflict(key, 'local');
    await mirror.syncNow();
    expect(server.store.get('orders', order!)?.note).toBe('from the register');
    expect(server.store.get('order_details', item)?.note).toBe('from the register');
    expect([server.requests.timesPosted('orders', order!), server.requests.timesPosted('order_details', item)]).toEqual([1, 1]);
    expect(mirror.status.value).toMatchObject({ conflicts: 0, pendingPushes: 0 });
    // Resolved and acknowledged, both orders go with their items at the next pruning.
    clock.offset += 2 * 3_600_000;
    await mirror.syncNow();
    expect(await mirror.db.orders.bulkGet([order!, parent!])).toEqual([undefined, undefined]);
    expect((await mirror.db.order_details.toArray()).filter((d) => [order, parent].includes(String(d.id_order)))).toEqual([]);
  });

  it('answers a register\'s orders of a range inside the window, and refuses one reaching before its edge with the edge, the same inside a live query', async () => {
    const { mirror, clock } = await setup({ historyWindow: { orders: 30 } });
    await mirror.syncNow();
    const edge = mirror.status.value.historyEdge.orders!;
    const byRegister = new Map<string, StoredRecordOf<'orders'>[]>();
    for (const order of await mirror.db.orders.toArray()) byRegister.set(String(order.id_cash_register), [...(byRegister.get(String(order.id_cash_register)) ?? []), order]);
    const [register, all] = [...byRegister].sort((a, b) => b[1].length - a[1].length)[0]!;
    const since = Date.now() - 10 * DAY;
    const until = Date.now() - DAY;
    const expected = all.filter((o) => Number(o.date_created) >= since && Number(o.date_created) <= until && !o._d).sort((a, b) => Number(b.date_created) - Number(a.date_created));
    expect(expected.length).toBeGreaterThan(0);
    const got = await mirror.query.ordersOfRegister(register, { since, until, limit: 10_000 });
    expect(got.map((o) => o.id)).toEqual(expected.map((o) => o.id));

    const error = await mirror.query.ordersOfRegister(register, { since: edge - DAY }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutsideHistoryWindowError);
    expect(error).toMatchObject({ code: 'outside-history-window', collection: 'orders', edge, since: edge - DAY });
    expect((error as Error).message).toMatch(/outside this mirror's history window \(historyWindow\.orders\).*order history report/);
    expect(await mirror.query.ordersOfRegister(register, { since: edge, limit: 10_000 })).toHaveLength(all.filter((o) => !o._d).length);

    // A live query follows the edge as pruning moves it: what was inside falls outside.
    const seen: unknown[] = [];
    const subscription = mirror.live(() => mirror.query.ordersOfRegister(register, { since: edge, limit: 1 })).subscribe({ next: (v) => seen.push(v), error: (e: unknown) => seen.push(e) });
    try {
      await expect.poll(() => seen.length).toBeGreaterThan(0);
      expect(seen[0]).toHaveLength(1);
      clock.offset = 2 * DAY;
      await mirror.syncNow();
      await expect.poll(() => seen.at(-1)).toBeInstanceOf(OutsideHistoryWindowError);
    } finally {
      subscription.unsubscribe();
    }
  });

  it.each([
    ['a since of NaN', { since: Number.NaN }, 'since: must be a time in ms, got number NaN'],
    ['an until given as text', { until: '2026-01-01' }, 'until: must be a time in ms'],
    ['a since after its until', { since: 2, until: 1 }, 'since: is after until (2 > 1)'],
  ])('refuses %s with a ValidationError naming the bound', async (_name, range, message) => {
    const { mirror } = await setup();
    const error = await mirror.query.ordersOfRegister('1', range as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toContain(message);
  });
});
