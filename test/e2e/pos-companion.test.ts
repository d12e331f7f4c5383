/**
 * The Shop companion app in headless Chromium (real IndexedDB, Web Locks, service worker)
 * against the simulator over HTTP. The steps build on each other, in order: first sync, live
 * sales, product lookup offline, a customer created offline surviving an offline reload and
 * reaching the server exactly once, a conflict resolved field by field, two tabs with one leader.
 *
 * Offline here means both: the browser context is set offline AND the app server (which serves
 * the app and proxies the API) is stopped, so the reload can only come from the service worker.
 */
import type { Page } from 'playwright-core';
import { createAppServer } from '../../scripts/app-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money, priceLabel } from '../../examples/shared/format.js';
import { POLL, SLOW, screenshot, startStage, waitForSyncRun, type Stage } from './harness.js';
import { livePriceRow, postsOf, registersOf, latestOrderOf } from './sim-facts.js';

const LOCALE = 'en-US';

describe('Shop companion in headless Chromium', { timeout: 90_000 }, () => {
  let stage: Stage;
  let page: Page;
  let customerId: string;

  beforeAll(async () => {
    stage = await startStage('pos-companion', { size: 'tiny', seed: 21, activity: false });
    page = await stage.browser.context.newPage();
  }, 120_000);

  afterAll(async () => {
    await stage?.close();
  });

  const goOffline = async () => {
    await stage.browser.context.setOffline(true);
    await stage.server.stop();
  };
  const goOnline = async () => {
    await stage.server.start();
    await stage.browser.context.setOffline(false);
  };
  const open = async (view: string) => {
    await page.click(`#tabs a[data-view="${view}"]`);
  };

  it('runs the first sync and shows every register with its latest sale as the simulator has it', async () => {
    await page.goto(stage.server.url);
    await waitForSyncRun(page);
    await page.waitForFunction(() => document.documentElement.dataset.offlineReady === 'true');

    const registers = registersOf(stage.sim);
    await expect.poll(() => page.locator('[data-test=register]').count(), POLL).toBe(registers.length);
    for (const register of registers) {
      const latest = latestOrderOf(stage.sim, register.id);
      if (!latest) continue;
      const card = page.locator(`[data-test=register][data-register-id="${register.id}"]`);
      await expect.poll(() => card.locator('[data-test=order]').first().getAttribute('data-order-id'), POLL).toBe(latest.id);
      expect(await card.locator('[data-test=order-total]').first().textContent()).toBe(money(latest.total_paid_tax_incl, latest.currency as string, LOCALE));
    }
  });

  it('shows a sale at a register without a reload', async () => {
    const register = registersOf(stage.sim)[0]!;
    const sold = stage.sim.store.sell({ idCashRegister: register.id });
    const card = page.locator(`[data-test=register][data-register-id="${register.id}"]`);
    await expect.poll(() => card.locator('[data-test=order]').first().getAttribute('data-order-id'), SLOW).toBe(sold.order.id);
    await screenshot(page, 'pos-companion-sales');
  });

  it('finds a product by barcode and by name with its current price, with the network off', async () => {
    await goOffline();
    await open('products');
    const { product, price } = livePriceRow(stage.sim);
    const expected = priceLabel(price, LOCALE).amount;

    await page.fill('[data-test=product-search]', String(product.barcode));
    const row = page.locator(`[data-test=product][data-product-id="${product.id}"]`);
    await expect.poll(() => row.locator('[data-test=product-price]').textContent(), POLL).toBe(expected);

    await page.fill('[data-test=product-search]', String(product.name).slice(0, 6));
    await expect.poll(() => row.count(), POLL).toBe(1);
    await screenshot(page, 'pos-companion-products-offline');
  });

  it('creates a customer offline, keeps it across an offline reload, and pushes it exactly once', async () => {
    await open('customers');
    await page.click('[data-test=customer-new]');
    await page.fill('[data-test=customer-firstname]', 'Zdeňka');
    await page.fill('[data-test=customer-lastname]', 'E2E-Offline');
    await page.fill('[data-test=customer-email]', 'zdenka.offline@example.com');
    await page.fill('[data-test=customer-phone_number]', '+420 777 100 200');
    await page.fill('[data-test=customer-city]', 'Olomouc');
    await page.click('[data-test=customer-save]');

    const row = page.locator('[data-test=customer]', { hasText: 'Zdeňka E2E-Offline' });
    await expect.poll(() => row.locator('[data-test=customer-state]').textContent(), POLL).toBe('Waiting to send');
    customerId = (await row.getAttribute('data-customer-id'))!;
    expect(customerId).toMatch(/^[1-9]\d*$/);

    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
    await open('customers');
    await expect.poll(() => row.locator('[data-test=customer-state]').textContent(), POLL).toBe('Waiting to send');
    expect(await page.locator('[data-test=connect-form]').count()).toBe(1);
    await screenshot(page, 'pos-companion-customers-offline');
    expect(stage.sim.store.get('customers', customerId)).toBeUndefined();

    await goOnline();
    await expect.poll(() => row.locator('[data-test=customer-state]').count(), SLOW).toBe(0);
    const onServer = stage.sim.store.list('customers').filter((c) => c.lastname === 'E2E-Offline');
    expect(onServer.map((c) => c.id)).toEqual([customerId]);
    expect(onServer[0]).toMatchObject({ firstname: 'Zdeňka', email: 'zdenka.offline@example.com', city: 'Olomouc' });
    expect(postsOf(stage.sim, 'customers', customerId)).toBe(1);
  });

  it('shows a clash with a server change field by field and saves the person’s choices', async () => {
    await waitForSyncRun(page);
    await stage.browser.context.setOffline(true);
    await page.click(`[data-test=customer][data-customer-id="${customerId}"]`);
    await page.fill('[data-test=customer-phone_number]', '+420 777 111 111');
    await page.fill('[data-test=customer-city]', 'Brno');
    await page.click('[data-test=customer-save]');

    // Meanwhile a register changes the same customer.
    const server = stage.sim.store.get('customers', customerId)!;
    stage.sim.store.write('customers', { ...server, phone_number: '+420 602 999 999', note_internal: 'Regular on Fridays' });

    await stage.browser.context.setOffline(false);
    await page.waitForSelector('#status[data-conflicts="1"]', SLOW);
    await open('conflicts');
    const card = page.locator('[data-test=conflict]');
    await expect.poll(() => card.count(), POLL).toBe(1);
    expect(await card.locator('[data-test=conflict-field][data-field="phone_number"]').count()).toBe(1);
    await screenshot(page, 'pos-companion-conflict');

    // Keep the server's phone; the city was changed only here and stays.
    await page.check('[data-test="choose-server-phone_number"]');
    await page.click('[data-test=apply-choices]');
    await page.waitForSelector('[data-test=no-conflicts]');
    await page.waitForSelector('#status[data-pending="0"][data-conflicts="0"]', SLOW);
    await expect.poll(() => stage.sim.store.get('customers', customerId)?.city, SLOW).toBe('Brno');
    expect(stage.sim.store.get('customers', customerId)).toMatchObject({
      phone_number: '+420 602 999 999',
      note_internal: 'Regular on Fridays',
      city: 'Brno',
    });
  });

  it('works in two tabs: one syncs, both show edits at once', async () => {
    const second = await stage.browser.context.newPage();
    await second.goto(`${stage.server.url}#customers`);
    await second.waitForFunction(() => document.documentElement.dataset.ready === 'true');
    const leaders = async () => [await page.getAttribute('#status', 'data-leader'), await second.getAttribute('#status', 'data-leader')];
    await expect.poll(leaders, POLL).toEqual(['true', 'false']);

    // An edit in the tab that does not sync shows in the other at once and is pushed by the leader.
    await second.click('[data-test=customer-new]');
    await second.fill('[data-test=customer-firstname]', 'Vratislav');
    await second.fill('[data-test=customer-lastname]', 'E2E-Second-Tab');
    await second.click('[data-test=customer-save]');
    await open('customers');
    await expect.poll(() => page.locator('[data-test=customer]', { hasText: 'Vratislav E2E-Second-Tab' }).count(), POLL).toBe(1);
    await expect.poll(() => stage.sim.store.list('customers').filter((c) => c.lastname === 'E2E-Second-Tab').length, SLOW).toBe(1);
    await screenshot(second, 'pos-companion-second-tab');

    // When the syncing tab closes, the other takes over.
    await page.close();
    await expect.poll(() => second.getAttribute('#status', 'data-leader'), SLOW).toBe('true');
    page = second;
  });

  it('asks again for a token the service refuses, and syncs with the new one', async () => {
    // Another origin (its own storage) whose config hands out a wrong token.
    const wrong = await createAppServer({ root: stage.root, apiBaseUrl: stage.sim.baseUrl, config: { token: 'sim_not-the-token', tenant: 'e2e-refused' } });
    const other = await stage.browser.context.newPage();
    try {
      await other.goto(wrong.url);
      await other.waitForSelector('#status[data-phase="auth-error"]', SLOW);
      expect(await other.textContent('[data-test=status-phase]')).toBe('Token refused');
      await other.fill('[data-test=connect-form] input[name=token]', stage.sim.token);
      await other.click('[data-test=connect-form] button[type=submit]');
      await waitForSyncRun(other);
      expect(await other.locator('[data-test=connect-form]').count()).toBe(0);
      await expect.poll(() => other.locator('[data-test=register]').count(), POLL).toBe(registersOf(stage.sim).length);
    } finally {
      await other.close();
      await wrong.stop();
    }
  });

  it('keeps the token out of localStorage, IndexedDB and Cache Storage', async () => {
    const stored = await page.evaluate(async () => {
      const parts: string[] = [];
      for (const storage of [localStorage, sessionStorage]) {
        for (let i = 0; i < storage.length; i++) parts.push(storage.key(i)!, storage.getItem(storage.key(i)!) ?? '');
      }
      for (const name of await caches.keys()) {
        parts.push(`cache ${name}`);
        const cache = await caches.open(name);
        for (const request of await cache.keys()) parts.push(request.url, JSON.stringify([...request.headers]), await (await cache.match(request))!.text());
      }
      const ask = <T>(request: IDBRequest<T>) => new Promise<T>((ok, fail) => ((request.onsuccess = () => ok(request.result)), (request.onerror = () => fail(request.error))));
      for (const info of await indexedDB.databases()) {
        const db = await ask(indexedDB.open(info.name!));
        for (const store of Array.from(db.objectStoreNames)) parts.push(info.name!, store, JSON.stringify(await ask(db.transaction(store).objectStore(store).getAll())));
        db.close();
      }
      return parts.join('\n');
    });
    // It read the records (customers created above are in it) and the cached app shell; the
    // token is nowhere (booleans keep a failure's report short: `stored` is megabytes).
    expect(stored.includes('E2E-Second-Tab'), 'records were read').toBe(true);
    expect(stored.includes('cache app-shell'), 'the shell cache was read').toBe(true);
    expect(stored.includes(stage.sim.token), 'the token is stored somewhere').toBe(false);
  });
});
