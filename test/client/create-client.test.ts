import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Client, RecordPage } from '../../src/client/index.js';
import { AuthError, HttpError, InvalidCursorError } from '../../src/errors/index.js';
import { compareIds } from '../../src/ids/id.js';
import { COLLECTIONS, type CollectionName } from '../../src/schema/collections.js';
import { COLLECTION_INFO } from '../../src/schema/index.js';
import { createSimulator, DEFAULT_SWITCHES, type Simulator } from '../../src/simulator/index.js';
import { simClient } from './helpers/sim-client.js';

async function all<T>(pages: AsyncIterable<RecordPage<T>>): Promise<RecordPage<T>[]> {
  const out: RecordPage<T>[] = [];
  for await (const page of pages) out.push(page);
  return out;
}

/** Ids the simulator holds for `collection`, in the collection's default traversal order. */
function storeIds(sim: Simulator, collection: CollectionName): string[] {
  const ids = sim.store.list(collection).map((r) => r.id as string).sort(compareIds);
  return COLLECTION_INFO[collection].defaultDirection === 'backward' ? ids.reverse() : ids;
}

describe('createClient against the simulator', () => {
  let sim: Simulator;
  let client: Client;
  beforeAll(async () => {
    sim = await createSimulator({ size: 'tiny', seed: 11 });
    client = simClient(sim).client;
  });
  afterEach(() => {
    sim.setOptions(DEFAULT_SWITCHES);
    sim.setFaults({});
  });
  afterAll(() => sim.close());

  describe.each([
    { idStartInclusive: false, idsAsStrings: false },
    { idStartInclusive: true, idsAsStrings: false },
    { idStartInclusive: false, idsAsStrings: true },
    { idStartInclusive: true, idsAsStrings: true },
  ])('pages() with %o', (switches) => {
    it('reads every record of every collection exactly once, in order, with nothing rejected', async () => {
      sim.setOptions(switches);
      for (const collection of COLLECTIONS) {
        const pages = await all(client.pages(collection, { limit: 7 }));
        const ids = pages.flatMap((p) => p.map((r) => r.id));
        expect(ids, collection).toEqual(storeIds(sim, collection));
        expect(pages.flatMap((p) => p.rejected), collection).toEqual([]);
        expect(pages.at(-1)?.done).toBe(true);
      }
    });
  });

  it('keeps unknown fields and hydrations, and normalizes every id to a string', async () => {
    const [product] = await client.list('products', { limit: 1 });
    expect(typeof product?.id).toBe('string');
    expect(typeof product?.id_c).toBe('string');
    expect(product).toHaveProperty('pgx');
    expect(product).toHaveProperty('__price_matrix_model');
  });

  it('stamps each page with the server time from the Date header', async () => {
    const page = await client.list('shops');
    expect(page.serverTime).toBe(Math.floor(sim.store.now() / 1000) * 1000);
  });

  it('resumes a traversal from a saved cursor without gaps or repeats', async () => {
    const first = await client.list('customers', { limit: 8 });
    const rest = await all(client.pages('customers', { limit: 8, idStart: first.cursor ?? '0' }));
    expect([...first, ...rest.flat()].map((r) => r.id)).toEqual(storeIds(sim, 'customers'));
  });

  it('filters by version_start', async () => {
    const versions = sim.store.list('products').map((r) => r._v as number).sort((a, b) => a - b);
    const from = versions[Math.floor(versions.length / 2)] ?? 0;
    const ids = (await all(client.pages('products', { versionStart: from }))).flatMap((p) => p.map((r) => r.id));
    const expected = sim.store.list('products').filter((r) => (r._v as number) >= from).map((r) => r.id as string).sort(compareIds);
    expect(ids).toEqual(expected);
  });

  it('gets one product and one customer by id, and a 404 for an unknown one', async () => {
    const productId = storeIds(sim, 'products')[3] as string;
    const customerId = storeIds(sim, 'customers')[4] as string;
    expect((await client.get('products', productId)).name).toBe(sim.store.get('products', productId)?.name);
    expect((await client.get('customers', customerId)).id).toBe(customerId);
    await expect(client.get('products', '12345')).rejects.toMatchObject({ name: 'HttpError', status: 404 });
    await expect(client.get('orders' as 'products', productId)).rejects.toThrow(/only products and customers/);
  });

  it.each(['records', 'ids', 'empty'] as const)('creates and updates records with POST (server answers %s)', async (postResponse) => {
    sim.setOptions({ postResponse });
    const before = sim.store.count('warehouses');
    await client.save('warehouses', { name: `Depot ${postResponse}` });
    expect(sim.store.count('warehouses')).toBe(before + 1);
    const existing = sim.store.list('customers')[0] as { id: string };
    await client.save('customers', [{ ...existing, note_internal: `edited ${postResponse}` }]);
    expect(sim.store.get('customers', existing.id)?.note_internal).toBe(`edited ${postResponse}`);
  });

  it('reads the category tree', async () => {
    const roots = await client.categories();
    expect(roots.map((c) => c.id)).toEqual(sim.store.categories().map((c) => String(c.id)));
    expect(roots.rejected).toEqual([]);
    const count = (nodes: readonly { children?: unknown }[]): number =>
      nodes.reduce((n, c) => n + 1 + count((c.children as { children?: unknown }[] | undefined) ?? []), 0);
    expect(count(roots)).toBe(sim.store.count('categories' as CollectionName));
  });

  it('reads the prices of a product', async () => {
    const productId = sim.store.list('product_price_matrix')[0]?.id_product as string;
    const prices = (await client.priceByProductId(productId)) as { id_product: unknown }[];
    expect(prices.length).toBeGreaterThan(0);
    expect(prices.every((p) => String(p.id_product) === productId)).toBe(true);
  });

  it('reads the latest orders of a register, newest first, optionally by payment form', async () => {
    const register = sim.store.list('orders').at(-1)?.id_cash_register as string;
    const latest = await client.latestOrders(register);
    expect(latest.length).toBeGreaterThan(0);
    expect(latest.length).toBeLessThanOrEqual(40);
    expect(latest.every((o) => o.id_cash_register === register)).toBe(true);
    expect([...latest.map((o) => o.id)].sort(compareIds).reverse()).toEqual(latest.map((o) => o.id));
    const cash = await client.latestOrders(register, { idPayment: 221 });
    expect(cash.every((o) => o.id_payment === 221)).toBe(true);
  });

  it('reads one order with its items', async () => {
    const order = sim.store.list('order_details')[0] as { id_order: string; id_cash_register: string };
    const withItems = await client.orderWithItems(order.id_cash_register, order.id_order);
    expect(withItems.id).toBe(order.id_order);
    const expected = sim.store.list('order_details').filter((d) => d.id_order === order.id_order).map((d) => d.id as string).sort(compareIds);
    expect((withItems.__order_details ?? []).map((d) => d.id).sort(compareIds)).toEqual(expected);
  });

  it('runs the warehouse_status and order_history reports', async () => {
    const warehouse = sim.store.list('stock_history')[0]?.id_warehouse as string;
    const status = await client.warehouseStatus({ id_warehouse: warehouse, timezone: 'Europe/Prague' });
    expect(typeof status.source).toBe('string');
    expect(status.data.every((row) => row.id_warehouse === warehouse)).toBe(true);
    expect(status.data.length).toBeGreaterThan(0);
    const history = await client.orderHistory({ date_start: 0, date_end: sim.store.now(), timezone: 'Europe/Prague' });
    expect(history).toBeDefined();
    await expect(client.warehouseStatus({} as { id_warehouse: string })).rejects.toThrow(/id_warehouse/);
  });

  it('turns the 400 of an id_start the server cannot read into InvalidCursorError', async () => {
    await expect(client.list('products', { idStart: '123456789012345678901234' })).rejects.toBeInstanceOf(InvalidCursorError);
  });

  it('answers a wrong token with AuthError, and works again after setToken', async () => {
    const { client: wrong, retries } = simClient(sim, { token: 'not-the-token' });
    await expect(wrong.list('shops')).rejects.toBeInstanceOf(AuthError);
    expect(retries).toEqual([]);
    wrong.setToken(sim.token);
    await expect(wrong.list('shops')).resolves.toHaveLength(sim.store.count('shops'));
  });

  it('sends the app\'s user agent in both headers', async () => {
    await client.list('shops');
    expect(sim.requests.lastHeaders()).toMatchObject({
      'user-agent': 'pos-cloud-mirror tests (dev@example.com)',
      'x-client-user-agent': 'pos-cloud-mirror tests (dev@example.com)',
      accept: 'application/json',
      'content-type': 'application/json',
    });
  });

  it('falls back to the earlier /list and orders/latest forms, and remembers them', async () => {
    sim.setOptions({ legacyPathsOnly: true });
    const { client: legacy } = simClient(sim);
    sim.requests.clear();
    const shops = await all(legacy.pages('shops', { limit: 1 }));
    expect(shops.flat().map((s) => s.id)).toEqual(storeIds(sim, 'shops'));
    expect(sim.requests.recent().map((r) => `${r.status} ${r.route}`)).toEqual([
      '404 GET (unknown)',
      '200 GET /shops/list',
      '200 GET /shops/list',
      '200 GET /shops/list',
    ]);
    expect((await legacy.categories()).length).toBe(sim.store.categories().length);
    const register = sim.store.list('orders').at(-1)?.id_cash_register as string;
    const latest = await legacy.latestOrders(register);
    expect(latest.length).toBeGreaterThan(0);
    expect(latest.every((o) => o.id_cash_register === register)).toBe(true);
    sim.requests.clear();
    await legacy.latestOrders(register);
    await legacy.list('employees'); // no earlier form: never asked for one
    expect(sim.requests.recent().map((r) => r.route)).toEqual(['GET /orders/latest', 'GET /employees']);
  });

  it('does not take a 404 for an unknown record as a sign of an older server', async () => {
    const { client: fresh } = simClient(sim);
    const register = sim.store.list('orders').at(-1)?.id_cash_register as string;
    await fresh.latestOrders(register);
    await expect(fresh.latestOrders('777')).rejects.toBeInstanceOf(HttpError);
    sim.requests.clear();
    await fresh.latestOrders(register);
    expect(sim.requests.recent().map((r) => r.route)).toEqual(['GET /orders/latest/:id_cash_register']);
  });
});
