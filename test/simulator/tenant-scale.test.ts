import { describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../../src/schema/collections.js';
import { SIZE_PRESETS, createSimulator } from '../../src/simulator/index.js';
import { api, idOf } from './helpers.js';
import { consistencyProblems, integrityProblems, snapshot } from './tenant-integrity.js';
import { historyEndProblems, shiftProblems } from './tenant-realism.js';

describe('generated tenant at scale', () => {
  it('keeps referential integrity at size medium, with every register selling every day of the last month', async () => {
    const start = Date.UTC(2026, 0, 1);
    const sim = await createSimulator({ size: 'medium', seed: 11, clock: { start } });
    try {
      const tables = snapshot(sim);
      for (const name of COLLECTIONS) expect(tables[name]?.size, name).toBe(SIZE_PRESETS.medium[name]);
      expect(integrityProblems(tables).slice(0, 5)).toEqual([]);
      expect(consistencyProblems(tables).slice(0, 5)).toEqual([]);
      expect(shiftProblems(tables).slice(0, 5)).toEqual([]);
      expect(historyEndProblems(tables, start, 30)).toEqual([]);
    } finally {
      await sim.close();
    }
  });

  it('starts a large tenant (about a million records) and serves pages from anywhere in it', async () => {
    const sim = await createSimulator({ size: 'large', seed: 3 });
    try {
      const total = COLLECTIONS.reduce((n, c) => n + sim.store.count(c), 0);
      expect(total).toBeGreaterThan(1_000_000);
      const orders = sim.store.collection('orders');
      const middle = orders.idAt(Math.floor(orders.count / 2));
      const client = api(sim);
      const page = await client.list(`/orders?direction=forward&limit=400&id_start=${middle}`);
      expect(page).toHaveLength(400);
      expect(idOf(page[0]?.id)).toBe(orders.idAt(Math.floor(orders.count / 2) + 1));
      const items = await client.get(`/orders_details/${String(page[0]?.id_cash_register)}/${idOf(page[0]?.id)}`);
      expect(items.status).toBe(200);
    } finally {
      await sim.close();
    }
  });

});
