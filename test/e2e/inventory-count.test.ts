/**
 * The Stock count app in headless Chromium against the simulator: expected quantities from the
 * warehouse report, a count made with the network off (browser offline and the app server
 * stopped) that survives a reload, booked as a stock-up with stock history rows created on the
 * device, and pushed exactly once when the network is back.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { POLL, SLOW, screenshot, startStage, waitForSyncRun, type Stage } from './harness.js';
import { postsOf } from './sim-facts.js';

type Rec = Record<string, unknown> & { id: string };

/** The app books counted − expected rounded to 3 decimals (the report's precision). */
const round3 = (x: number) => Math.round(x * 1000) / 1000;

describe('Stock count in headless Chromium', { timeout: 90_000 }, () => {
  let stage: Stage;
  let page: Page;
  let warehouseId: string;
  let picked: { product: Rec; expected: number }[];

  const report = async () => {
    const client = createClient({ baseUrl: stage.sim.baseUrl, token: stage.sim.token, userAgent: 'pos-cloud-mirror e2e test' });
    const rows = (await client.warehouseStatus({ id_warehouse: warehouseId })).data;
    return new Map(rows.map((r) => [String(r.id_product), Number(r.qty_sum)]));
  };
  const scan = async (code: string) => {
    await page.fill('[data-test=scan]', code);
    await page.press('[data-test=scan]', 'Enter');
  };
  const row = (productId: string) => page.locator(`[data-test=counted-row][data-product-id="${productId}"]`);

  beforeAll(async () => {
    stage = await startStage('inventory-count', { size: 'tiny', seed: 33, activity: false });
    page = await stage.browser.context.newPage();
  }, 120_000);

  afterAll(async () => {
    await stage?.close();
  });

  it('syncs, offers the warehouses, and shows the expected quantity of a scanned product from the report', async () => {
    await page.goto(stage.server.url);
    await waitForSyncRun(page);
    await page.waitForFunction(() => document.documentElement.dataset.offlineReady === 'true');
    const warehouses = (stage.sim.store.list('warehouses') as Rec[]).filter((w) => !w._d && w.visible !== false);
    await expect.poll(() => page.locator('[data-test=warehouse]').count(), POLL).toBe(warehouses.length);
    await screenshot(page, 'inventory-count-setup');

    // A warehouse with stock of two products that a barcode alone identifies.
    const products = (stage.sim.store.list('products') as Rec[]).filter((p) => !p._d && p.visible !== false);
    const codes = new Map<string, number>();
    for (const p of products) for (const c of new Set([p.barcode, p.ean13, p.sku])) if (typeof c === 'string') codes.set(c, (codes.get(c) ?? 0) + 1);
    const scannable = products.filter((p) => typeof p.barcode === 'string' && codes.get(p.barcode) === 1);
    for (const w of warehouses) {
      warehouseId = w.id;
      const expected = await report();
      const stocked = scannable.filter((p) => expected.has(p.id));
      if (stocked.length >= 2) {
        picked = stocked.slice(0, 2).map((product) => ({ product, expected: expected.get(product.id)! }));
        break;
      }
    }
    expect(picked, 'a warehouse with two scannable stocked products').toBeDefined();

    await page.click(`[data-test=warehouse][data-warehouse-id="${warehouseId}"]`);
    await page.waitForSelector('[data-test=expected-note]:has-text("stock report of")');
    await scan(String(picked[0]!.product.barcode));
    await expect.poll(() => row(picked[0]!.product.id).locator('[data-test=expected]').textContent(), POLL).toBe(String(picked[0]!.expected));
  });

  it('counts offline, keeps the count across an offline reload, books it and pushes it exactly once', async () => {
    await stage.browser.context.setOffline(true);
    await stage.server.stop();
    const [first, second] = picked as [(typeof picked)[0], (typeof picked)[0]];
    await scan(String(first.product.barcode));
    await scan(String(first.product.barcode));
    await scan(String(second.product.barcode));
    await expect.poll(() => page.textContent('[data-test=count-units]'), POLL).toBe('4');

    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
    await expect.poll(() => row(first.product.id).locator('[data-test=counted-input]').inputValue(), POLL).toBe('3');
    expect(await row(second.product.id).locator('[data-test=counted-input]').inputValue()).toBe('1');
    expect(await row(first.product.id).locator('[data-test=expected]').textContent()).toBe(String(first.expected));
    await screenshot(page, 'inventory-count-offline');

    await page.click('[data-test=finish]');
    await expect.poll(() => page.textContent('[data-test=scan-feedback]'), POLL).toBe('Count booked (2 products). It is sent to the server when online.');
    const booked = page.locator('[data-test=booked-count]').first();
    await expect.poll(() => booked.locator('[data-test=booked-state]').textContent(), POLL).toBe('Waiting to send');
    const stockupId = (await booked.getAttribute('data-stockup-id'))!;
    expect(stage.sim.store.get('stockup', stockupId)).toBeUndefined();
    // A next count made before the first reaches the server expects what the first one counted.
    await scan(String(first.product.barcode));
    await expect.poll(() => row(first.product.id).locator('[data-test=expected]').textContent(), POLL).toBe('3');

    await stage.server.start();
    await stage.browser.context.setOffline(false);
    await expect.poll(() => booked.locator('[data-test=booked-state]').textContent(), SLOW).toBe('On the server');
    // Once it is there, the report is fetched again and includes it.
    await page.waitForSelector('[data-test=expected-note]:not(:has-text("booked since"))', SLOW);
    expect(await row(first.product.id).locator('[data-test=expected]').textContent()).toBe('3');
    await screenshot(page, 'inventory-count-booked');

    const stockup = stage.sim.store.get('stockup', stockupId)!;
    expect(stockup).toMatchObject({ id_warehouse: warehouseId, note: 'Inventory count: 2 products, ' + [first, second].filter((p, i) => p.expected !== [3, 1][i]).length + ' differences' });
    const rows = (stage.sim.store.list('stock_history') as Rec[]).filter((r) => r.id_stockup === stockupId);
    expect(rows.map((r) => [r.id_record, r.quanity]).sort()).toEqual(
      [
        [first.product.id, round3(3 - first.expected)],
        [second.product.id, round3(1 - second.expected)],
      ].sort(),
    );
    expect(postsOf(stage.sim, 'stockup', stockupId)).toBe(1);
    for (const r of rows) expect(postsOf(stage.sim, 'stock_history', r.id)).toBe(1);

    const after = await report();
    expect(after.get(first.product.id)).toBe(3);
    expect(after.get(second.product.id)).toBe(1);
  });

  it('refuses a count below zero and a fraction of a piece, saying why, and keeps the last good count', async () => {
    const piece = picked.find((p) => p.product.unit === 0);
    expect(piece, 'a product counted in pieces (unit 0)').toBeDefined();
    const line = row(piece!.product.id);
    const already = (await line.count()) ? Number(await line.locator('[data-test=counted-input]').inputValue()) : 0;
    await scan(String(piece!.product.barcode));
    const before = String(already + 1);
    await expect.poll(() => line.locator('[data-test=counted-input]').inputValue(), POLL).toBe(before);
    const units = await page.textContent('[data-test=count-units]');

    for (const [typed, reason] of [['-5', 'A count cannot be below zero.'], ['2.5', 'Counted in pieces: type a whole number.']] as const) {
      await line.locator('[data-test=counted-input]').fill(typed);
      await line.locator('[data-test=counted-input]').press('Enter');
      await expect.poll(() => line.locator('[data-test=count-error]').textContent(), POLL).toBe(reason);
      expect(await page.textContent('[data-test=count-units]')).toBe(units);
    }
    // The count kept is the last good one, also after a reload.
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
    await expect.poll(() => line.locator('[data-test=counted-input]').inputValue(), POLL).toBe(before);

    await line.locator('[data-test=counted-input]').fill('4');
    await line.locator('[data-test=counted-input]').press('Enter');
    await expect.poll(() => line.locator('[data-test=count-error]').count(), POLL).toBe(0);
    expect(await line.locator('[data-test=counted-input]').inputValue()).toBe('4');

    // Booked offline, the line under the scan box says it waits, and says so no more once it is on the server.
    await stage.browser.context.setOffline(true);
    await page.click('[data-test=finish]');
    await expect.poll(() => page.textContent('[data-test=scan-feedback]'), POLL).toMatch(/^Count booked \(\d+ products?\)\. It is sent to the server when online\.$/);
    await stage.browser.context.setOffline(false);
    await expect.poll(() => page.textContent('[data-test=scan-feedback]'), SLOW).toMatch(/^Count booked \(\d+ products?\) and on the server\.$/);
  });

  it('lists the products a typed name matches, and counts the one picked', async () => {
    // A word that begins the names of several products on sale.
    const products = (stage.sim.store.list('products') as Rec[]).filter((p) => !p._d && p.visible !== false);
    const byWord = new Map<string, Rec[]>();
    for (const p of products) {
      const word = String(p.name).split(/\s+/)[0]!.toLowerCase();
      byWord.set(word, [...(byWord.get(word) ?? []), p]);
    }
    const [word, named] = [...byWord].find(([w, ps]) => ps.length >= 2 && w.length >= 3)!;
    expect(named.length, `products named ${word}…`).toBeGreaterThanOrEqual(2);

    await scan(word);
    await expect.poll(() => page.locator('[data-test=match]').count(), POLL).toBeGreaterThanOrEqual(2);
    expect(await page.textContent('[data-test=scan-feedback]')).toMatch(new RegExp(`products match “${word}”: pick one`));
    const choice = page.locator('[data-test=match]').nth(1);
    const productId = (await choice.getAttribute('data-product-id'))!;
    expect(named.map((p) => p.id)).toContain(productId);
    const counted = Number((await row(productId).count()) ? await row(productId).locator('[data-test=counted-input]').inputValue() : '0');
    await choice.click();
    await expect.poll(() => row(productId).locator('[data-test=counted-input]').inputValue(), POLL).toBe(String(counted + 1));
    expect(await page.textContent('[data-test=scan-feedback]')).toMatch(/: \d+ counted$/);
  });
});
