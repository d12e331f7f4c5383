import { afterEach, describe, expect, it } from 'vitest';
import type { StoredRecord } from '../../../src/db/sync-rows.js';
import { NetworkError, ValidationError } from '../../../src/errors/index.js';
import { listConflicts, resolveConflict } from '../../../src/sync/conflicts/conflict-resolution.js';
import type { ConflictResolver, ConflictStrategy } from '../../../src/sync/conflicts/conflict-strategy.js';
import { removeLocal, saveLocal } from '../../../src/sync/outbox/local-edit.js';
import { startPushFixture, type PushFixture } from '../push/push-fixture.js';
import { listOutbox } from '../../../src/sync/outbox/outbox-list.js';

let fx: PushFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const NOW = Date.UTC(2026, 0, 2);

/** A fixture with customers and products pulled, and one customer to play with. */
async function setUp(options: Parameters<typeof startPushFixture>[0] = {}): Promise<{ f: PushFixture; customer: StoredRecord; key: string }> {
  const f = await startPushFixture(options);
  fx = f;
  await f.pull('customers', 'products');
  const customer = (await f.db.customers.toCollection().first()) as StoredRecord;
  return { f, customer, key: `customers:${customer.id}` };
}

describe('conflicts over HTTP', () => {
  it('edit/edit of one field: a conflict row, the entry waits, the server keeps its value', async () => {
    const { f, customer, key } = await setUp();
    await saveLocal(f.db, 'customers', { id: customer.id, firstname: 'Local' }, { now: NOW });
    f.sim.store.write('customers', { id: customer.id, firstname: 'Register' });
    await f.pull('customers');

    const report = await f.pusher.push();
    expect(report).toMatchObject({ pushed: 0, conflicts: 1, requests: 0 });
    const [conflict] = await listConflicts(f.db);
    expect(conflict).toMatchObject({ key, collection: 'customers', id: customer.id, fields: ['firstname'] });
    expect(conflict?.local).toMatchObject({ firstname: 'Local' });
    expect(conflict?.server).toMatchObject({ firstname: 'Register' });
    expect(conflict?.base).toMatchObject({ firstname: customer.firstname });
    expect((await listOutbox(f.db))[0]).toMatchObject({ state: 'conflict', reason: 'conflict on firstname' });
    expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: 'Register' });
    // The UI still shows the app's value; a second push leaves the waiting entry alone.
    expect(await f.db.customers.get(customer.id)).toMatchObject({ firstname: 'Local' });
    expect(await f.pusher.push()).toMatchObject({ conflicts: 0, requests: 0 });
  });

  it("resolving with 'local' pushes the app's value without conflicting again", async () => {
    const { f, customer, key } = await setUp();
    await saveLocal(f.db, 'customers', { id: customer.id, firstname: 'Local' }, { now: NOW });
    f.sim.store.write('customers', { id: customer.id, firstname: 'Register', lastname: 'Changed too' });
    await f.pull('customers');
    await f.pusher.push();

    await resolveConflict(f.db, key, 'local');
    expect(await listConflicts(f.db)).toEqual([]);
    expect((await listOutbox(f.db))[0]).toMatchObject({ state: 'pending', changed: ['firstname'] });
    expect(await f.pusher.push()).toMatchObject({ pushed: 1, conflicts: 0 });
    expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: 'Local', lastname: 'Changed too' });
    expect(await f.db._sync_outbox.count()).toBe(0);
  });

  it("resolving with 'server' drops the edit when nothing else changed, and the table shows the server's record", async () => {
    const { f, customer, key } = await setUp();
    await saveLocal(f.db, 'customers', { id: customer.id, firstname: 'Local' }, { now: NOW });
    f.sim.store.write('customers', { id: customer.id, firstname: 'Register' });
    await f.pull('customers');
    await f.pusher.push();

    await resolveConflict(f.db, key, 'server');
    expect(await f.db._sync_outbox.count()).toBe(0);
    expect(await f.db.customers.get(customer.id)).toMatchObject({ firstname: 'Register' });
    expect(await listConflicts(f.db)).toEqual([]);
  });

  it("resolving with 'server' still pushes the app's other changes", async () => {
    const { f, customer, key } = await setUp();
    await saveLocal(f.db, 'customers', { id: customer.id, firstname: 'Local', note_internal: 'keep me' }, { now: NOW });
    f.sim.store.write('customers', { id: customer.id, firstname: 'Register' });
    await f.pull('customers');
    await f.pusher.push();

    await resolveConflict(f.db, key, 'server');
    expect(await f.db.customers.get(customer.id)).toMatchObject({ firstname: 'Register', note_internal: 'keep me' });
    expect(await f.pusher.push()).toMatchObject({ pushed: 1 });
    expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: 'Register', note_internal: 'keep me' });
  });

  it('resolving with a record keeps that record, validated like a save', async () => {
    const { f, customer, key } = await setUp();
    await saveLocal(f.db, 'customers', { id: customer.id, firstname: 'Local' }, { now: NOW });
    f.sim.store.write('customers', { id: customer.id, firstname: 'Register' });
    await f.pull('customers');
    await f.pusher.push();

    await expect(resolveConflict(f.db, key, { firstname: 'Both', email: 'broken' })).rejects.toThrow(ValidationError);
    expect(await listConflicts(f.db)).toHaveLength(1); // nothing changed
    await resolveConflict(f.db, key, { firstname: 'Both' });
    expect(await f.pusher.push()).toMatchObject({ pushed: 1 });
    expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: 'Both' });
  });

  it('refuses an unknown key and a bad choice with a ValidationError', async () => {
    const { f, key } = await setUp();
    await expect(resolveConflict(f.db, 'customers:1', 'local')).rejects.toThrow(/no unresolved conflict customers:1/);
    await expect(resolveConflict(f.db, 'nope:1', 'local')).rejects.toThrow(ValidationError);
    await expect(resolveConflict(f.db, key, 'mine' as never)).rejects.toThrow(/'local', 'server' or a record/);
  });

  it('edit/edit of disjoint fields merges silently: the server gets both', async () => {
    const { f, customer } = await setUp();
    await saveLocal(f.db, 'customers', { id: customer.id, firstname: 'Local' }, { now: NOW });
    f.sim.store.write('customers', { id: customer.id, lastname: 'Register' });
    await f.pull('customers');

    expect(await f.pusher.push()).toMatchObject({ pushed: 1, conflicts: 0 });
    expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: 'Local', lastname: 'Register' });
    expect(await f.db.customers.get(customer.id)).toMatchObject({ firstname: 'Local', lastname: 'Register' });
  });

  it('delete/edit: a local delete against a register edit is a conflict on _d', async () => {
    const { f, customer } = await setUp();
    await removeLocal(f.db, 'customers', customer.id, { now: NOW });
    f.sim.store.write('customers', { id: customer.id, note_external: 'still a customer' });
    await f.pull('customers');
    expect(await f.pusher.push()).toMatchObject({ conflicts: 1 });
    expect((await listConflicts(f.db))[0]?.fields).toEqual(['_d']);
    expect(f.sim.store.get('customers', customer.id)?._d).toBe(0);
  });

  it('edit/delete: a local edit against a deletion on the server is a conflict on _d', async () => {
    const { f } = await setUp();
    const product = (await f.db.products.filter((p) => p.visible === true).first()) as StoredRecord;
    await saveLocal(f.db, 'products', { id: product.id, name: 'Renamed' }, { now: NOW });
    f.sim.store.remove('products', product.id);
    await f.pull('products');
    expect(await f.pusher.push()).toMatchObject({ conflicts: 1 });
    const [conflict] = await listConflicts(f.db);
    expect(conflict).toMatchObject({ collection: 'products', fields: ['_d'] });
    // The conflict shows the record as the app meant it: renamed, not deleted.
    expect(conflict?.local).toMatchObject({ name: 'Renamed', _d: 0, visible: true });
    expect(conflict?.server).toMatchObject({ visible: false });

    // Keeping the app's side brings the product back with its new name.
    await resolveConflict(f.db, `products:${product.id}`, 'local');
    expect(await f.pusher.push()).toMatchObject({ pushed: 1, conflicts: 0 });
    expect(f.sim.store.get('products', product.id)).toMatchObject({ name: 'Renamed', _d: 0, visible: true });
  });

  it('server-wins keeps the register’s value and still pushes the app’s other fields', async () => {
    const { f, customer } = await setUp({ conflict: 'server-wins' });
    await saveLocal(f.db, 'customers', { id: customer.id, firstname: 'Local', note_internal: 'n' }, { now: NOW });
    f.sim.store.write('customers', { id: customer.id, firstname: 'Register' });
    await f.pull('customers');
    expect(await f.pusher.push()).toMatchObject({ pushed: 1, conflicts: 0 });
    expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: 'Register', note_internal: 'n' });
    expect(await f.db.customers.get(customer.id)).toMatchObject({ firstname: 'Register', note_internal: 'n' });
  });

  it('client-wins overwrites the register’s value and keeps its other changes', async () => {
    const { f, customer } = await setUp({ conflict: 'client-wins' });
    await saveLocal(f.db, 'customers', { id: customer.id, firstname: 'Local' }, { now: NOW });
    f.sim.store.write('customers', { id: customer.id, firstname: 'Register', lastname: 'Register' });
    await f.pull('customers');
    expect(await f.pusher.push()).toMatchObject({ pushed: 1, conflicts: 0 });
    expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: 'Local', lastname: 'Register' });
  });

  it('client-wins brings back a record the server deleted, with the app’s edit', async () => {
    const { f, customer } = await setUp({ conflict: 'client-wins' });
    await saveLocal(f.db, 'customers', { id: customer.id, firstname: 'Local' }, { now: NOW });
    f.sim.store.remove('customers', customer.id);
    await f.pull('customers');
    expect(await f.pusher.push()).toMatchObject({ pushed: 1 });
    expect(f.sim.store.get('customers', customer.id)).toMatchObject({ _d: 0, firstname: 'Local' });
  });

  it('a resolver decides per record; null leaves a conflict row', async () => {
    const calls: string[][] = [];
    const resolver: ConflictResolver = (local, server, _base, info) => {
      calls.push(info.fields);
      return local.firstname === 'Merge me' ? { ...server, firstname: `${String(local.firstname)} + ${String(server.firstname)}` } : null;
    };
    const { f } = await setUp({ conflict: resolver });
    const [a, b] = (await f.db.customers.limit(2).toArray()) as [StoredRecord, StoredRecord];
    await saveLocal(f.db, 'customers', { id: a.id, firstname: 'Merge me' }, { now: NOW });
    await saveLocal(f.db, 'customers', { id: b.id, firstname: 'Leave me' }, { now: NOW });
    f.sim.store.write('customers', { id: a.id, firstname: 'Register' });
    f.sim.store.write('customers', { id: b.id, firstname: 'Register' });
    await f.pull('customers');
    expect(await f.pusher.push()).toMatchObject({ pushed: 1, conflicts: 1 });
    expect(calls).toEqual([['firstname'], ['firstname']]);
    expect(f.sim.store.get('customers', a.id)).toMatchObject({ firstname: 'Merge me + Register' });
    expect((await listConflicts(f.db)).map((c) => c.id)).toEqual([b.id]);
  });

  describe('after a POST that landed but whose answer was lost', () => {
    /** Edits firstname and pushes it through a dropped connection: the server applies it, the app never hears. */
    async function lostAnswer(options: Parameters<typeof startPushFixture>[0] = {}): Promise<{ f: PushFixture; customer: StoredRecord }> {
      const { f, customer } = await setUp(options);
      await saveLocal(f.db, 'customers', { id: customer.id, firstname: 'Sent' }, { now: NOW });
      f.sim.setFaults({ dropRate: 1 });
      await expect(f.pusher.push()).rejects.toThrow(NetworkError);
      f.sim.setFaults({});
      expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: 'Sent', lastname: customer.lastname });
      return { f, customer };
    }

    it('a later local edit and a later register edit of another field are a conflict on it: the register’s value is not overwritten', async () => {
      const { f, customer } = await lostAnswer();
      await saveLocal(f.db, 'customers', { id: customer.id, lastname: 'Local' }, { now: NOW + 1 });
      f.sim.store.write('customers', { id: customer.id, lastname: 'Register' });
      await f.pull('customers');

      const report = await f.pusher.push();
      expect(report).toMatchObject({ pushed: 0, conflicts: 1 });
      const [conflict] = await listConflicts(f.db);
      expect(conflict).toMatchObject({ fields: ['lastname'], local: { lastname: 'Local' }, server: { lastname: 'Register' } });
      // Its base is the state the landed POST wrote.
      expect(conflict?.base).toMatchObject({ firstname: 'Sent', lastname: customer.lastname });
      expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: 'Sent', lastname: 'Register' });
    });

    it('control: the same edits with the answer received are a conflict on that field too', async () => {
      const { f, customer } = await setUp();
      await saveLocal(f.db, 'customers', { id: customer.id, firstname: 'Sent' }, { now: NOW });
      await saveLocal(f.db, 'customers', { id: customer.id, lastname: 'Local' }, { now: NOW + 1 });
      f.sim.store.write('customers', { id: customer.id, lastname: 'Register' });
      await f.pull('customers');
      expect(await f.pusher.push()).toMatchObject({ conflicts: 1 });
      expect((await listConflicts(f.db))[0]?.fields).toEqual(['lastname']);
      expect(f.sim.store.get('customers', customer.id)?.lastname).toBe('Register');
    });

    it('client-wins settles that conflict with the app’s value; server-wins with the register’s', async () => {
      for (const [conflict, lastname] of [['client-wins', 'Local'], ['server-wins', 'Register']] as const) {
        const { f, customer } = await lostAnswer({ conflict });
        await saveLocal(f.db, 'customers', { id: customer.id, lastname: 'Local' }, { now: NOW + 1 });
        f.sim.store.write('customers', { id: customer.id, lastname: 'Register' });
        await f.pull('customers');
        expect(await f.pusher.push()).toMatchObject({ conflicts: 0 });
        expect(await f.db._sync_outbox.count()).toBe(0);
        expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: 'Sent', lastname });
        await f.close();
        fx = undefined;
      }
    });

    it('of a create, whose record a register then edited: it cannot be told from another device’s record, so it is a conflict row, whatever the strategy', async () => {
      const { f } = await setUp({ conflict: 'server-wins' });
      const id = await saveLocal(f.db, 'customers', { company: 'Lost answer Ltd', firstname: 'Eva' }, { now: NOW });
      f.sim.setFaults({ dropRate: 1 });
      await expect(f.pusher.push()).rejects.toThrow(NetworkError);
      f.sim.setFaults({});
      await saveLocal(f.db, 'customers', { id, note_internal: 'keep me' }, { now: NOW + 1 });
      f.sim.store.write('customers', { id, firstname: 'Register' });
      await f.pull('customers');

      // The snapshot no longer matches (firstname moved): nothing is merged or dropped silently.
      expect(await f.pusher.push()).toMatchObject({ conflicts: 1, pushed: 0, acknowledged: 0 });
      const [row] = await listConflicts(f.db);
      expect(row).toMatchObject({ base: null, local: { firstname: 'Eva', note_internal: 'keep me' }, server: { firstname: 'Register' } });
      expect(row?.fields).toContain('firstname');
      expect(f.sim.store.get('customers', id)).toMatchObject({ company: 'Lost answer Ltd', firstname: 'Register' });
      // The app, which knows its record, keeps its own values.
      await resolveConflict(f.db, `customers:${id}`, 'local');
      expect(await f.pusher.push()).toMatchObject({ pushed: 1, conflicts: 0 });
      expect(f.sim.store.get('customers', id)).toMatchObject({ firstname: 'Eva', note_internal: 'keep me' });
    });

    it('a later local edit and a register edit of different fields merge: the server gets both', async () => {
      const { f, customer } = await lostAnswer();
      await saveLocal(f.db, 'customers', { id: customer.id, lastname: 'Local' }, { now: NOW + 1 });
      f.sim.store.write('customers', { id: customer.id, note_internal: 'from the register' });
      await f.pull('customers');
      expect(await f.pusher.push()).toMatchObject({ pushed: 1, conflicts: 0 });
      expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: 'Sent', lastname: 'Local', note_internal: 'from the register' });
      expect(await f.db._sync_outbox.count()).toBe(0);
    });
  });

  describe('a local create under an id the app chose, which another device already used', () => {
    /** Another device created a customer and pushed it; the app saves a create under the same id, pulls (it has seen the other create), then pushes. */
    async function collide(conflict: ConflictStrategy) {
      const { f } = await setUp({ conflict });
      const other = f.sim.store.write('customers', { id: '0', company: 'Other device Ltd', firstname: 'Bob', email: 'bob@example.com' });
      const id = await saveLocal(f.db, 'customers', { id: other.id as string, company: 'This device s.r.o.', firstname: 'Alice', lastname: 'Local' }, { now: NOW });
      expect(id).toBe(other.id);
      await f.pull('customers');
      const report = await f.pusher.push();
      return { f, id, other, report };
    }

    it.each<[string, ConflictStrategy]>([
      ['merge', 'merge'],
      ['server-wins', 'server-wins'],
      ['client-wins', 'client-wins'],
      ["a resolver answering 'local'", () => 'local'],
    ])('under %s: a conflict row; the other device’s record is neither overwritten nor merged into', async (_title, conflict) => {
      const { f, id, other, report } = await collide(conflict);
      expect(report).toMatchObject({ conflicts: 1, pushed: 0, acknowledged: 0, requests: 0 });
      const [row] = await listConflicts(f.db);
      expect(row).toMatchObject({ key: `customers:${id}`, base: null, local: { firstname: 'Alice', lastname: 'Local' }, server: { firstname: 'Bob' } });
      expect(row?.fields).toEqual(expect.arrayContaining(['company', 'firstname']));
      expect(f.sim.store.get('customers', id)).toMatchObject({ company: 'Other device Ltd', firstname: 'Bob', email: 'bob@example.com', _v: other._v });
      expect((await listOutbox(f.db))[0]).toMatchObject({ op: 'create', state: 'conflict' });
    });

    it("resolving with 'server' keeps the other record as it is and drops the local create: nothing of it goes out", async () => {
      const { f, id } = await collide('server-wins');
      await resolveConflict(f.db, `customers:${id}`, 'server');
      expect(await f.db._sync_outbox.count()).toBe(0);
      expect(await f.db.customers.get(id)).toMatchObject({ company: 'Other device Ltd', firstname: 'Bob' });
      expect(await f.db.customers.get(id)).not.toHaveProperty('lastname', 'Local');
      expect(await f.pusher.push()).toMatchObject({ pushed: 0, requests: 0 });
      expect(f.sim.store.get('customers', id)).toMatchObject({ company: 'Other device Ltd', firstname: 'Bob' });
      expect(f.sim.store.get('customers', id)?.lastname).not.toBe('Local');
    });

    it("resolving with 'local' writes the app's record over it", async () => {
      const { f, id } = await collide('merge');
      await resolveConflict(f.db, `customers:${id}`, 'local');
      expect(await f.pusher.push()).toMatchObject({ pushed: 1, conflicts: 0 });
      expect(f.sim.store.get('customers', id)).toMatchObject({ company: 'This device s.r.o.', firstname: 'Alice', lastname: 'Local' });
      expect(await f.db._sync_outbox.count()).toBe(0);
    });
  });

  it('a create whose answer was lost and whose snapshot is gone (a crash) is acknowledged when the server has its values', async () => {
    const { f } = await setUp();
    const id = await saveLocal(f.db, 'customers', { company: 'Lost answer Ltd', firstname: 'Eva' }, { now: NOW });
    // The POST landed, but the app never learned it: the server has exactly what was saved.
    const local = (await f.db.customers.get(id)) as StoredRecord;
    const { _v, ...body } = local;
    f.sim.store.write('customers', body);
    await f.pull('customers');
    expect(await f.pusher.push()).toMatchObject({ acknowledged: 1, pushed: 0, requests: 0 });
    expect(await f.db._sync_outbox.count()).toBe(0);
    expect((await f.db.customers.get(id))?._v).toBe(f.sim.store.get('customers', id)?._v);
  });

  it("'server' on a create collision rejects the edits that point at the dropped create, instead of attaching them to the other record", async () => {
    fx = await startPushFixture();
    const s = fx.sim.store;
    const employee = s.list('employees')[0]!;
    const product = s.list('products')[0]!;
    const refs = { id_shop: s.list('shops')[0]!.id, id_cash_register: s.list('cash_registers')[0]!.id, id_shift: s.list('shifts')[0]!.id, id_employee: employee.id };
    const more = { id_employee_served: employee.id, id_park_location: s.list('park_locations')[0]!.id };
    // Another register's order, already on the server, whose id this device drew too.
    const theirs = s.write('orders', { ...refs, ...more, currency: 'CZK', note: 'their sale' });
    const orderId = await saveLocal(fx.db, 'orders', { ...refs, ...more, id: theirs.id, currency: 'CZK', note: 'our sale' }, { now: NOW });
    const item = { ...refs, id_order: orderId, id_product: product.id, id_category: product.id_category, id_warehouse: s.list('warehouses')[0]!.id, currency: 'CZK' };
    const itemId = await saveLocal(fx.db, 'order_details', item, { now: NOW });
    await fx.pull('orders');
    const first = await fx.pusher.push();
    expect(first.byCollection.orders).toMatchObject({ conflicts: 1 });
    expect(first.byCollection.order_details).toMatchObject({ awaitingParent: 1 });

    await resolveConflict(fx.db, `orders:${orderId}`, 'server');
    await fx.pusher.push();
    expect(s.get('order_details', itemId)).toBeUndefined();
    const entries = await listOutbox(fx.db);
    expect(entries.map((e) => [e.collection, e.state])).toEqual([['order_details', 'rejected']]);
    expect(entries[0]?.reason).toMatch(/its parent, the local create of orders \d+, was dropped: the server holds another record with that id/);
    expect(s.get('orders', orderId)).toMatchObject({ note: 'their sale' });
  });

  it('a create whose id the server already holds with other values is a conflict, not an overwrite', async () => {
    const { f, customer } = await setUp();
    // The app picked an id the mirror did not know yet (not pulled), which the server has.
    await f.db.customers.delete(customer.id);
    await f.db._sync_checkpoints.clear();
    await saveLocal(f.db, 'customers', { id: customer.id, company: 'Mine', firstname: 'Someone else' }, { now: NOW });
    await f.pull('customers');
    expect(await f.pusher.push()).toMatchObject({ conflicts: 1, pushed: 0 });
    expect((await listConflicts(f.db))[0]?.fields).toContain('firstname');
    expect(f.sim.store.get('customers', customer.id)).toMatchObject({ firstname: customer.firstname });
  });
});
