import { afterEach, describe, expect, it } from 'vitest';
import { AuthError, HttpError, NetworkError, ValidationError } from '../../../src/errors/index.js';
import { readSent } from '../../../src/sync/outbox/outbox-sent.js';
import { createClient } from '../../../src/client/index.js';
import type { StoredRecord } from '../../../src/db/sync-rows.js';
import { listConflicts } from '../../../src/sync/conflicts/conflict-resolution.js';
import type { ConflictStrategy } from '../../../src/sync/conflicts/conflict-strategy.js';
import { removeLocal, saveLocal } from '../../../src/sync/outbox/local-edit.js';
import { createPusher } from '../../../src/sync/push/push.js';
import { recordingFetch, startPushFixture, type PushFixture } from './push-fixture.js';
import { IDBKeyRange } from 'fake-indexeddb';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import { createPuller } from '../../../src/sync/pull/pull.js';
import type { SyncClient } from '../../../src/sync/sync-client.js';

let fx: PushFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const NOW = Date.UTC(2026, 0, 2);

async function createCustomers(f: PushFixture, n: number, extra: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await saveLocal(f.db, 'customers', { company: null, firstname: `New ${i}`, ...extra }, { now: NOW + i }));
  return ids;
}

/** Ids the server created, over every logged POST (a record created twice would appear twice). */
function createdIds(f: PushFixture): string[] {
  return f.sim.requests.recent().flatMap((r) => r.written?.created ?? []);
}


/**
 * A fetch that calls `crash` once, right after the server has answered the first POST made after
 * `arm()`: the tab dies with the POST applied and its answer never handled.
 */
function fetchThatCrashesAfterPost(crash: () => void): { fetch: typeof fetch; arm: () => void } {
  let armed = false;
  return {
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const request = input instanceof Request ? input : new Request(input, init);
      if (armed && request.method === 'POST') {
        armed = false;
        crash();
      }
      return response;
    },
    arm: () => {
      armed = true;
    },
  };
}

describe('createPusher', () => {
  it('pushes new records and edits; the server holds what the app saved and the outbox empties', async () => {
    const rec = recordingFetch();
    fx = await startPushFixture({ fetch: rec.fetch });
    await fx.pull('customers');
    const existing = (await fx.db.customers.toCollection().first()) as StoredRecord;
    const ids = await createCustomers(fx, 3);
    await saveLocal(fx.db, 'customers', { id: existing.id, firstname: 'Edited' }, { now: NOW });

    const report = await fx.pusher.push();

    expect(report).toMatchObject({ pushed: 4, rejected: 0, conflicts: 0, requests: 1, batches: 1 });
    expect(report.byCollection.customers).toMatchObject({ pushed: 4, requests: 1 });
    expect(Object.keys(report.byCollection)).toEqual(['customers']);
    expect(await fx.db._sync_outbox.count()).toBe(0);
    for (const [i, id] of ids.entries()) expect(fx.sim.store.get('customers', id)).toMatchObject({ firstname: `New ${i}`, country_code: 'CZ' });
    const edited = fx.sim.store.get('customers', existing.id);
    expect(edited).toMatchObject({ firstname: 'Edited', lastname: existing.lastname, email: existing.email });
    expect(fx.sim.requests.count('POST /customers')).toBe(1);

    // What went out: ids as bare integers, no _v, pgx or _u_dyn.
    const body = rec.posts[0]?.body ?? '';
    expect(body).toMatch(new RegExp(`"id":${existing.id}[,}]`));
    expect(body).not.toMatch(/"_v"|"pgx"|"_u_dyn"|"__/);
  });

  it('does nothing when the outbox is empty', async () => {
    fx = await startPushFixture();
    expect(await fx.pusher.push()).toEqual({ pushed: 0, rejected: 0, conflicts: 0, acknowledged: 0, requests: 0, batches: 0, awaitingParent: 0, byCollection: {}, moved: [] });
    expect(fx.sim.requests.count()).toBe(0);
  });

  it('cuts a collection into batches by count: one POST per batch, in edit order', async () => {
    fx = await startPushFixture({ batch: { maxRecords: 100 } });
    const ids = await createCustomers(fx, 250);
    const report = await fx.pusher.push();
    expect(report).toMatchObject({ pushed: 250, batches: 3, requests: 3 });
    expect(fx.sim.requests.count('POST /customers')).toBe(3);
    const written = fx.sim.requests.recent().filter((r) => r.written).map((r) => r.written!.ids);
    expect(written.map((w) => w.length)).toEqual([100, 100, 50]);
    expect(written.flat()).toEqual(ids);
  });

  it('cuts batches by bytes: no body over the limit', async () => {
    const rec = recordingFetch();
    fx = await startPushFixture({ batch: { maxRecords: 1000, maxBytes: 4_000 }, fetch: rec.fetch });
    await createCustomers(fx, 60, { note_internal: 'x'.repeat(200) });
    const report = await fx.pusher.push();
    expect(report.pushed).toBe(60);
    expect(report.batches).toBeGreaterThan(3);
    expect(report.requests).toBe(report.batches);
    expect(fx.sim.requests.count('POST /customers')).toBe(report.batches);
    for (const post of rec.posts) expect(new TextEncoder().encode(post.body).length).toBeLessThanOrEqual(4_000);
  });

  it('pushes parents before children, whatever order the edits were made in', async () => {
    fx = await startPushFixture();
    const s = fx.sim.store;
    const shop = s.list('shops')[0]!;
    const register = s.list('cash_registers')[0]!;
    const employee = s.list('employees')[0]!;
    const shift = s.list('shifts')[0]!;
    const park = s.list('park_locations')[0]!;
    const warehouse = s.list('warehouses')[0]!;
    const category = s.list('products')[0]!.id_category;
    const refs = { id_shop: shop.id, id_cash_register: register.id, id_shift: shift.id, id_employee: employee.id };
    // Child first, then its parents.
    const orderId = await saveLocal(fx.db, 'orders', { ...refs, id_employee_served: employee.id, id_park_location: park.id, currency: 'CZK' }, { now: NOW });
    const productId = await saveLocal(fx.db, 'products', { name: 'Kombucha', date_updated: NOW }, { now: NOW });
    await saveLocal(fx.db, 'order_details', { ...refs, id_order: orderId, id_product: productId, id_category: category, id_warehouse: warehouse.id, currency: 'CZK' }, { now: NOW });
    const customerId = await saveLocal(fx.db, 'customers', { company: 'ACME' }, { now: NOW });
    await saveLocal(fx.db, 'orders', { id: orderId, id_customer: customerId }, { now: NOW });

    const report = await fx.pusher.push();
    expect(report.pushed).toBe(4);
    const order = fx.sim.requests.recent().filter((r) => r.method === 'POST').map((r) => r.route);
    expect(order).toEqual(['POST /customers', 'POST /products', 'POST /orders', 'POST /order_details']);
    expect(s.get('orders', orderId)).toMatchObject({ id_customer: customerId });
  });

  describe('a new child whose new parent the server does not have', () => {
    /** A new order and a new item of it (the order references only records the server has). */
    async function orderWithItem(f: PushFixture): Promise<{ orderId: string; itemId: string }> {
      const s = f.sim.store;
      const employee = s.list('employees')[0]!;
      const product = s.list('products')[0]!;
      const refs = { id_shop: s.list('shops')[0]!.id, id_cash_register: s.list('cash_registers')[0]!.id, id_shift: s.list('shifts')[0]!.id, id_employee: employee.id };
      const orderId = await saveLocal(f.db, 'orders', { ...refs, id_employee_served: employee.id, id_park_location: s.list('park_locations')[0]!.id, currency: 'CZK' }, { now: NOW });
      const itemId = await saveLocal(
        f.db,
        'order_details',
        { ...refs, id_order: orderId, id_product: product.id, id_category: product.id_category, id_warehouse: s.list('warehouses')[0]!.id, currency: 'CZK' },
        { now: NOW },
      );
      return { orderId, itemId };
    }

    it('is held back, pending, while the server refuses the parent; both go out once the parent is fixed', async () => {
      fx = await startPushFixture();
      const { orderId, itemId } = await orderWithItem(fx);
      // A value the server refuses (as a stale schema would let through).
      await fx.db.orders.update(orderId, { dine_in: 'yes' });

      const report = await fx.pusher.push();
      expect(report.byCollection.orders).toMatchObject({ rejected: 1, pushed: 0 });
      expect(report.byCollection.order_details).toEqual({ pushed: 0, rejected: 0, conflicts: 0, acknowledged: 0, requests: 0, batches: 0, awaitingParent: 1, moved: 0 });
      expect(report).toMatchObject({ pushed: 0, awaitingParent: 1 });
      expect(fx.sim.store.get('orders', orderId)).toBeUndefined();
      expect(fx.sim.store.get('order_details', itemId), 'an item of an order the server does not have').toBeUndefined();
      expect(fx.sim.requests.count('POST /order_details')).toBe(0);
      const item = (await fx.db._sync_outbox.toArray()).find((e) => e.id === itemId);
      expect(item).toMatchObject({ op: 'create', state: 'pending', attempts: 0 });
      expect(readSent(item!)).toBeUndefined();

      // Held again on the next push: the order is still refused.
      expect(await fx.pusher.push()).toMatchObject({ pushed: 0, awaitingParent: 1, requests: 0 });

      await saveLocal(fx.db, 'orders', { id: orderId, dine_in: false }, { now: NOW + 1 });
      expect(await fx.pusher.push()).toMatchObject({ pushed: 2, awaitingParent: 0 });
      expect(fx.sim.requests.recent().filter((r) => r.method === 'POST').map((r) => r.route).slice(-2)).toEqual(['POST /orders', 'POST /order_details']);
      expect(fx.sim.store.get('order_details', itemId)).toMatchObject({ id_order: orderId });
      expect(await fx.db._sync_outbox.count()).toBe(0);
    });

    it('is held back while its parent is not pushed (a push of the child collection only)', async () => {
      fx = await startPushFixture();
      const { orderId, itemId } = await orderWithItem(fx);
      expect(await fx.pusher.push({ collections: ['order_details'] })).toMatchObject({ pushed: 0, awaitingParent: 1, requests: 0 });
      expect(fx.sim.store.get('order_details', itemId)).toBeUndefined();
      expect(await fx.pusher.push()).toMatchObject({ pushed: 2, awaitingParent: 0 });
      expect(fx.sim.store.get('orders', orderId)).toBeDefined();
      expect(fx.sim.store.get('order_details', itemId)).toBeDefined();
    });

    it('is held back while its parent waits as a conflict (a create whose id another device used)', async () => {
      fx = await startPushFixture();
      await fx.pull('customers');
      const other = fx.sim.store.write('customers', { id: '0', company: 'Other device Ltd', firstname: 'Bob' });
      await saveLocal(fx.db, 'customers', { id: other.id as string, company: 'This device s.r.o.', firstname: 'Alice' }, { now: NOW });
      const { orderId } = await orderWithItem(fx);
      await saveLocal(fx.db, 'orders', { id: orderId, id_customer: other.id }, { now: NOW + 1 });
      await fx.pull('customers');

      const report = await fx.pusher.push();
      expect(report.byCollection.customers).toMatchObject({ conflicts: 1 });
      expect(report.byCollection.orders).toMatchObject({ pushed: 0, awaitingParent: 1 });
      // The item's order is held back in turn: its create is still in the outbox.
      expect(report.byCollection.order_details).toMatchObject({ pushed: 0, awaitingParent: 1 });
      expect(fx.sim.store.get('orders', orderId)).toBeUndefined();
    });

    it('goes out in the same push when its parent was acknowledged first', async () => {
      fx = await startPushFixture();
      const { itemId } = await orderWithItem(fx);
      expect(await fx.pusher.push()).toMatchObject({ pushed: 2, awaitingParent: 0 });
      expect(fx.sim.store.get('order_details', itemId)).toBeDefined();
    });
  });

  it('rejects exactly the records the server names and pushes the rest; an edit puts a rejected one back', async () => {
    fx = await startPushFixture();
    const ids = await createCustomers(fx, 5);
    // A record that passed local validation once but that the server refuses (a stale schema, say).
    await fx.db.customers.update(ids[2]!, { email: 'not-an-e-mail' });

    const report = await fx.pusher.push();
    expect(report).toMatchObject({ pushed: 4, rejected: 1, requests: 2, batches: 1 });
    const entries = await fx.db._sync_outbox.toArray();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ id: ids[2], state: 'rejected', attempts: 1 });
    expect(entries[0]?.reason).toMatch(/email/);
    expect(fx.sim.store.get('customers', ids[2]!)).toBeUndefined();
    expect(fx.sim.store.get('customers', ids[4]!)).toBeDefined();

    // A rejected entry does not block later pushes...
    const more = await createCustomers(fx, 1);
    expect(await fx.pusher.push()).toMatchObject({ pushed: 1, rejected: 0 });
    expect(fx.sim.store.get('customers', more[0]!)).toBeDefined();
    // ...and the app's fix sends it again.
    await saveLocal(fx.db, 'customers', { id: ids[2], email: 'fixed@example.com' }, { now: NOW });
    expect(await fx.pusher.push()).toMatchObject({ pushed: 1 });
    expect(fx.sim.store.get('customers', ids[2]!)).toMatchObject({ email: 'fixed@example.com' });
    expect(await fx.db._sync_outbox.count()).toBe(0);
  });

  it('bisects a refused batch whose answer names no record, until the bad one stands alone', async () => {
    // A server that says only "400": the answer's body names no record.
    const vague: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (response.status !== 400) return response;
      return new Response('{"error":"bad request"}', { status: 400, headers: { 'content-type': 'application/json' } });
    };
    fx = await startPushFixture({ fetch: vague });
    const ids = await createCustomers(fx, 8);
    await fx.db.customers.update(ids[5]!, { country_code: 'CZE' });

    const report = await fx.pusher.push();
    // 8 -> [4 ok] [4 bad] -> [2 ok] [2 bad] -> [1 bad] [1 ok]
    expect(report).toMatchObject({ pushed: 7, rejected: 1, requests: 7, batches: 1 });
    expect((await fx.db._sync_outbox.toArray()).map((e) => [e.id, e.state, e.reason])).toEqual([[ids[5], 'rejected', 'bad request']]);
    expect(createdIds(fx).sort()).toEqual(ids.filter((_, i) => i !== 5).sort());
  });

  it('takes a success status as the acknowledgement even when the body of the answer arrives cut off', async () => {
    fx = await startPushFixture();
    await fx.pull('customers');
    const before = fx.sim.store.count('customers');
    const ids = await createCustomers(fx, 5);
    fx.sim.setFaults({ truncateRate: 1 });

    // The pusher never reads the answer's body: the status says the server applied the batch.
    const report = await fx.pusher.push();
    expect(report).toMatchObject({ pushed: 5, requests: 1 });
    expect(await fx.db._sync_outbox.count()).toBe(0);
    expect(fx.sim.store.count('customers')).toBe(before + 5);
    for (const id of ids) expect(fx.sim.requests.timesPosted('customers', id)).toBe(1);
    expect(createdIds(fx).sort()).toEqual([...ids].sort());
  });

  it('after lost answers (dropped after the server applied the POST), a pull shows they landed: acknowledged, nothing sent again', async () => {
    fx = await startPushFixture();
    await fx.pull('customers');
    const before = fx.sim.store.count('customers');
    const ids = await createCustomers(fx, 5);
    fx.sim.setFaults({ dropRate: 1 });

    await expect(fx.pusher.push()).rejects.toThrow(NetworkError);
    // The server applied the POST; locally nothing is settled, and the entries know what was sent.
    expect(fx.sim.store.count('customers')).toBe(before + 5);
    const entries = await fx.db._sync_outbox.toArray();
    expect(entries).toHaveLength(5);
    expect(entries.every((e) => e.attempts === 1 && readSent(e) !== undefined)).toBe(true);

    fx.sim.setFaults({});
    await fx.pull('customers');
    const report = await fx.pusher.push();
    expect(report).toMatchObject({ pushed: 0, acknowledged: 5, requests: 0 });
    expect(await fx.db._sync_outbox.count()).toBe(0);
    expect(fx.sim.store.count('customers')).toBe(before + 5);
    expect(createdIds(fx).sort()).toEqual([...ids].sort());
  });

  describe('a process that dies after the server applied a POST, before the acknowledgement is written', () => {
    /**
     * Pulls customers, edits one, and pushes through a fetch that closes the database as soon as
     * the server has answered the POST (the tab was killed): nothing after the POST is written
     * locally. Then a restart on the same IndexedDB.
     */
    async function crashAfterPost(conflict: ConflictStrategy): Promise<{ f: PushFixture; customer: StoredRecord }> {
      const crashing = fetchThatCrashesAfterPost(() => f.db.close());
      const f = await startPushFixture({ conflict, fetch: crashing.fetch });
      fx = f;
      await f.pull('customers');
      const customer = (await f.db.customers.toCollection().first()) as StoredRecord;
      await saveLocal(f.db, 'customers', { id: customer.id, firstname: 'First edit' }, { now: NOW });
      crashing.arm();
      await expect(f.pusher.push()).rejects.toThrow();
      expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: 'First edit' });
      await f.reopen();
      return { f, customer };
    }

    it('the entry survives with the snapshot of what was sent, written before the POST', async () => {
      const { f, customer } = await crashAfterPost('merge');
      const [entry] = await f.db._sync_outbox.toArray();
      expect(entry).toMatchObject({ id: customer.id, state: 'pending', attempts: 0 });
      expect(readSent(entry!)).toMatchObject({ record: { id: customer.id, firstname: 'First edit', lastname: customer.lastname }, fields: ['firstname'] });
    });

    it.each<ConflictStrategy>(['merge', 'server-wins', 'client-wins'])('%s: a later edit of the same field is pushed, not a conflict and not dropped', async (conflict) => {
      const { f, customer } = await crashAfterPost(conflict);
      await saveLocal(f.db, 'customers', { id: customer.id, firstname: 'Second edit' }, { now: NOW + 1 });
      await f.pull('customers');
      const report = await f.pusher.push();
      expect(report).toMatchObject({ pushed: 1, conflicts: 0 });
      expect(await listConflicts(f.db)).toEqual([]);
      expect(await f.db._sync_outbox.count()).toBe(0);
      expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: 'Second edit', lastname: customer.lastname });
    });

    it('a later remove is pushed, not a conflict on _d', async () => {
      const { f, customer } = await crashAfterPost('merge');
      await removeLocal(f.db, 'customers', customer.id, { now: NOW + 1 });
      await f.pull('customers');
      expect(await f.pusher.push()).toMatchObject({ pushed: 1, conflicts: 0 });
      expect(await f.db._sync_outbox.count()).toBe(0);
      expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: 'First edit', _d: NOW + 1 });
    });

    it('with nothing edited since, the landed POST is acknowledged without a second POST', async () => {
      const { f, customer } = await crashAfterPost('merge');
      const posts = f.sim.requests.count('POST /customers');
      await f.pull('customers');
      expect(await f.pusher.push()).toMatchObject({ pushed: 0, acknowledged: 1, requests: 0 });
      expect(f.sim.requests.count('POST /customers')).toBe(posts);
      expect(await f.db.customers.get(customer.id)).toMatchObject({ firstname: 'First edit', _v: f.sim.store.get('customers', customer.id)?._v });
    });
  });

  it('after dropped connections, retries update the same records instead of duplicating them', async () => {
    fx = await startPushFixture({ sim: { faults: { dropRate: 1 } } });
    const before = fx.sim.store.count('customers');
    const ids = await createCustomers(fx, 4);
    await expect(fx.pusher.push()).rejects.toThrow(NetworkError);
    fx.sim.setFaults({});
    // Pushed again without a pull in between: the same ids go out again.
    expect(await fx.pusher.push()).toMatchObject({ pushed: 4 });
    expect(fx.sim.store.count('customers')).toBe(before + 4);
    expect(createdIds(fx).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(fx.sim.requests.timesPosted('customers', id)).toBeGreaterThan(1);
  });

  it('keeps an edit the app made while its POST was in flight, and pushes it next time', async () => {
    let target: string | undefined;
    let fired = false;
    const rec = recordingFetch(async (path) => {
      if (!fired && target && path.endsWith('/customers')) {
        fired = true;
        await saveLocal(fx!.db, 'customers', { id: target, lastname: 'Later', firstname: 'First' }, { now: NOW + 10 });
      }
    });
    fx = await startPushFixture({ fetch: rec.fetch });
    const [id] = await createCustomers(fx, 1, { lastname: 'Early' });
    target = id;

    expect(await fx.pusher.push()).toMatchObject({ pushed: 1 });
    expect(fx.sim.store.get('customers', id!)).toMatchObject({ lastname: 'Early', firstname: 'New 0' });
    const [entry] = await fx.db._sync_outbox.toArray();
    expect(entry).toMatchObject({ op: 'update', state: 'pending', changed: ['firstname', 'lastname'] });
    expect(entry?.base).toMatchObject({ lastname: 'Early' });
    expect(await fx.db.customers.get(id!)).toMatchObject({ lastname: 'Later', firstname: 'First' });

    await fx.pull('customers');
    expect(await fx.pusher.push()).toMatchObject({ pushed: 1, conflicts: 0 });
    expect(fx.sim.store.get('customers', id!)).toMatchObject({ lastname: 'Later', firstname: 'First' });
    expect(await fx.db._sync_outbox.count()).toBe(0);
    expect(createdIds(fx)).toEqual([id]);
  });

  it('loses nothing when the app stops between the local write and the push', async () => {
    fx = await startPushFixture();
    const ids = await createCustomers(fx, 3);
    await fx.reopen();
    expect(await fx.pusher.push()).toMatchObject({ pushed: 3 });
    for (const id of ids) expect(fx.sim.store.get('customers', id)).toBeDefined();
  });

  it('stops on a failing server: entries stay with their attempts counted, and go out once it recovers', async () => {
    fx = await startPushFixture({ sim: { faults: { errorRate: 1 } } });
    const ids = await createCustomers(fx, 2);
    const error = await fx.pusher.push().catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(500);
    expect((await fx.db._sync_outbox.toArray()).map((e) => e.attempts)).toEqual([1, 1]);
    fx.sim.setFaults({});
    expect(await fx.pusher.push()).toMatchObject({ pushed: 2 });
    expect(createdIds(fx).sort()).toEqual([...ids].sort());
  });

  it('stops on an auth failure without counting it against the entries', async () => {
    fx = await startPushFixture();
    await createCustomers(fx, 2);
    const wrong = createClient({ baseUrl: fx.sim.baseUrl, token: 'not-the-token', userAgent: 'tests' });
    const error = await fx.makePusher({ client: wrong }).push().catch((e) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(String(error.message)).not.toContain(fx.sim.token);
    expect((await fx.db._sync_outbox.toArray()).map((e) => [e.state, e.attempts])).toEqual([
      ['pending', 0],
      ['pending', 0],
    ]);
  });

  it('an abort between batches keeps what was acknowledged and leaves the rest queued', async () => {
    const controller = new AbortController();
    let posts = 0;
    const rec = recordingFetch(() => {
      if (++posts === 2) controller.abort();
    });
    fx = await startPushFixture({ fetch: rec.fetch, batch: { maxRecords: 3 } });
    const ids = await createCustomers(fx, 9);
    await expect(fx.pusher.push({ signal: controller.signal })).rejects.toThrow();
    const left = await fx.db._sync_outbox.toArray();
    expect(left.map((e) => e.id)).toEqual(ids.slice(3));
    expect(left.every((e) => e.state === 'pending' && e.attempts === 0)).toBe(true);
    expect(await fx.pusher.push()).toMatchObject({ pushed: 6 });
    expect(createdIds(fx).sort()).toEqual([...ids].sort());
  });

  it('pushes only the collections asked for', async () => {
    fx = await startPushFixture();
    await createCustomers(fx, 1);
    await saveLocal(fx.db, 'warehouses', { name: 'Back room' }, { now: NOW });
    const report = await fx.pusher.push({ collections: ['warehouses'] });
    expect(Object.keys(report.byCollection)).toEqual(['warehouses']);
    expect(await fx.db._sync_outbox.count()).toBe(1);
  });

  it('refuses bad options at creation, naming each', async () => {
    fx = await startPushFixture();
    const error = (() => {
      try {
        createPusher({ db: fx.db, client: fx.client, conflict: 'newest' as never, batch: { maxRecords: 0, maxBytes: 1.5 } });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path.join('.'))).toEqual(['conflict', 'batch.maxRecords', 'batch.maxBytes']);
  });
});

describe('write-ahead batch rows (_sync_inflight)', () => {
  it('leave nothing behind once a push is settled, acknowledged or not', async () => {
    fx = await startPushFixture({ batch: { maxRecords: 3 } });
    await createCustomers(fx, 7);
    expect(await fx.pusher.push()).toMatchObject({ pushed: 7, requests: 3 });
    expect(await fx.db._sync_inflight.count()).toBe(0);

    // Unknown outcome: the snapshot moves onto the entries, and the row goes.
    const ids = await createCustomers(fx, 2);
    fx.sim.setFaults({ dropRate: 1 });
    await expect(fx.pusher.push()).rejects.toThrow(NetworkError);
    expect(await fx.db._sync_inflight.count()).toBe(0);
    const entries = await fx.db._sync_outbox.toArray();
    expect(entries.map((e) => e.id)).toEqual(ids);
    expect(entries.map((e) => readSent(e)?.fields)).toEqual(entries.map((e) => e.changed));
    expect(entries.map((e) => readSent(e)?.record)).toMatchObject(ids.map((id) => ({ id, firstname: expect.any(String), _v: 0 })));
  });

  it('a batch row left by a tab that died after the POST is folded by the next push of a tab that stayed open', async () => {
    const crashing = fetchThatCrashesAfterPost(() => f.db.close());
    const f = await startPushFixture({ conflict: 'server-wins', fetch: crashing.fetch });
    fx = f;
    // The other tab: open on the same database all along, so nothing folds the row when it opens.
    const other = new MirrorDb(f.dbName, { indexedDB: f.factory, IDBKeyRange });
    await other.open();
    try {
      await f.pull('customers');
      const customer = (await other.customers.toCollection().first()) as StoredRecord;
      await saveLocal(other, 'customers', { id: customer.id, firstname: 'First edit' }, { now: NOW });
      crashing.arm();
      await expect(f.pusher.push()).rejects.toThrow();
      expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: 'First edit' });

      // What the dead tab left: its batch row, and an entry without a snapshot of its own.
      const [entry] = await other._sync_outbox.toArray();
      expect(readSent(entry!)).toBeUndefined();
      expect(await other._sync_inflight.toArray()).toMatchObject([
        { collection: 'customers', entries: [{ seq: entry!.seq, wire: { id: customer.id, firstname: 'First edit' }, v: customer._v, fields: ['firstname'] }] },
      ]);

      // The other tab edits the same field again, pulls and pushes: the landed POST is recognised,
      // so the edit goes out (server-wins would otherwise have dropped it as a concurrent edit).
      await saveLocal(other, 'customers', { id: customer.id, firstname: 'Second edit' }, { now: NOW + 1 });
      const client = f.client as unknown as SyncClient;
      await createPuller({ db: other, client }).pull('customers');
      const report = await createPusher({ db: other, client: f.client, conflict: 'server-wins' }).push();
      expect(report).toMatchObject({ pushed: 1, conflicts: 0 });
      expect(await other._sync_inflight.count()).toBe(0);
      expect(await other._sync_outbox.count()).toBe(0);
      expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: 'Second edit', lastname: customer.lastname });
    } finally {
      other.close();
    }
  });

  it('a row left behind with nothing edited since: acknowledged by the next push without a second POST', async () => {
    const crashing = fetchThatCrashesAfterPost(() => f.db.close());
    const f = await startPushFixture({ fetch: crashing.fetch });
    fx = f;
    const other = new MirrorDb(f.dbName, { indexedDB: f.factory, IDBKeyRange });
    await other.open();
    try {
      const ids = await createCustomers(f, 3);
      crashing.arm();
      await expect(f.pusher.push()).rejects.toThrow();
      expect(await other._sync_inflight.count()).toBe(1);
      const posts = f.sim.requests.count('POST /customers');
      await createPuller({ db: other, client: f.client as unknown as SyncClient }).pull('customers');
      expect(await createPusher({ db: other, client: f.client }).push()).toMatchObject({ pushed: 0, acknowledged: 3, requests: 0 });
      expect(f.sim.requests.count('POST /customers')).toBe(posts);
      expect(await other._sync_inflight.count()).toBe(0);
      expect(createdIds(f).sort()).toEqual([...ids].sort());
    } finally {
      other.close();
    }
  });
});

describe('refusals other than 400', () => {
  /** A server that answers `status` where the simulator answers 400, with the same body. */
  const answering =
    (status: number): typeof fetch =>
    async (input, init) => {
      const response = await fetch(input, init);
      if (response.status !== 400) return response;
      return new Response(await response.text(), { status, headers: { 'content-type': 'application/json' } });
    };

  it('422 is a refusal like 400: the named record is rejected, the rest pushed, nothing blocks the queue', async () => {
    fx = await startPushFixture({ fetch: answering(422) });
    const ids = await createCustomers(fx, 4);
    await fx.db.customers.update(ids[1]!, { email: 'not-an-e-mail' });
    expect(await fx.pusher.push()).toMatchObject({ pushed: 3, rejected: 1, requests: 2 });
    const entries = await fx.db._sync_outbox.toArray();
    expect(entries.map((e) => [e.id, e.state])).toEqual([[ids[1], 'rejected']]);
    expect(entries[0]?.reason).toMatch(/email/);
    const more = await createCustomers(fx, 1);
    expect(await fx.pusher.push()).toMatchObject({ pushed: 1, rejected: 0, requests: 1 });
    expect(fx.sim.store.get('customers', more[0]!)).toBeDefined();
  });

  it('413 halves the batch; a record too large on its own is rejected as too large for the service', async () => {
    // A server that takes at most 2 records per POST and no record with a note over 1,000 characters.
    const limited: typeof fetch = async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (request.method === 'POST') {
        const body = JSON.parse(await request.clone().text()) as { note?: string }[];
        if (body.length > 2 || body.some((r) => (r.note?.length ?? 0) > 1_000)) {
          return new Response('{"error":"payload too large"}', { status: 413, headers: { 'content-type': 'application/json' } });
        }
      }
      return fetch(request);
    };
    fx = await startPushFixture({ fetch: limited });
    const ids = await createCustomers(fx, 5);
    await saveLocal(fx.db, 'customers', { id: ids[3], note: 'x'.repeat(2_000) }, { now: NOW + 100 });

    const report = await fx.pusher.push();
    // [0-4]: 413 -> [0-2]: 413 -> [0,1] ok, [2] ok; [3,4]: 413 -> [3]: 413 alone, rejected; [4] ok.
    expect(report).toMatchObject({ pushed: 4, rejected: 1, requests: 7, batches: 1 });
    const entries = await fx.db._sync_outbox.toArray();
    expect(entries.map((e) => [e.id, e.state])).toEqual([[ids[3], 'rejected']]);
    expect(entries[0]?.reason).toMatch(/^too large for the service/);
    expect(entries[0]?.reason).toMatch(/payload too large/);
    for (const [i, id] of ids.entries()) expect(fx.sim.store.get('customers', id) !== undefined).toBe(i !== 3);
    expect(await fx.db._sync_inflight.count()).toBe(0);

    // The rejected record does not hold back later ones.
    const more = await createCustomers(fx, 2);
    expect(await fx.pusher.push()).toMatchObject({ pushed: 2, rejected: 0, requests: 1 });
    expect(fx.sim.store.get('customers', more[1]!)).toBeDefined();
  });
});

describe('beforeBatch', () => {
  it('is awaited before each POST; its throw stops the push like an abort: acknowledged batches settled, the rest pending', async () => {
    fx = await startPushFixture({ batch: { maxRecords: 3 } });
    const ids = await createCustomers(fx, 9);
    const calls: [boolean, string][] = [];
    const fenced = new Error('not the leader any more');
    const controller = new AbortController();
    const pusher = createPusher({
      db: fx.db,
      client: fx.client,
      batch: { maxRecords: 3 },
      beforeBatch: async (signal, collection) => {
        calls.push([signal === controller.signal, collection]);
        if (calls.length === 2) throw fenced;
      },
    });
    await expect(pusher.push({ signal: controller.signal })).rejects.toBe(fenced);
    expect(calls).toEqual([
      [true, 'customers'],
      [true, 'customers'],
    ]);
    expect(fx.sim.requests.count('POST /customers')).toBe(1);
    for (const id of ids.slice(0, 3)) expect(fx.sim.store.get('customers', id)).toBeDefined();
    const left = await fx.db._sync_outbox.toArray();
    expect(left.map((e) => e.id)).toEqual(ids.slice(3));
    expect(left.every((e) => e.state === 'pending' && e.attempts === 0 && readSent(e) === undefined)).toBe(true);
    expect(await fx.db._sync_inflight.count()).toBe(0);

    expect(await fx.pusher.push()).toMatchObject({ pushed: 6 });
    expect(createdIds(fx).sort()).toEqual([...ids].sort());
  });

  it('must be a function', async () => {
    fx = await startPushFixture();
    expect(() => createPusher({ db: fx!.db, client: fx!.client, beforeBatch: 'yes' as never })).toThrow(ValidationError);
  });
});
