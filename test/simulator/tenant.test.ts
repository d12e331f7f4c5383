import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId, TABLE_IDS } from '../../src/ids/index.js';
import { COLLECTIONS } from '../../src/schema/collections.js';
import { validateWrite } from '../../src/schema/index.js';
import { SIZE_PRESETS, createSimulator, type Simulator } from '../../src/simulator/index.js';
import { PRIVATE_TABLE_IDS } from '../../src/simulator/sim-ids.js';
import { consistencyProblems, integrityProblems, snapshot, type Tables } from './tenant-integrity.js';
import { historyEndProblems, shiftProblems } from './tenant-realism.js';

describe('generated tenant', () => {
  for (const size of ['tiny', 'small'] as const) {
    it(`keeps referential integrity at size ${size}`, async () => {
      const sim = await createSimulator({ size, seed: 11 });
      try {
        const tables = snapshot(sim);
        for (const name of COLLECTIONS) expect(tables[name]?.size, name).toBe(SIZE_PRESETS[size][name]);
        expect(integrityProblems(tables).slice(0, 5)).toEqual([]);
        expect(consistencyProblems(tables).slice(0, 5)).toEqual([]);
      } finally {
        await sim.close();
      }
    });
  }

  it('stamps no record after the clock start, not even a price change of a product created in the last two days (seed 22, tiny)', async () => {
    // Its second price row was planned up to two days after the product's creation, past the clock:
    // a mirror that read it kept that future _v, and skipped every later write of the row (a lower _v).
    const sim = await createSimulator({ size: 'tiny', seed: 22 });
    try {
      const start = sim.store.now();
      const late = COLLECTIONS.flatMap((name) => sim.store.list(name).filter((r) => (r._v as number) >= start || decodeId(r.id as string).createdAt >= start).map((r) => `${name} ${String(r.id)}`));
      expect(late).toEqual([]);
    } finally {
      await sim.close();
    }
  });

  describe('at size small', () => {
    let sim: Simulator;
    let tables: Tables;
    beforeAll(async () => {
      sim = await createSimulator({ size: 'small', seed: 5 });
      tables = snapshot(sim);
    });
    afterAll(async () => {
      await sim.close();
    });

    it('has records valid for their write schema', () => {
      const failures: string[] = [];
      for (const name of COLLECTIONS) {
        for (const record of tables[name]?.values() ?? []) {
          try {
            validateWrite(name, record, { now: sim.store.now() });
          } catch (error) {
            failures.push(`${name} ${String(record.id)}: ${(error as Error).message}`);
          }
        }
      }
      expect(failures.slice(0, 5)).toEqual([]);
    });

    it('composes ids from creation time and table id, multiples of 10, spread over years', () => {
      for (const name of [...COLLECTIONS, 'categories'] as const) {
        const tableId = (TABLE_IDS as Record<string, number>)[name] ?? (PRIVATE_TABLE_IDS as Record<string, number>)[name];
        for (const record of tables[name]?.values() ?? []) {
          const parts = decodeId(record.id as string);
          expect(parts.tableId, name).toBe(tableId);
          expect(BigInt(record.id as string) % 10n).toBe(0n);
          if (typeof record.date_created === 'number') expect(parts.createdAt).toBe(record.date_created);
        }
      }
      const created = [...(tables.orders?.values() ?? [])].map((o) => o.date_created as number);
      expect(Math.max(...created) - Math.min(...created)).toBeGreaterThan(2 * 365 * 86_400_000);
      const ids = [...(tables.orders?.keys() ?? [])].map(BigInt);
      expect(ids.some((id) => id > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
      expect(ids.some((id) => id <= BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
    });

    it('stamps every generated _v before the clock start, never before creation', () => {
      for (const name of COLLECTIONS) {
        for (const record of tables[name]?.values() ?? []) {
          expect(record._v as number).toBeLessThan(sim.store.now());
          if (typeof record.date_created === 'number') expect(record._v as number).toBeGreaterThanOrEqual(record.date_created);
        }
      }
    });

    it('looks like a real tenant: unicode names, nulls, e-mails, barcodes, deletions, a deep category tree', () => {
      const customers = [...(tables.customers?.values() ?? [])];
      expect(customers.some((c) => /[ěščřžýáíéůú]/i.test(`${String(c.firstname)} ${String(c.lastname)}`))).toBe(true);
      expect(customers.some((c) => c.email === null)).toBe(true);
      expect(customers.filter((c) => typeof c.email === 'string').every((c) => /^[a-z0-9.]+@[a-z.]+$/.test(c.email as string))).toBe(true);
      expect(customers.some((c) => typeof c.barcode === 'string')).toBe(true);
      expect(customers.some((c) => c._d !== 0)).toBe(true);
      const products = [...(tables.products?.values() ?? [])];
      const deleted = products.filter((p) => p._d !== 0);
      expect(deleted.length).toBeGreaterThan(0);
      expect(deleted.every((p) => p.visible === false)).toBe(true);
      expect(products.every((p) => typeof p.pgx === 'string' && p.id_c === sim.store.idC)).toBe(true);
      const depth = (node: { children: unknown[] }): number => 1 + Math.max(0, ...node.children.map((c) => depth(c as { children: unknown[] })));
      expect(Math.max(...sim.store.categories().map(depth))).toBeGreaterThanOrEqual(3);
      expect([...(tables.orders?.values() ?? [])].every((o) => typeof o._u_dyn === 'number')).toBe(true);
    });

    it('bills order totals as the sum of their items', () => {
      const totals = new Map<string, number>();
      for (const d of tables.order_details?.values() ?? []) {
        totals.set(d.id_order as string, (totals.get(d.id_order as string) ?? 0) + Math.round((d.product_price_billed_tax_incl as number) * (d.product_quantity as number)));
      }
      for (const o of tables.orders?.values() ?? []) expect(o.total_paid_tax_incl, String(o.id)).toBe(totals.get(o.id as string) ?? 0);
    });
  });

  it('gives the same data for the same seed and different data for another', async () => {
    const a = await createSimulator({ size: 'small', seed: 42 });
    const b = await createSimulator({ size: 'small', seed: 42 });
    const c = await createSimulator({ size: 'small', seed: 43 });
    try {
      for (const name of ['orders', 'customers', 'stock_history', 'stockup', 'products', 'categories', 'product_price_matrix'] as const) {
        expect(JSON.stringify(a.store.list(name))).toBe(JSON.stringify(b.store.list(name)));
      }
      expect(JSON.stringify(a.store.list('orders'))).not.toBe(JSON.stringify(c.store.list('orders')));
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('honours exact custom counts, scaling children of a given parent', async () => {
    const sim = await createSimulator({ size: { orders: 300, products: 50 } });
    try {
      expect(sim.store.count('orders')).toBe(300);
      expect(sim.store.count('order_details')).toBe(750);
      expect(sim.store.count('product_price_matrix')).toBe(65);
      expect(sim.store.count('shops')).toBe(SIZE_PRESETS.tiny.shops);
      expect(integrityProblems(snapshot(sim)).slice(0, 5)).toEqual([]);
    } finally {
      await sim.close();
    }
  });

  it('fits the trading days into the history when the counts crowd it, every register still selling up to the start', async () => {
    // More trading days than the history has days: they come closer than a day apart.
    const start = Date.UTC(2026, 0, 1);
    const sim = await createSimulator({ size: { shifts: 6000, cash_registers: 3, orders: 3000, order_details: 6000, transactions: 3000 }, seed: 3, clock: { start } });
    try {
      const tables = snapshot(sim);
      expect(integrityProblems(tables).slice(0, 5)).toEqual([]);
      expect(consistencyProblems(tables).slice(0, 5)).toEqual([]);
      expect(shiftProblems(tables).slice(0, 5)).toEqual([]);
      expect(historyEndProblems(tables, start)).toEqual([]);
    } finally {
      await sim.close();
    }
  });

  it('refuses counts that cannot make a coherent tenant', async () => {
    await expect(createSimulator({ size: { shops: 0 } })).rejects.toThrow(/shops/);
    await expect(createSimulator({ size: { shifts: 2 } })).rejects.toThrow(/shifts/);
    await expect(createSimulator({ size: { orders: 0, transactions: 5 } })).rejects.toThrow(/transactions/);
    await expect(createSimulator({ size: { bogus: 1 } as never })).rejects.toThrow(/bogus/);
  });
});
