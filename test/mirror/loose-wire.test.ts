import { afterEach, describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../../src/schema/collections.js';
import { startMirrorFixture, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** A backend that writes numbers as strings and booleans as 0/1 in every response. */
const looseServer = () => startMirrorFixture({ looseWire: true });

describe('a loosely typed backend (numbers as strings, booleans as 0/1)', () => {
  it('fills every table on the first sync, with the documented types, and quarantines nothing', async () => {
    fixture = await looseServer();
    const mirror = fixture.mirror();
    await mirror.syncNow();
    for (const collection of COLLECTIONS) {
      const live = fixture.sim.store.count(collection);
      expect(await mirror.db.table(collection).count(), collection).toBe(live);
    }
    expect(await mirror.db._sync_quarantine.count()).toBe(0);
    const product = (await mirror.db.products.toArray())[0]!;
    expect(typeof product._v).toBe('number');
    expect(typeof product.visible).toBe('boolean');
    expect(typeof product.quantity_minimal).toBe('number');
    expect(typeof product.id_category).toBe('string');
    const order = (await mirror.db.orders.toArray())[0]!;
    expect(typeof order.total_paid_tax_incl).toBe('number');
    expect(typeof order.dine_in).toBe('boolean');
    expect(await mirror.db.categories.count()).toBeGreaterThan(0);
    expect(typeof (await mirror.db.categories.toArray())[0]!.node_sort).toBe('number');
  });

  it('pulls deltas and sweeps without repairing or removing anything it already has', async () => {
    fixture = await looseServer();
    const mirror = fixture.mirror();
    await mirror.syncNow();
    const sale = fixture.sim.store.sell();
    await mirror.syncNow();
    expect(await mirror.db.orders.get(String(sale.order.id))).toMatchObject({ _v: sale.order._v });
    const sweeps = await mirror.reconcile();
    expect(sweeps.reduce((n, r) => n + r.repaired + r.vanished + r.quarantined, 0)).toBe(0);
  });

  it('sends an edit of a record read loosely back with the documented types', async () => {
    fixture = await looseServer();
    const mirror = fixture.mirror();
    await mirror.syncNow({ collections: ['customers', 'products'] });
    const customer = (await mirror.db.customers.toArray()).find((c) => c._d === 0)!;
    await mirror.save('customers', { id: customer.id, note_internal: 'stálý zákazník' });
    const product = (await mirror.db.products.toArray()).find((p) => p._d === 0 && p.visible !== false)!;
    await mirror.save('products', { id: product.id, quantity_minimal: 2 });
    await mirror.syncNow({ collections: ['customers', 'products'] });
    expect(await mirror.pending()).toEqual([]);
    // The simulator's store validates every POST with the strict write face: a quoted number would be refused.
    expect(fixture.sim.store.get('customers', customer.id)).toMatchObject({ note_internal: 'stálý zákazník', customer_type: expect.any(Number), visible: expect.any(Boolean) });
    expect(fixture.sim.store.get('products', product.id)).toMatchObject({ quantity_minimal: 2, visible: true, date_updated: expect.any(Number) });
  });

  it('stores ingested loose records with the documented types', async () => {
    fixture = await looseServer();
    const mirror = fixture.mirror();
    await mirror.ingest('employees', [{ id: '500', _v: '1700000000000', _d: '0', name: 'Jana', visible: '1', pin_require: 0, perm_bitmask: '12' }]);
    expect(await mirror.db.employees.get('500')).toMatchObject({ _v: 1_700_000_000_000, _d: 0, visible: true, pin_require: false, perm_bitmask: 12 });
  });

  it('quarantines a value that cannot be read losslessly, and applies the rest of its page', async () => {
    fixture = await looseServer();
    const products = fixture.sim.store.collection('products');
    const victim = fixture.sim.store.list('products')[3]!;
    const stored = products.get(String(victim.id))!;
    products.put({ ...stored, quantity_minimal: '12abc', _v: fixture.sim.store.advanceClock(1) }, stored);
    const mirror = fixture.mirror();
    await mirror.syncNow({ collections: ['products'] });
    const rows = await mirror.db._sync_quarantine.toArray();
    expect(rows.map((r) => [r.collection, r.id])).toEqual([['products', String(victim.id)]]);
    expect(rows[0]!.issues[0]).toMatchObject({ path: ['quantity_minimal'], message: expect.stringContaining('"12abc"') });
    expect(await mirror.db.products.count()).toBe(fixture.sim.store.count('products') - 1);
  });
});
