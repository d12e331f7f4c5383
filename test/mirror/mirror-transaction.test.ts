import { afterEach, describe, expect, it } from 'vitest';
import type { Mirror } from '../../src/mirror/create-mirror.js';
import { startMirrorFixture, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** A synced mirror of the tiny tenant, and the ids a stock count refers to. */
async function setup() {
  fixture = await startMirrorFixture();
  const mirror = fixture.mirror();
  await mirror.syncNow();
  const pick = async (collection: 'shops' | 'cash_registers' | 'employees' | 'warehouses' | 'products') => (await mirror.db.collection(collection).toArray())[0]!.id;
  const refs = {
    id_shop: await pick('shops'),
    id_cash_register: await pick('cash_registers'),
    id_employee: await pick('employees'),
    id_warehouse: await pick('warehouses'),
  };
  return { sim: fixture.sim, mirror, refs, product: await pick('products') };
}

/** A stock count as the inventory app books it: a stock-up and one stock history row per product counted. */
type Refs = Awaited<ReturnType<typeof setup>>['refs'];

function bookCount(mirror: Mirror, refs: Refs, products: string[], failAfter?: number) {
  return mirror.transaction(['stockup', 'stock_history'], async (tx) => {
    const id_stockup = await tx.save('stockup', { ...refs, stock_history_type: 3, note: 'count of aisle 4' });
    const rows: string[] = [];
    for (const [i, id_record] of products.entries()) {
      if (i === failAfter) throw new Error('the count was cancelled');
      rows.push(await tx.save('stock_history', { ...refs, id_record, id_stockup, stock_type: 1, stock_history_type: 3, quanity: i + 1 }));
    }
    return { id_stockup, rows };
  });
}

describe('mirror.transaction', () => {
  it('keeps an app\'s edits of several records together, with their outbox entries, and pushes them', async () => {
    const { sim, mirror, refs, product } = await setup();
    const { id_stockup, rows } = await bookCount(mirror, refs, [product, product, product]);
    expect((await mirror.pending()).map((e) => e.id).sort()).toEqual([id_stockup, ...rows].sort());
    expect((await mirror.db.stock_history.bulkGet(rows)).filter((r) => r?.id_stockup === id_stockup)).toHaveLength(3);
    await mirror.syncNow();
    expect(await mirror.pending()).toEqual([]);
    expect(sim.store.get('stockup', id_stockup)).toMatchObject({ note: 'count of aisle 4' });
    for (const id of rows) expect(sim.requests.timesPosted('stock_history', id)).toBe(1);
  });

  it('keeps nothing when the scope throws after some edits, and rethrows its error', async () => {
    const { mirror, refs, product } = await setup();
    const before = await mirror.db.stock_history.count();
    await expect(bookCount(mirror, refs, [product, product, product], 2)).rejects.toThrow('the count was cancelled');
    expect(await mirror.pending()).toEqual([]);
    expect(await mirror.db.stockup.filter((s) => s.note === 'count of aisle 4').count()).toBe(0);
    expect(await mirror.db.stock_history.count()).toBe(before);
  });

  it('keeps nothing when one edit fails its validation', async () => {
    const { mirror, refs } = await setup();
    const failed = mirror.transaction(['stockup', 'stock_history'], async (tx) => {
      await tx.save('stockup', { ...refs, stock_history_type: 3 });
      await tx.save('stock_history', { ...refs, id_record: '1', stock_type: 1, stock_history_type: 'three' as unknown as number });
    });
    await expect(failed).rejects.toMatchObject({ code: 'validation' });
    expect(await mirror.pending()).toEqual([]);
  });

  it('refuses an edit of a collection it was not opened over, and keeps nothing of the scope', async () => {
    const { mirror, refs } = await setup();
    const failed = mirror.transaction(['stockup'], async (tx) => {
      await tx.save('stockup', { ...refs, stock_history_type: 3 });
      await tx.save('warehouses', { name: 'Sklad 9' });
    });
    await expect(failed).rejects.toThrow(/does not cover warehouses/);
    expect(await mirror.pending()).toEqual([]);
  });

  it('refuses an unknown collection and an empty list with a ValidationError', async () => {
    const { mirror } = await setup();
    await expect(mirror.transaction(['stockups' as never], () => Promise.resolve())).rejects.toMatchObject({ code: 'validation' });
    await expect(mirror.transaction([], () => Promise.resolve())).rejects.toMatchObject({ code: 'validation' });
  });
});
