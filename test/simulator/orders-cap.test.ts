import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { api, type Rec } from './helpers.js';

const SIX_MB = 6 * 1024 * 1024;

describe('orders response cap', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ seed: 31 });
    // 2000 orders with 3.5 kB notes: a full page of them is about 9 MB of JSON.
    const shift = sim.store.list('shifts').at(-1) as Rec;
    const order = { _t: 'orders', id_shop: shift.id_shop, id_cash_register: shift.id_cash_register, id_shift: shift.id, id_employee: shift.id_employee, id_employee_served: shift.id_employee, id_park_location: 0, currency: 'CZK', note: 'Poznámka '.repeat(390) };
    const answer = await api(sim).post('/orders', Array.from({ length: 2000 }, () => order));
    expect(answer.status).toBe(200);
  });
  afterAll(async () => {
    await sim.close();
  });

  it('answers 500 when an orders page would pass 6 MB', async () => {
    const answer = await api(sim).get('/orders?limit=2000');
    expect(answer.status).toBe(500);
    expect(answer.json).toMatchObject({ error: 'response_too_large' });
    expect((answer.json as { message: string }).message).toContain(String(SIX_MB));
  });

  it('serves a page that stays under the cap', async () => {
    const answer = await api(sim).get('/orders?limit=1000');
    expect(answer.status).toBe(200);
    expect((answer.json as Rec[]).length).toBe(1000);
    expect(Buffer.byteLength(answer.text)).toBeLessThanOrEqual(SIX_MB);
  });

  it('cuts the page at a record boundary under ordersOverCap: truncate', async () => {
    sim.setOptions({ ordersOverCap: 'truncate' });
    try {
      const answer = await api(sim).get('/orders?limit=2000');
      expect(answer.status).toBe(200);
      const records = answer.json as Rec[];
      expect(records.length).toBeGreaterThan(1000);
      expect(records.length).toBeLessThan(2000);
      expect(Buffer.byteLength(answer.text)).toBeLessThanOrEqual(SIX_MB);
      expect(Buffer.byteLength(answer.text)).toBeGreaterThan(SIX_MB - 5000);
    } finally {
      sim.setOptions({ ordersOverCap: 'error' });
    }
  });

  it('applies a configured cap, to orders only', async () => {
    sim.setOptions({ ordersMaxBytes: 40_000 });
    try {
      expect((await api(sim).get('/orders?limit=5')).status).toBe(200);
      expect((await api(sim).get('/orders?limit=10')).status).toBe(500);
      expect((await api(sim).get('/order_details?limit=400')).status).toBe(200);
    } finally {
      sim.setOptions({ ordersMaxBytes: SIX_MB });
    }
  });
});
