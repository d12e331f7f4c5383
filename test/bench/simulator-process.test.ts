import { afterEach, describe, expect, it } from 'vitest';
import { lastDayOf } from '../../bench/simulator-process.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe("the benchmarks' simulator process", () => {
  it("tells the last 24 h of sales, each order with its number of items, and the catalogue's counts, from the store", async () => {
    sim = await createSimulator({ port: 0, size: 'small', seed: 3, activity: false });
    const facts = lastDayOf(sim.store);
    const day = [...sim.store.collection('orders').records()].filter((o) => (o.date_created as number) >= facts.since);
    expect(Object.keys(facts.orders).sort()).toEqual(day.map((o) => o.id as string).sort());
    expect(day.length).toBeGreaterThan(0);
    for (const order of day) expect(facts.orders[order.id as string]).toBe(sim.store.items.itemsOf(order.id as string).length);
    const priced = new Set([...sim.store.collection('product_price_matrix').records()].map((row) => row.id_product));
    expect(facts).toMatchObject({ registers: sim.store.count('cash_registers'), products: sim.store.count('products'), pricedProducts: priced.size });
    expect(sim.store.now() - facts.since).toBeGreaterThanOrEqual(24 * 60 * 60 * 1000);
  });
});
