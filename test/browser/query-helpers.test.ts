/**
 * Every query helper in a real browser, over the compound and multi-entry indexes of the engine's
 * IndexedDB, against what the simulator serves (worked out from its store, see `sim-truth.ts`):
 * with tombstones of every kind the helpers read, which they must hide.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type EngineTab } from '../../scripts/engines/index.js';
import type { PageWindow } from './page/harness.js';
import * as truth from './sim-truth.js';
import { expectNoPageErrors, freshTenant, startStage, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

describeEngines('the query helpers in %s', { timeout: 60_000 }, (engine) => {
  let stage: Stage;
  let tab: EngineTab;
  const rowsOf = (table: Parameters<Stage['sim']['store']['list']>[0]) => stage.sim.store.list(table) as truth.SimRow[];

  beforeAll(async () => {
    stage = await startStage(engine);
    deleteOneOfEach(stage);
    tab = await stage.openPage();
    await tab.evaluate(
      async ({ token, tenant }) => {
        const page = window as unknown as PageWindow;
        await page.conformance.openMirror({ token, tenant }).syncNow();
      },
      { token: stage.sim.token, tenant: freshTenant('queries') },
    );
  }, 90_000);

  afterAll(async () => {
    await tab?.evaluate(() => (window as unknown as PageWindow).mirror.close()).catch(() => undefined);
    await tab?.close();
    expectNoPageErrors(stage);
    await stage?.close();
  });

  it('ordersOfRegister: each register\'s live orders, newest first, up to the limit', async () => {
    const registers = rowsOf('cash_registers').map((r) => r.id);
    const answers = await tab.evaluate(
      (ids) => Promise.all(ids.flatMap((id) => [3, 100].map(async (limit) => (await (window as unknown as PageWindow).mirror.query.ordersOfRegister(id, { limit })).map((o) => o.id)))),
      registers,
    );
    expect(answers).toEqual(registers.flatMap((id) => [3, 100].map((limit) => truth.ordersOfRegister(stage.sim, id, limit))));
    expect(answers.flat().length).toBeGreaterThan(0);
  });

  it('itemsOfOrder: the live items of each order', async () => {
    const orders = rowsOf('orders').map((o) => o.id);
    const answers = await tab.evaluate(
      (ids) => Promise.all(ids.map(async (id) => (await (window as unknown as PageWindow).mirror.query.itemsOfOrder(id)).map((i) => i.id))),
      orders,
    );
    const byId = (a: string, b: string) => a.length - b.length || (a < b ? -1 : 1);
    expect(answers.map((ids) => [...ids].sort(byId))).toEqual(orders.map((id) => truth.itemsOfOrder(stage.sim, id)));
  });

  it('productByCode: by barcode, EAN-13 or SKU, never a deleted product', async () => {
    const codes = [...new Set(rowsOf('products').flatMap((p) => [p.barcode, p.ean13, p.sku].filter((c): c is string => typeof c === 'string' && c !== '')))];
    codes.push('0000000000000');
    const answers = await tab.evaluate(
      (list) => Promise.all(list.map(async (code) => (await (window as unknown as PageWindow).mirror.query.productByCode(code))?.id ?? null)),
      codes,
    );
    expect(answers).toEqual(codes.map((code) => truth.productByCode(stage.sim, code) ?? null));
    expect(answers.filter((id) => id !== null).length).toBeGreaterThan(5);
  });

  it('searchProducts: words typed without accents find names and categories with them, ranked as documented', async () => {
    // "kava" finds "Káva" (a category) and "Turecká káva" (a name); the others as a shop person types them.
    const texts = ['kava', 'KÁVA', 'káva', 'caj', 'čaj sebou', 'latte s', 'pivo', 'mocha', 'palava 0', 'zzz'];
    const answers = await tab.evaluate(
      (list) => Promise.all(list.map(async (text) => (await (window as unknown as PageWindow).mirror.query.searchProducts(text, { limit: 50 })).map((p) => p.id))),
      texts,
    );
    expect(answers).toEqual(texts.map((text) => truth.searchProducts(stage.sim, text, 50)));
    expect(answers[0]!.length).toBeGreaterThan(1);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('priceOf: the price row in force at a given time', async () => {
    const products = rowsOf('products').map((p) => p.id);
    const at = Date.now();
    const answers = await tab.evaluate(
      ({ ids, at }) => Promise.all(ids.map(async (id) => (await (window as unknown as PageWindow).mirror.query.priceOf(id, { at }))?.id ?? null)),
      { ids: products, at },
    );
    expect(answers).toEqual(products.map((id) => truth.priceOf(stage.sim, id, at) ?? null));
    expect(answers.filter((id) => id !== null).length).toBeGreaterThan(5);
  });

  it('categoryTree: live categories as a tree, a deleted category\'s children as roots', async () => {
    type Shape = [string, Shape][];
    const answer = await tab.evaluate(async () => {
      type Node = { id: string; children: Node[] };
      const shape = (nodes: Node[]): Shape => nodes.map((n) => [n.id, shape(n.children)]);
      return shape((await (window as unknown as PageWindow).mirror.query.categoryTree()) as Node[]);
    });
    expect(answer).toEqual(truth.categoryTree(stage.sim));
  });

  it('stockRows: the live rows of each warehouse, and of one product in it (the compound index)', async () => {
    const pairs = [...new Set(rowsOf('stock_history').map((r) => `${String(r.id_warehouse)} ${String(r.id_record)}`))].map((p) => p.split(' ') as [string, string]);
    const warehouses = [...new Set(pairs.map(([w]) => w))];
    const answers = await tab.evaluate(
      ({ warehouses, pairs }) => {
        const { query } = (window as unknown as PageWindow).mirror;
        const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
        return Promise.all([
          ...warehouses.map(async (w) => ids(await query.stockRows(w))),
          ...pairs.map(async ([w, p]) => ids(await query.stockRows(w, { idProduct: p }))),
        ]);
      },
      { warehouses, pairs },
    );
    const byId = (a: string, b: string) => a.length - b.length || (a < b ? -1 : 1);
    expect(answers.map((ids) => [...ids].sort(byId))).toEqual([
      ...warehouses.map((w) => truth.stockRows(stage.sim, w)),
      ...pairs.map(([w, p]) => truth.stockRows(stage.sim, w, p)),
    ]);
  });
});

/**
 * Deletes, on the server, one record of each kind a helper reads (an order, an order item, a
 * product with a barcode, a price row in force, a stock row, a category with children), so that
 * every helper has a tombstone to hide.
 */
function deleteOneOfEach(stage: Stage): void {
  const { store } = stage.sim;
  const first = (table: Parameters<typeof store.list>[0], accept: (row: truth.SimRow) => boolean) => {
    const found = (store.list(table) as truth.SimRow[]).find((row) => truth.live(row) && accept(row));
    if (!found) throw new Error(`the tiny tenant has no ${table} record to delete`);
    return found.id;
  };
  const now = Date.now();
  store.remove('orders', first('orders', () => true));
  store.remove('order_details', first('order_details', () => true));
  store.remove('products', first('products', (p) => typeof p.barcode === 'string' && p.barcode !== ''));
  store.remove('product_price_matrix', first('product_price_matrix', (r) => Number(r.date_starts) <= now && r.date_expires == null));
  store.remove('stock_history', first('stock_history', () => true));
  const parents = new Set((store.list('categories') as truth.SimRow[]).map((c) => String(c.id_category_parent)));
  // The category tree is read-only in the service: the back office deletes a category in the store itself.
  const category = store.get('categories', first('categories', (c) => parents.has(c.id)))!;
  store.collection('categories').put({ ...category, _d: now, _v: store.advanceClock(1) }, category);
}
