import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../../src/schema/collections.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { api, idOf, idsOf, type Rec } from './helpers.js';

describe('endpoints', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ size: 'small', seed: 21 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('serves GET and POST on all 14 collections', async () => {
    for (const c of COLLECTIONS) {
      const answer = await api(sim).get(`/${c}?limit=2`);
      expect(answer.status, c).toBe(200);
      expect((answer.json as Rec[]).every((r) => r._t === c)).toBe(true);
      expect((await api(sim).post(`/${c}`, [])).status, c).toBe(200);
    }
  });

  it('hydrates each product of a list with its current price row', async () => {
    const products = await api(sim).list('/products?limit=400');
    const withPrice = products.filter((p) => p.__price_matrix_model !== null);
    expect(withPrice.length).toBeGreaterThan(300);
    for (const p of withPrice) {
      const row = p.__price_matrix_model as Rec;
      expect(idOf(row.id_product)).toBe(idOf(p.id));
      expect(row.date_expires).toBeNull();
    }
    const id = idOf(withPrice[0]?.id);
    const rows = sim.store.list('product_price_matrix').filter((r) => r.id_product === id);
    const current = rows.sort((a, b) => (b.date_starts as number) - (a.date_starts as number))[0];
    expect(idOf((withPrice[0]?.__price_matrix_model as Rec).id)).toBe(current?.id);
  });

  it('follows a new price row into the hydration and the price list', async () => {
    const product = sim.store.list('products').find((p) => p._d === 0) as Rec;
    const now = sim.store.now();
    const answer = await api(sim).post('/product_price_matrix', { _t: 'product_price_matrix', id_product: product.id, date_starts: now - 1000, currency: 'CZK', unit_price_base_tax_incl: 99.9 });
    expect(answer.status).toBe(200);
    const single = (await api(sim).get(`/products/${String(product.id)}`)).json as Rec;
    expect((single.__price_matrix_model as Rec).unit_price_base_tax_incl).toBe(99.9);
    const prices = (await api(sim).get(`/products/get-price-by-product-id/${String(product.id)}`)).json as Rec[];
    expect(prices[0]?.unit_price_base_tax_incl).toBe(99.9);
    expect(prices.every((r) => idOf(r.id_product) === product.id)).toBe(true);
  });

  it('answers products/{id} and customers/{id}, 404 with a JSON body when unknown, 400 for a non-id', async () => {
    const customer = sim.store.list('customers')[3] as Rec;
    const one = await api(sim).get(`/customers/${String(customer.id)}`);
    expect(one.status).toBe(200);
    expect(idOf((one.json as Rec).id)).toBe(customer.id);
    for (const path of ['/customers/10', '/products/10', '/products/get-price-by-product-id/10']) {
      const missing = await api(sim).get(path);
      expect(missing.status, path).toBe(404);
      expect(missing.json).toMatchObject({ error: 'not_found' });
    }
    expect((await api(sim).get('/products/abc')).json).toMatchObject({ error: 'invalid_id' });
  });

  it('returns the root categories with nested children', async () => {
    const roots = (await api(sim).get('/categories')).json as (Rec & { children: Rec[] })[];
    expect(roots.length).toBeGreaterThan(1);
    expect(roots.every((r) => idOf(r.id_category_parent) === '0')).toBe(true);
    const child = roots.flatMap((r) => r.children)[0] as Rec & { children: Rec[] };
    expect(idOf(child.id_category_parent)).toBe(idOf(roots.find((r) => r.children.includes(child))?.id));
    const count = (nodes: { children: unknown[] }[]): number => nodes.reduce((n, c) => n + 1 + count(c.children as { children: unknown[] }[]), 0);
    expect(count(roots)).toBe(sim.store.count('categories'));
  });

  it('returns the latest 40 orders of a register, newest first, optionally by payment form', async () => {
    const register = sim.store.list('cash_registers')[0] as Rec;
    const orders = sim.store.list('orders').filter((o) => o.id_cash_register === register.id && o._d === 0);
    const latest = await api(sim).list(`/orders/latest/${String(register.id)}`);
    expect(idsOf(latest)).toEqual(orders.map((o) => o.id).reverse().slice(0, 40));
    const cash = await api(sim).list(`/orders/latest/${String(register.id)}?id_payment=221`);
    expect(cash.length).toBeGreaterThan(0);
    expect(cash.every((o) => o.id_payment === 221)).toBe(true);
    expect(idsOf(cash)).toEqual(orders.filter((o) => o.id_payment === 221).map((o) => o.id).reverse().slice(0, 40));
    expect((await api(sim).get('/orders/latest/10')).status).toBe(404);
    expect((await api(sim).get(`/orders/latest/${String(register.id)}?id_payment=cash`)).status).toBe(400);
  });

  it('serves the earlier orders/latest form as the latest 40 overall', async () => {
    const latest = await api(sim).list('/orders/latest');
    expect(idsOf(latest)).toEqual(sim.store.list('orders').map((o) => o.id).reverse().slice(0, 40));
  });

  it('returns one order with its items under orders_details/{register}/{order}', async () => {
    const item = sim.store.list('order_details')[100] as Rec;
    const order = sim.store.get('orders', item.id_order as string) as Rec;
    const answer = await api(sim).get(`/orders_details/${String(order.id_cash_register)}/${String(order.id)}`);
    expect(answer.status).toBe(200);
    const body = answer.json as Rec & { __order_details: Rec[] };
    expect(idOf(body.id)).toBe(order.id);
    const expected = sim.store.list('order_details').filter((d) => d.id_order === order.id).map((d) => d.id);
    expect(idsOf(body.__order_details)).toEqual(expected);
    const other = (sim.store.list('cash_registers').find((r) => r.id !== order.id_cash_register) as Rec).id;
    expect((await api(sim).get(`/orders_details/${String(other)}/${String(order.id)}`)).status).toBe(404);
  });

  it('serves the /list forms of the eight collections that have one', async () => {
    for (const c of ['products', 'product_price_matrix', 'shops', 'cash_registers', 'customers', 'orders', 'order_details']) {
      const current = await api(sim).get(`/${c}?limit=3`);
      const legacy = await api(sim).get(`/${c}/list?limit=3`);
      expect(legacy.status, c).toBe(200);
      expect(legacy.text).toBe(current.text);
    }
    expect((await api(sim).get('/categories/list')).text).toBe((await api(sim).get('/categories')).text);
    expect((await api(sim).get('/employees/list')).status).toBe(404);
  });

  it('answers 404 on the current forms under legacyPathsOnly, and keeps the rest', async () => {
    const register = sim.store.list('cash_registers')[0] as Rec;
    sim.setOptions({ legacyPathsOnly: true });
    try {
      for (const path of ['/products', '/customers', '/orders', '/categories', `/orders/latest/${String(register.id)}`]) {
        expect((await api(sim).get(path)).status, path).toBe(404);
      }
      for (const path of ['/products/list', '/orders/list', '/categories/list', '/orders/latest', '/employees', '/shifts']) {
        expect((await api(sim).get(path)).status, path).toBe(200);
      }
    } finally {
      sim.setOptions({ legacyPathsOnly: false });
    }
  });

  it('answers 405 with Allow for a known path and a wrong method', async () => {
    const answer = await api(sim).post('/categories', {});
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET');
  });

  it('sends a Date header from the simulator clock', async () => {
    const before = sim.store.now();
    const date = Date.parse((await api(sim).get('/shops')).headers.get('date') ?? '');
    expect(date).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(date).toBeLessThan(Date.UTC(2026, 0, 2));
  });
});

describe('reports', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ size: 'small', seed: 22 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('computes warehouse_status rows from stock history quantities', async () => {
    const history = sim.store.list('stock_history');
    const warehouseId = history[0]?.id_warehouse as string;
    const rows = history.filter((h) => h.id_warehouse === warehouseId && h._d === 0);
    const sums = new Map<string, { cnt: number; sum: number }>();
    for (const h of rows) {
      const s = sums.get(h.id_record as string) ?? { cnt: 0, sum: 0 };
      s.cnt++;
      s.sum += h.quanity as number;
      sums.set(h.id_record as string, s);
    }
    const answer = await api(sim).post('/reports/generic/warehouse_status', { id_warehouse: warehouseId, timezone: 'Europe/Prague' });
    expect(answer.status).toBe(200);
    const body = answer.json as { data: Rec[]; source: string };
    expect(body.source).toBe('warehouse_status');
    expect(body.data).toHaveLength(sums.size);
    for (const row of body.data) {
      const s = sums.get(idOf(row.id_product));
      expect(row.qty_cnt).toBe(s?.cnt);
      expect(row.qty_sum).toBeCloseTo(s?.sum ?? NaN, 6);
      expect(idOf(row.id_warehouse)).toBe(warehouseId);
      expect(typeof row.pname).toBe('string');
      expect(typeof row.wname).toBe('string');
    }
  });

  it('updates warehouse_status as stock moves', async () => {
    const product = sim.store.list('products').find((p) => p._d === 0) as Rec;
    const warehouse = sim.store.list('warehouses')[0] as Rec;
    const report = async () => ((await api(sim).post('/reports/generic/warehouse_status', { id_warehouse: warehouse.id })).json as { data: Rec[] }).data.find((r) => idOf(r.id_product) === product.id);
    const before = await report();
    sim.store.moveStock({ idProduct: product.id as string, idWarehouse: warehouse.id as string, quantity: 12, unitPrice: 20_000 });
    const after = await report();
    expect(after?.qty_cnt).toBe(((before?.qty_cnt as number | undefined) ?? 0) + 1);
    expect(after?.qty_sum as number).toBeCloseTo(((before?.qty_sum as number | undefined) ?? 0) + 12, 6);
    expect(after?.pp_unit).toBe(20_000);
  });

  it('requires id_warehouse (400), knows its warehouses (404) and time zones (400)', async () => {
    const missing = await api(sim).post('/reports/generic/warehouse_status', { timezone: 'UTC' });
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ error: 'validation', issues: [{ path: ['id_warehouse'] }] });
    expect((await api(sim).post('/reports/generic/warehouse_status', { id_warehouse: 'x' })).status).toBe(400);
    expect((await api(sim).post('/reports/generic/warehouse_status', { id_warehouse: 10 })).status).toBe(404);
    const warehouse = sim.store.list('warehouses')[0] as Rec;
    expect((await api(sim).post('/reports/generic/warehouse_status', { id_warehouse: warehouse.id, timezone: 'Mars/Olympus' })).status).toBe(400);
    expect((await api(sim).post('/reports/generic/warehouse_status', '{')).status).toBe(400);
  });

  it('lists order_history between two dates for a register, with totals', async () => {
    const orders = sim.store.list('orders');
    const register = orders[0]?.id_cash_register as string;
    const start = orders[0]?.date_created as number;
    const end = orders[Math.floor(orders.length / 2)]?.date_created as number;
    const expected = orders.filter((o) => o.id_cash_register === register && (o.date_created as number) >= start && (o.date_created as number) < end);
    const answer = await api(sim).post('/reports/generic/order_history', { date_start: start, date_end: end, timezone: 'Europe/Prague', id_cash_register: register });
    expect(answer.status).toBe(200);
    const body = answer.json as { data: Rec[]; totals: Rec; truncated: boolean; source: string };
    expect(body.source).toBe('order_history');
    expect(idsOf(body.data)).toEqual(expected.map((o) => o.id));
    const live = expected.filter((o) => o.date_canceled === null);
    expect(body.totals).toEqual({
      orders: expected.length,
      canceled: expected.length - live.length,
      total_paid_tax_incl: live.reduce((s, o) => s + (o.total_paid_tax_incl as number), 0),
      total_paid_tax_excl: live.reduce((s, o) => s + (o.total_paid_tax_excl as number), 0),
    });
    expect(body.truncated).toBe(false);
    expect(body.data[0]?.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('requires the order_history dates and checks its filters', async () => {
    expect((await api(sim).post('/reports/generic/order_history', { date_end: 5 })).json).toMatchObject({ issues: [{ path: ['date_start'] }] });
    expect((await api(sim).post('/reports/generic/order_history', { date_start: 9, date_end: 5 })).status).toBe(400);
    expect((await api(sim).post('/reports/generic/order_history', { date_start: 0, date_end: 5, id_shop: 10 })).status).toBe(404);
    expect((await api(sim).post('/reports/generic/order_history', { date_start: 0, date_end: 5, id_shop: 0 })).status).toBe(200);
  });
});
