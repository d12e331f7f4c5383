import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors/index.js';
import { startMirrorFixture, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('the option collections', () => {
  it('brings the hydration children of a mirrored parent: a price row deleted on the server is no longer the price of its product', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ collections: ['products'], categories: false });
    const first = await mirror.syncNow();
    expect(first.pulls.map((p) => p.collection)).toEqual(['products', 'product_price_matrix']);
    const rows = await mirror.db.product_price_matrix.toArray();
    const row = rows.find((r) => r._d === 0)!;
    expect(row).toBeDefined();
    fixture.sim.store.advanceClock(1_000);
    fixture.sim.store.remove('product_price_matrix', row.id);
    await mirror.syncNow();
    expect((await mirror.db.product_price_matrix.get(row.id))?._d).toBeTruthy();
    const price = await mirror.query.priceOf(String(row.id_product), { at: fixture.sim.store.now() });
    expect(price?.id).not.toBe(row.id);
  });

  it('makes save() and remove() of a collection left out a ValidationError naming it and the option, with nothing queued', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ collections: ['customers', 'products'], categories: false });
    await mirror.syncNow();
    const saving = mirror.save('warehouses', { name: 'Back room' });
    await expect(saving).rejects.toBeInstanceOf(ValidationError);
    await expect(saving).rejects.toThrow(/"warehouses".*collections/);
    await expect(mirror.remove('orders', '123')).rejects.toThrow(/"orders".*collections/);
    expect(await mirror.pending()).toEqual([]);
    // A hydration child of a mirrored parent is mirrored: its edits are pushed.
    const row = (await mirror.db.product_price_matrix.toArray()).find((r) => r._d === 0)!;
    await mirror.remove('product_price_matrix', row.id);
    await mirror.syncNow();
    expect(await mirror.pending()).toEqual([]);
    expect(fixture.sim.requests.timesPosted('product_price_matrix', row.id)).toBe(1);
  });
});
