import { afterEach, describe, expect, it } from 'vitest';
import type { StoredRecord } from '../../../src/db/sync-rows.js';
import { NetworkError } from '../../../src/errors/index.js';
import { listConflicts } from '../../../src/sync/conflicts/conflict-resolution.js';
import { saveLocal } from '../../../src/sync/outbox/local-edit.js';
import { listOutbox } from '../../../src/sync/outbox/outbox-list.js';
import { retryRejected } from '../../../src/sync/outbox/outbox-retry.js';
import { recordingFetch, startPushFixture, type PushFixture } from './push-fixture.js';

let fx: PushFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const NOW = Date.UTC(2026, 0, 2);

/** What an order, its items and its stock rows refer to, from the simulator's tenant. */
function references(f: PushFixture) {
  const s = f.sim.store;
  const employee = s.list('employees')[0]!;
  const product = s.list('products')[0]!;
  const common = { id_shop: s.list('shops')[0]!.id, id_cash_register: s.list('cash_registers')[0]!.id, id_employee: employee.id };
  return { common, shift: s.list('shifts')[0]!.id, employee: employee.id, product, warehouse: s.list('warehouses')[0]!.id, park: s.list('park_locations')[0]!.id };
}

/** An order with two items and a stock row, created on this device (ids minted here), nothing pushed yet. */
async function orderWithChildren(f: PushFixture) {
  const r = references(f);
  const order = await saveLocal(f.db, 'orders', { ...r.common, id_shift: r.shift, id_employee_served: r.employee, id_park_location: r.park, currency: 'CZK', note: 'our sale' }, { now: NOW });
  const item = { ...r.common, id_shift: r.shift, id_order: order, id_product: r.product.id, id_category: r.product.id_category, id_warehouse: r.warehouse, currency: 'CZK' };
  const items = [await saveLocal(f.db, 'order_details', { ...item, note: 'our item 1' }, { now: NOW }), await saveLocal(f.db, 'order_details', { ...item, note: 'our item 2' }, { now: NOW })];
  const stock = await saveLocal(
    f.db,
    'stock_history',
    { ...r.common, id_order: order, id_warehouse: r.warehouse, id_record: r.product.id, stock_type: 1, stock_history_type: 1, quanity: -2, note: 'our stock row' },
    { now: NOW },
  );
  return { order, items, stock, r };
}

/** Another device's order, written on the server under `id`: it drew the same id and pushed first. */
function theirOrder(f: PushFixture, id: string, r: ReturnType<typeof references>): StoredRecord {
  return f.sim.store.write('orders', { ...r.common, id, id_shift: r.shift, id_employee_served: r.employee, id_park_location: r.park, currency: 'CZK', note: 'their sale' }) as StoredRecord;
}

describe('a local create that meets another record under its id', () => {
  it('is moved to a fresh id with every pending edit that refers to it, before anything is sent: the server ends with both records', async () => {
    const { fetch, posts } = recordingFetch();
    const f = (fx = await startPushFixture({ fetch }));
    await f.pull('orders', 'order_details', 'stock_history');
    const { order, items, stock, r } = await orderWithChildren(f);
    const theirs = theirOrder(f, order, r);
    await f.pull('orders');

    const report = await f.pusher.push();
    expect(report.moved).toHaveLength(1);
    const [moved] = report.moved;
    expect(moved).toMatchObject({ collection: 'orders', from: order });
    const fresh = moved!.to;
    expect(fresh).not.toBe(order);
    expect(report).toMatchObject({ conflicts: 0, rejected: 0, pushed: 4 });
    expect(report.byCollection.orders).toMatchObject({ moved: 1, pushed: 1 });

    // The other device's order is untouched; ours is under the new id, and so is every child.
    const s = f.sim.store;
    expect(s.get('orders', order)).toMatchObject({ note: 'their sale', _v: theirs._v });
    expect(s.get('orders', fresh)).toMatchObject({ note: 'our sale' });
    for (const id of items) expect(s.get('order_details', id)).toMatchObject({ id_order: fresh });
    expect(s.get('stock_history', stock)).toMatchObject({ id_order: fresh, note: 'our stock row' });
    // Nothing went out under the old id.
    expect(posts.some((p) => p.body.includes(order))).toBe(false);

    // The mirror holds both records, the children under the new parent, and nothing is left to do.
    expect(await f.db.orders.get(order)).toMatchObject({ note: 'their sale' });
    expect(await f.db.orders.get(fresh)).toMatchObject({ note: 'our sale' });
    for (const id of items) expect(await f.db.order_details.get(id)).toMatchObject({ id_order: fresh });
    expect(await f.db.stock_history.get(stock)).toMatchObject({ id_order: fresh });
    expect(await listOutbox(f.db)).toEqual([]);
    expect(await listConflicts(f.db)).toEqual([]);
  });

  it("moves a stock-up with its stock rows, and points an existing record's pending edit at the new id", async () => {
    const f = (fx = await startPushFixture());
    await f.pull('stockup', 'stock_history', 'customers', 'orders');
    const r = references(f);
    const common = { ...r.common, id_warehouse: r.warehouse };
    const stockup = await saveLocal(f.db, 'stockup', { ...common, stock_history_type: 2, note: 'our delivery' }, { now: NOW });
    const row = await saveLocal(f.db, 'stock_history', { ...common, id_stockup: stockup, id_record: r.product.id, stock_type: 1, stock_history_type: 2, quanity: 12 }, { now: NOW });
    // A customer created here, and an existing order of the server pointed at it.
    const customer = await saveLocal(f.db, 'customers', { company: null, firstname: 'Ours' }, { now: NOW });
    const existing = (await f.db.orders.toCollection().first())!;
    await saveLocal(f.db, 'orders', { id: existing.id, id_customer: customer }, { now: NOW });

    f.sim.store.write('stockup', { ...common, id: stockup, stock_history_type: 2, note: 'their delivery' });
    f.sim.store.write('customers', { id: customer, company: 'Theirs Ltd', firstname: 'Theirs' });
    await f.pull('stockup', 'customers');

    const report = await f.pusher.push();
    const to = Object.fromEntries(report.moved.map((m) => [m.collection, m.to]));
    expect(report.moved.map((m) => [m.collection, m.from])).toEqual([
      ['customers', customer],
      ['stockup', stockup],
    ]);
    const s = f.sim.store;
    expect(s.get('stockup', stockup)).toMatchObject({ note: 'their delivery' });
    expect(s.get('stockup', to.stockup!)).toMatchObject({ note: 'our delivery' });
    expect(s.get('stock_history', row)).toMatchObject({ id_stockup: to.stockup });
    expect(s.get('customers', customer)).toMatchObject({ firstname: 'Theirs' });
    expect(s.get('customers', to.customers!)).toMatchObject({ firstname: 'Ours' });
    expect(s.get('orders', existing.id)).toMatchObject({ id_customer: to.customers });
    expect(await listOutbox(f.db)).toEqual([]);
  });

  it('is one transaction: nothing is half-moved when it fails', async () => {
    const f = (fx = await startPushFixture());
    await f.pull('orders', 'order_details', 'stock_history');
    const { order, items, r } = await orderWithChildren(f);
    theirOrder(f, order, r);
    await f.pull('orders');
    const before = { outbox: await f.db._sync_outbox.toArray(), orders: await f.db.orders.toArray(), items: await f.db.order_details.bulkGet(items) };
    // The child table refuses writes: the move fails part-way through.
    f.db.order_details.hook('updating', () => {
      throw new Error('disk full');
    });
    f.db.order_details.hook('creating', () => {
      throw new Error('disk full');
    });
    await expect(f.pusher.push()).rejects.toThrow(/disk full/);
    expect(await f.db._sync_outbox.toArray()).toEqual(before.outbox);
    expect(await f.db.orders.toArray()).toEqual(before.orders);
    expect(await f.db.order_details.bulkGet(items)).toEqual(before.items);
    expect(f.sim.store.get('orders', order)).toMatchObject({ note: 'their sale' });
  });

  it('a create that went out and whose answer was lost is not moved: the server holds it, and it is acknowledged', async () => {
    const f = (fx = await startPushFixture());
    await f.pull('customers');
    const id = await saveLocal(f.db, 'customers', { company: null, firstname: 'Eva' }, { now: NOW });
    f.sim.setFaults({ dropRate: 1 });
    await expect(f.pusher.push()).rejects.toThrow(NetworkError);
    f.sim.setFaults({});
    const count = f.sim.store.count('customers');
    await f.pull('customers');
    const report = await f.pusher.push();
    expect(report).toMatchObject({ moved: [], acknowledged: 1, pushed: 0 });
    expect(f.sim.store.count('customers')).toBe(count);
    expect(f.sim.store.get('customers', id)).toMatchObject({ firstname: 'Eva' });
    expect(await listOutbox(f.db)).toEqual([]);
  });

  it('a create marked as sent whose process died before the POST went out is not moved: it may have landed, so it stays a conflict', async () => {
    let crash: (() => Promise<void>) | undefined;
    const { fetch } = recordingFetch(async () => {
      // The write-ahead row is stored; the process dies before the request leaves.
      await crash?.();
      throw new Error('the process died');
    });
    const f = (fx = await startPushFixture({ fetch }));
    crash = async () => {
      crash = undefined;
      await f.reopen();
    };
    await f.pull('customers');
    const id = await saveLocal(f.db, 'customers', { company: null, firstname: 'Eva' }, { now: NOW });
    await expect(f.pusher.push()).rejects.toThrow();
    f.sim.store.write('customers', { id, company: 'Theirs Ltd', firstname: 'Theirs' });
    const count = f.sim.store.count('customers');
    await f.pull('customers');
    // The reopened database folded the write-ahead row into the entry: the POST may have gone out.
    expect((await listOutbox(f.db))[0]?.sent).toBeDefined();
    const report = await f.makePusher().push();
    expect(report).toMatchObject({ moved: [], conflicts: 1, pushed: 0 });
    expect((await listConflicts(f.db))[0]).toMatchObject({ id, base: null });
    expect(f.sim.store.count('customers')).toBe(count);
    expect(f.sim.store.get('customers', id)).toMatchObject({ firstname: 'Theirs' });
  });

  it('a create whose first POST went unanswered and whose next was refused keeps the evidence of the first: it is not moved', async () => {
    let refuse = false;
    // The service refuses one POST as bad data (400 naming the record): it applies none of it.
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (refuse && request.method === 'POST') {
        const body = { error: 'validation', records: [{ index: 0, message: 'refused once' }] };
        return new Response(JSON.stringify(body), { status: 400, headers: { 'Content-Type': 'application/json' } });
      }
      return globalThis.fetch(request);
    };
    const f = (fx = await startPushFixture({ fetch }));
    await f.pull('customers');
    const id = await saveLocal(f.db, 'customers', { company: null, firstname: 'Eva' }, { now: NOW });
    f.sim.setFaults({ dropRate: 1 });
    await expect(f.pusher.push()).rejects.toThrow(NetworkError);
    f.sim.setFaults({});
    // Edited since (a field the server holds with the first POST's value); the next POST is refused, then the app retries it.
    await saveLocal(f.db, 'customers', { id, firstname: 'Eve' }, { now: NOW + 1 });
    refuse = true;
    await f.pusher.push();
    refuse = false;
    expect((await listOutbox(f.db))[0]).toMatchObject({ state: 'rejected' });
    await retryRejected(f.db);
    const count = f.sim.store.count('customers');
    await f.pull('customers');

    // The first POST landed: the server's record is this device's, and the edit goes out onto it.
    const report = await f.pusher.push();
    expect(report).toMatchObject({ moved: [], conflicts: 0, pushed: 1 });
    expect(f.sim.store.count('customers')).toBe(count);
    expect(f.sim.store.get('customers', id)).toMatchObject({ firstname: 'Eve' });
  });

  it('a create with an id the app chose is not moved (the app may mean that record): a conflict row, as before', async () => {
    const f = (fx = await startPushFixture());
    await f.pull('customers');
    const other = f.sim.store.write('customers', { id: '0', company: 'Other device Ltd', firstname: 'Bob' });
    await saveLocal(f.db, 'customers', { id: other.id as string, company: 'Mine', firstname: 'Alice' }, { now: NOW });
    await f.pull('customers');
    expect(await f.pusher.push()).toMatchObject({ moved: [], conflicts: 1 });
  });
});
