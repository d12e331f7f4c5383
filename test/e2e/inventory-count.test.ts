/**
 * The Stock count app in Chromium, Firefox and WebKit against the simulator, under a real locale
 * (en-US): expected quantities from the warehouse report, a count made with the network off (the
 * app server stopped, and the tab set offline where the engine can) that survives a reload from
 * the service worker, booked as a stock-up with stock history rows created on the device, and
 * pushed exactly once when the network is back; a record the screen cannot show says so in its
 * place while the rest of the screen keeps counting.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { type EngineTab } from '../../scripts/engines/index.js';
import { createClient } from '../../src/client/index.js';
import { attribute, count, inputValue, SLOW, text, texts, waitForSelector, waitUntil } from './dom.js';
import { openApp, serviceBack, serviceGone } from './app-on-stage.js';
import type { PageErrorWatch } from './page-error-watch.js';
import { postsOf } from './sim-facts.js';
import { screenshot, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

type Rec = Record<string, unknown> & { id: string };

/** The app books counted − expected rounded to 3 decimals (the report's precision). */
const round3 = (x: number) => Math.round(x * 1000) / 1000;

describeEngines('Stock count in %s', { timeout: 120_000 }, (engine) => {
  let stage: Stage;
  let tab: EngineTab;
  let watch: PageErrorWatch;
  let warehouseId: string;
  let picked: { product: Rec; expected: number }[];

  const report = async () => {
    const client = createClient({ baseUrl: stage.sim.baseUrl, token: stage.sim.token, userAgent: 'pos-cloud-mirror e2e test' });
    const rows = (await client.warehouseStatus({ id_warehouse: warehouseId })).data;
    return new Map(rows.map((r) => [String(r.id_product), Number(r.qty_sum)]));
  };
  const scan = async (code: string) => {
    await tab.fill('[data-test=scan]', code);
    await tab.press('[data-test=scan]', 'Enter');
  };
  const row = (productId: string) => `[data-test=counted-row][data-product-id="${productId}"]`;
  const counted = (productId: string) => inputValue(tab, `${row(productId)} [data-test=counted-input]`);
  const goOffline = () => serviceGone(stage, tab);
  const goOnline = () => serviceBack(stage, tab);
  const ready = () => waitUntil('the app', () => attribute(tab, 'html', 'data-ready'), (v) => v === 'true');

  beforeAll(async () => {
    ({ stage, tab, watch } = await openApp('inventory-count', { size: 'tiny', seed: 33, activity: false }, engine, { locale: 'en-US' }));
  }, 180_000);
  afterAll(() => stage?.close());
  afterEach(() => expect(watch.unexpected(), 'errors the pages reported').toEqual([]));

  it('syncs, offers the warehouses, and shows the expected quantity of a scanned product from the report', async () => {
    await tab.goto(stage.server.url);
    await waitForSelector(tab, '#status[data-cycle="done"][data-phase="idle"]', { timeout: 60_000, interval: 200 });
    await waitUntil('the offline shell', () => attribute(tab, 'html', 'data-offline-ready'), (v) => v === 'true');
    const warehouses = (stage.sim.store.list('warehouses') as Rec[]).filter((w) => !w._d && w.visible !== false);
    await waitUntil('every warehouse', () => count(tab, '[data-test=warehouse]'), (n) => n === warehouses.length);
    await screenshot(tab, 'inventory-count-setup');

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

    await tab.click(`[data-test=warehouse][data-warehouse-id="${warehouseId}"]`);
    await waitUntil('the stock report', () => text(tab, '[data-test=expected-note]'), (note) => note?.includes('stock report of') ?? false);
    await scan(String(picked[0]!.product.barcode));
    await waitUntil('the expected quantity', () => text(tab, `${row(picked[0]!.product.id)} [data-test=expected]`), (q) => q === String(picked[0]!.expected));
  });

  it('counts offline, keeps the count across an offline reload, books it and pushes it exactly once', async () => {
    await goOffline();
    const [first, second] = picked as [(typeof picked)[0], (typeof picked)[0]];
    await scan(String(first.product.barcode));
    await scan(String(first.product.barcode));
    await scan(String(second.product.barcode));
    await waitUntil('four units counted', () => text(tab, '[data-test=count-units]'), (n) => n === '4');

    // No server: the page comes from the service worker's cache.
    await tab.reload();
    await ready();
    await waitUntil('the count kept across the reload', () => counted(first.product.id), (n) => n === '3');
    expect(await counted(second.product.id)).toBe('1');
    expect(await text(tab, `${row(first.product.id)} [data-test=expected]`)).toBe(String(first.expected));
    await screenshot(tab, 'inventory-count-offline');

    await tab.click('[data-test=finish]');
    await waitUntil('the count booked', () => text(tab, '[data-test=scan-feedback]'), (t) => t === 'Count booked (2 products). It is sent to the server when online.');
    const booked = '[data-test=booked-count]';
    await waitUntil('the count waiting to be sent', () => text(tab, `${booked} [data-test=booked-state]`), (t) => t === 'Waiting to send');
    const stockupId = (await attribute(tab, booked, 'data-stockup-id'))!;
    expect(stage.sim.store.get('stockup', stockupId)).toBeUndefined();
    // A next count made before the first reaches the server expects what the first one counted.
    await scan(String(first.product.barcode));
    await waitUntil('the booked count expected', () => text(tab, `${row(first.product.id)} [data-test=expected]`), (q) => q === '3');

    await goOnline();
    await waitUntil('the count on the server', () => text(tab, `${booked} [data-test=booked-state]`), (t) => t === 'On the server', SLOW);
    // Once it is there, the report is fetched again and includes it.
    await waitUntil('a report that includes the count', () => text(tab, '[data-test=expected-note]'), (note) => note !== null && !note.includes('booked since'), SLOW);
    expect(await text(tab, `${row(first.product.id)} [data-test=expected]`)).toBe('3');
    await screenshot(tab, 'inventory-count-booked');

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
    const id = piece!.product.id;
    const input = `${row(id)} [data-test=counted-input]`;
    const already = (await count(tab, row(id))) ? Number(await counted(id)) : 0;
    await scan(String(piece!.product.barcode));
    const before = String(already + 1);
    await waitUntil('the scan counted', () => counted(id), (n) => n === before);
    const units = await text(tab, '[data-test=count-units]');

    for (const [typed, reason] of [['-5', 'A count cannot be below zero.'], ['2.5', 'Counted in pieces: type a whole number.']] as const) {
      await tab.fill(input, typed);
      await tab.press(input, 'Enter');
      await waitUntil(`the reason ${typed} is refused`, () => text(tab, `${row(id)} [data-test=count-error]`), (t) => t === reason);
      expect(await text(tab, '[data-test=count-units]')).toBe(units);
    }
    // The count kept is the last good one, also after a reload.
    await tab.reload();
    await ready();
    await waitUntil('the last good count', () => counted(id), (n) => n === before);

    await tab.fill(input, '4');
    await tab.press(input, 'Enter');
    await waitUntil('the count accepted', () => count(tab, `${row(id)} [data-test=count-error]`), (n) => n === 0);
    expect(await counted(id)).toBe('4');

    // Booked offline, the line under the scan box says it waits, and says so no more once it is on the server.
    await goOffline();
    await tab.click('[data-test=finish]');
    await waitUntil('the count booked offline', () => text(tab, '[data-test=scan-feedback]'), (t) => /^Count booked \(\d+ products?\)\. It is sent to the server when online\.$/.test(t ?? ''));
    await goOnline();
    await waitUntil('the count on the server', () => text(tab, '[data-test=scan-feedback]'), (t) => /^Count booked \(\d+ products?\) and on the server\.$/.test(t ?? ''), SLOW);
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
    await waitUntil('the matches', () => count(tab, '[data-test=match]'), (n) => n >= 2);
    expect(await text(tab, '[data-test=scan-feedback]')).toMatch(new RegExp(`products match “${word}”: pick one`));
    const productId = (await tab.evaluate(() => document.querySelectorAll('[data-test=match]')[1]?.getAttribute('data-product-id') ?? null))!;
    expect(named.map((p) => p.id)).toContain(productId);
    const before = Number((await count(tab, row(productId))) ? await counted(productId) : '0');
    await tab.click(`[data-test=match][data-product-id="${productId}"]`);
    await waitUntil('the pick counted', () => counted(productId), (n) => n === String(before + 1));
    expect(await text(tab, '[data-test=scan-feedback]')).toMatch(/: \d+ counted$/);
  });

  it('says in its place that the counts of the warehouse cannot be shown when one carries a date no calendar has, and keeps counting', async () => {
    // A back office that writes "no date" as the largest safe integer: a time no Date can hold.
    const [first] = picked as [(typeof picked)[0]];
    const stockup = stage.sim.store.write('stockup', {
      id_warehouse: warehouseId,
      id_shop: String(stage.sim.store.list('shops')[0]!.id),
      id_cash_register: String(stage.sim.store.list('cash_registers')[0]!.id),
      id_employee: String(stage.sim.store.list('employees')[0]!.id),
      stock_history_type: 3,
      date_stocked: Number.MAX_SAFE_INTEGER,
      note: 'Inventory count: 1 products, 0 differences',
    });
    // React reports the error its boundary caught on the console.
    watch.allow(/^console\.error: .*RangeError/s);
    // A reload syncs at once (the app's next scheduled sync is up to 15 s away).
    await tab.reload();
    await ready();
    await waitForSelector(tab, '[data-test=view-problem]', SLOW);
    expect(await text(tab, '[data-test=view-problem-reason]')).toBe('The counts of this warehouse cannot be shown.');
    expect(await text(tab, '[data-test=view-problem]')).toContain('The data on this device is safe');
    expect(await text(tab, '[data-test=view-problem-detail]')).toMatch(/^RangeError: /);
    await screenshot(tab, 'inventory-count-view-problem');

    // The rest of the screen works: a scan still counts.
    const before = Number(await counted(first.product.id));
    await scan(String(first.product.barcode));
    await waitUntil('the scan counted', () => counted(first.product.id), (n) => n === String(before + 1));

    // Corrected on the server, the counts show again once synced (the reload syncs at once; the stored
    // copy still holds the bad date until then, and the part tries again with the synced rows).
    stage.sim.store.write('stockup', { id: stockup.id as string, date_stocked: Date.now() });
    await tab.reload();
    await ready();
    await waitUntil('the counts again', () => count(tab, '[data-test=booked-count]'), (n) => n > 0, SLOW);
    expect(await count(tab, '[data-test=view-problem]')).toBe(0);
    expect(await texts(tab, '[data-test=booked-count] td:nth-child(2)')).toContain('Inventory count: 1 products, 0 differences');
  });
});
