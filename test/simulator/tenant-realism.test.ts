import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../src/simulator/index.js';
import { snapshot, type Tables } from './tenant-integrity.js';
import {
  categoryNameProblems,
  historyEndProblems,
  medianOrderTotal,
  negativeStockProblems,
  orderFitProblems,
  productNameProblems,
  receiptProblems,
  shiftProblems,
  stockOf,
} from './tenant-realism.js';

/** Tenants of several seeds at the sizes the examples and tests use. */
const TENANTS = [
  ['tiny', 21],
  ['tiny', 33],
  ['tiny', 5],
  ['small', 5],
  ['small', 11],
  ['small', 7],
] as const;

/** The clock's start of these tenants: their history ends just before it. */
const START = Date.UTC(2026, 0, 1);

async function tenantOf(size: 'tiny' | 'small', seed: number): Promise<Tables> {
  const sim = await createSimulator({ size, seed, clock: { start: START } });
  try {
    return snapshot(sim);
  } finally {
    await sim.close();
  }
}

describe('generated tenant, as a shop would see it', () => {
  for (const [size, seed] of TENANTS) {
    describe(`at size ${size}, seed ${seed}`, () => {
      let tables: Tables | undefined;
      const data = async () => (tables ??= await tenantOf(size, seed));

      it('names products as their category sells them, without made-up suffixes, each name once', async () => {
        const t = await data();
        const names = [...(t.products?.values() ?? [])].map((p) => String(p.name));
        expect(names.filter((n) => /#\d/.test(n))).toEqual([]);
        expect(productNameProblems(t).slice(0, 5)).toEqual([]);
        expect(new Set(names).size).toBe(names.length);
      });

      it('names categories without repeating a word, siblings apart', async () => {
        expect(categoryNameProblems(await data())).toEqual([]);
      });

      it('numbers receipts per register: 1, 2, 3... in the order each register printed them', async () => {
        const t = await data();
        expect(receiptProblems(t).slice(0, 5)).toEqual([]);
        const registers = new Set([...(t.orders?.values() ?? [])].map((o) => o.id_cash_register));
        expect(registers.size).toBeGreaterThan(1);
      });

      it('sells in each shop what its kind sells, within what such a shop takes for one order', async () => {
        const t = await data();
        expect(orderFitProblems(t).slice(0, 5)).toEqual([]);
        // A café's typical order is a coffee and a cake, not a banquet.
        expect(medianOrderTotal(t, 'Kavárna')).toBeLessThanOrEqual(400_000);
      });

      it('sells at every register up to the clock start, as a shop that sells every day does', async () => {
        // Small tenants have shifts enough for every day of the last week at each register; tiny ones for the last day.
        expect(historyEndProblems(await data(), START, size === 'small' ? 7 : 0)).toEqual([]);
      });

      it('keeps each order within the hours of its shift, and each register in one shift at a time', async () => {
        expect(shiftProblems(await data()).slice(0, 5)).toEqual([]);
      });

      it('never takes a warehouse below zero of any product', async () => {
        expect(negativeStockProblems(await data()).slice(0, 5)).toEqual([]);
      });

      it('keeps stock in the central warehouse as well as in the shops', async () => {
        const t = await data();
        const warehouses = [...(t.warehouses?.values() ?? [])];
        const central = warehouses.find((w) => w.shared === true);
        expect(central, 'a shared central warehouse').toBeDefined();
        expect(stockOf(t, String(central?.id)).size).toBeGreaterThan(0);
        const selling = new Set([...(t.order_details?.values() ?? [])].map((d) => String(d.id_warehouse)));
        for (const w of selling) expect(stockOf(t, w).size, `warehouse ${w}`).toBeGreaterThan(0);
      });
    });
  }
});
