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
    await recordStatusBar(page);
    await page.goto(stage.server.url);
    await waitForSyncRun(page);
    // While the first sync runs there is no "last sync" to show: not "now", beside "First sync…".
    const seen = await statusSeen(page);
    expect(seen.some((s) => s.phase === 'First sync…'), 'the first sync was seen running').toBe(true);
    expect(seen.filter((s) => /first sync/i.test(s.phase) && s.lastSync !== null)).toEqual([]);
    expect(await page.textContent('[data-test=status-last-sync]')).toMatch(/^Last sync /);
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
    // Offline with nothing waiting: nothing is "kept on this device" yet.
    await page.waitForSelector('#status[data-phase="offline"][data-pending="0"]', SLOW);
    expect(await page.textContent('[data-test=status-phase]')).toBe('Showing the copy on this device');
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

  it('refuses an empty new customer, saying so by the name and company fields', async () => {
    await open('customers');
    await page.waitForSelector('[data-test=customer]');
    const before = await page.locator('[data-test=customer]').count();
    await page.click('[data-test=customer-new]');
    await page.fill('[data-test=customer-city]', 'Olomouc');
    await page.click('[data-test=customer-save]');
    expect(await page.textContent('[data-test=customer-firstname-error]')).toBe('Enter a name or a company.');
    expect(await page.textContent('[data-test=customer-company-error]')).toBe('Enter a name or a company.');
    expect(await page.getAttribute('[data-test=customer-firstname]', 'aria-invalid')).toBe('true');
    expect(await page.locator('[data-test=customer-form]').count()).toBe(1);
    expect(await page.getAttribute('#status', 'data-pending')).toBe('0');
    expect(await page.locator('[data-test=customer]').count()).toBe(before);
    const pending = await page.evaluate(async () => {
      const ask = <T>(r: IDBRequest<T>) => new Promise<T>((ok, fail) => ((r.onsuccess = () => ok(r.result)), (r.onerror = () => fail(r.error))));
      let count = 0;
      for (const info of await indexedDB.databases()) {
        const db = await ask(indexedDB.open(info.name!));
        if (db.objectStoreNames.contains('_sync_outbox')) count += await ask(db.transaction('_sync_outbox').objectStore('_sync_outbox').count());
        db.close();
      }
      return count;
    });
    expect(pending).toBe(0);
    // A company alone is enough.
    await page.fill('[data-test=customer-company]', 'E2E Company Only s.r.o.');
    await page.click('[data-test=customer-save]');
    const saved = page.locator('[data-test=customer]', { hasText: 'E2E Company Only s.r.o.' });
    await expect.poll(() => saved.locator('[data-test=customer-state]').textContent(), POLL).toBe('Waiting to send');
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
    // Only the field both sides changed is a choice, labelled as the form labels it.
    expect(await card.locator('[data-test=conflict-field]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-field')))).toEqual(['phone_number']);
    expect(await card.locator('[data-test=conflict-field] th').textContent()).toBe('Phone');
    // The fields that merged by themselves are listed: the city changed here, the note on the server.
    const merged = await card.locator('[data-test=merged-field]').evaluateAll((items) => items.map((i) => [i.getAttribute('data-field'), i.getAttribute('data-side'), i.textContent]));
    expect(merged).toEqual([
      ['city', 'here', 'City: Brno (changed here: kept, and sent to the server)'],
      ['note_internal', 'server', 'Note (staff only): Regular on Fridays (changed on the server: taken)'],
    ]);
    // Taking the server's version takes its phone only: the other edit stays.
    expect(await card.locator('[data-test=take-server-explained]').textContent()).toBe('The server’s Phone is kept; your change to City is kept and sent.');
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

  it('says why the first sync fails at a wrong address, keeps saying it while retrying, and syncs once the address is changed in the settings', async () => {
    // Another origin (its own storage) without a config: the app asks for the address and token.
    const other = await createAppServer({ root: stage.root, apiBaseUrl: stage.sim.baseUrl });
    const tab = await stage.browser.context.newPage();
    const wrong = 'http://127.0.0.1:9/api/v1';
    try {
      await tab.goto(other.url);
      await tab.fill('[data-test=connect-form] input[name=baseUrl]', wrong);
      await tab.fill('[data-test=connect-form] input[name=token]', stage.sim.token);
      await tab.click('[data-test=connect-form] button[type=submit]');

      await tab.waitForSelector('[data-test=sync-problem]', SLOW);
      expect(await tab.textContent('[data-test=sync-problem-reason]')).toBe(`The service at ${wrong} cannot be reached.`);
      expect(await tab.textContent('[data-test=sync-problem]')).toContain(`accepts requests from ${new URL(other.url).origin}`);
      expect(await tab.textContent('[data-test=sync-problem-detail]')).toMatch(/^NetworkError: /);
      // The next attempt does not hide the reason.
      await tab.waitForSelector('#status[data-phase="initial-sync"][data-problem="true"]', SLOW);
      expect(await tab.textContent('[data-test=status-phase]')).toBe('Retrying first sync…');
      expect(await tab.isVisible('[data-test=sync-problem]')).toBe(true);
      await screenshot(tab, 'pos-companion-sync-problem');

      await tab.click('[data-test=problem-settings]');
      await tab.waitForSelector('[data-test=settings]');
      expect(await tab.inputValue('[data-test=settings-address]')).toBe(wrong);
      expect(await tab.textContent('[data-test=stored-address]')).toContain(`Remembered: the service address ${wrong}`);
      expect(await tab.textContent('[data-test=stored-token]')).toContain('Never stored: the API token');
      await tab.fill('[data-test=settings-address]', 'not an address');
      await tab.click('[data-test=settings-save]');
      expect(await tab.textContent('[data-test=settings-address-error]')).toContain('https://');
      await screenshot(tab, 'pos-companion-settings');

      // The simulator answers cross-origin requests: the app talks to it directly.
      await tab.fill('[data-test=settings-address]', stage.sim.baseUrl);
      await tab.fill('[data-test=settings-token]', stage.sim.token);
      await tab.click('[data-test=settings-save]');
      await waitForSyncRun(tab);
      await expect.poll(() => tab.locator('[data-test=register]').count(), POLL).toBe(registersOf(stage.sim).length);
      expect(await tab.isVisible('[data-test=sync-problem]')).toBe(false);
      const remembered = await tab.evaluate(() => JSON.stringify({ ...localStorage }));
      expect(remembered).toContain(stage.sim.baseUrl);
      expect(remembered.includes(stage.sim.token)).toBe(false);

      // Not remembering the address forgets it at once, and says so.
      await tab.click('[data-test=open-settings]');
      await tab.uncheck('[data-test=settings-remember]');
      await tab.click('[data-test=settings-save]');
      await expect.poll(() => tab.textContent('[data-test=stored-address]'), POLL).toContain('Not remembered: the service address.');
      expect(await tab.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(stage.sim.baseUrl);
    } finally {
      await tab.close();
      await other.stop();
    }
  });

  it('says before leaving an address that its changes are not sent, then shows them under the new address and sends them through it, once', async () => {
    // Another origin (its own storage), whose app reaches the service through the app server's proxy.
    const first = await createAppServer({ root: stage.root, apiBaseUrl: stage.sim.baseUrl, config: { token: stage.sim.token, tenant: 'e2e-stranded' } });
    const tab = await stage.browser.context.newPage();
    const customers = () => tab.click('#tabs a[data-view="customers"]');
    try {
      await tab.goto(first.url);
      await waitForSyncRun(tab);
      // The proxy goes away: what is changed from now on cannot be sent through it.
      await first.stop();
      const existing = strandedTarget(stage);
      await customers();
      await tab.fill('[data-test=customer-search]', String(existing.lastname));
      await tab.click(`[data-test=customer][data-customer-id="${existing.id}"]`);
      await tab.fill('[data-test=customer-city]', 'Přerov');
      await tab.click('[data-test=customer-save]');
      await tab.fill('[data-test=customer-search]', '');
      await tab.click('[data-test=customer-new]');
      await tab.fill('[data-test=customer-firstname]', 'Bohdana');
      await tab.fill('[data-test=customer-lastname]', 'E2E-Stranded');
      await tab.click('[data-test=customer-save]');
      const created = tab.locator('[data-test=customer]', { hasText: 'Bohdana E2E-Stranded' });
      await expect.poll(() => created.locator('[data-test=customer-state]').textContent(), POLL).toBe('Waiting to send');
      const createdId = (await created.getAttribute('data-customer-id'))!;
      await tab.waitForSelector('#status[data-pending="2"]', POLL);

      // Another address (the simulator itself, without the proxy): the app says first what stays behind.
      await tab.click('[data-test=open-settings]');
      await tab.fill('[data-test=settings-address]', stage.sim.baseUrl);
      await tab.fill('[data-test=settings-token]', stage.sim.token);
      await tab.click('[data-test=settings-save]');
      await tab.waitForSelector('[data-test=settings-unsent]');
      expect(await tab.textContent('[data-test=settings-unsent-text]')).toContain(`This device holds 2 changes made under ${first.apiBaseUrl} that the service has not received.`);
      expect(await tab.inputValue('[data-test=settings-address]')).toBe(stage.sim.baseUrl);
      await screenshot(tab, 'pos-companion-unsent-warning');
      await tab.click('[data-test=settings-confirm-switch]');
      await waitForSyncRun(tab);

      // Under the new address, the copy left behind is shown, and its changes go out through this one.
      const copy = tab.locator('[data-test=stranded-copy]');
      await expect.poll(() => copy.count(), POLL).toBe(1);
      expect(await copy.locator('[data-test=stranded-text]').textContent()).toMatch(new RegExp(`^2 changes made on this device under ${escape(first.apiBaseUrl)}, the last on .+ were never sent`));
      expect(stage.sim.store.get('customers', createdId)).toBeUndefined();
      await screenshot(tab, 'pos-companion-stranded');
      await copy.locator('[data-test=stranded-take-over]').click();
      await expect.poll(() => tab.textContent('[data-test=stranded-result]'), SLOW).toBe('2 changes moved to this address: sending them now.');
      expect(await copy.count()).toBe(0);
      await expect.poll(() => stage.sim.store.get('customers', createdId)?.lastname, SLOW).toBe('E2E-Stranded');
      await expect.poll(() => stage.sim.store.get('customers', existing.id)?.city, SLOW).toBe('Přerov');
      await tab.waitForSelector('#status[data-pending="0"]', SLOW);
      expect(postsOf(stage.sim, 'customers', createdId)).toBe(1);
      expect(postsOf(stage.sim, 'customers', existing.id)).toBe(1);
    } finally {
      await tab.close();
      await first.stop();
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

/** A live customer of the simulator that no other step edits, with a last name no other customer has. */
function strandedTarget(stage: Stage): { id: string; lastname: unknown } {
  const live = stage.sim.store.list('customers').filter((c) => !c._d && c.visible !== false);
  const counts = new Map<unknown, number>();
  for (const c of live) counts.set(c.lastname, (counts.get(c.lastname) ?? 0) + 1);
  const found = live.reverse().find((c) => typeof c.lastname === 'string' && c.lastname !== '' && counts.get(c.lastname) === 1 && !String(c.lastname).startsWith('E2E'));
  if (!found) throw new Error('the simulator has no customer with a last name of its own');
  return { id: String(found.id), lastname: found.lastname };
}

/** `text` as a regular expression matching it literally. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Records every state of the status bar from the page's first load (phase text, last sync text). */
async function recordStatusBar(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: { phase: string; lastSync: string | null }[] = [];
    (window as unknown as { __statusSeen: typeof seen }).__statusSeen = seen;
    const watch = () => {
      const bar = document.getElementById('status');
      if (!bar) return void requestAnimationFrame(watch);
      new MutationObserver(() => {
        const phase = bar.querySelector('[data-test=status-phase]')?.textContent ?? '';
        seen.push({ phase, lastSync: bar.querySelector('[data-test=status-last-sync]')?.textContent ?? null });
      }).observe(bar, { childList: true, subtree: true, characterData: true });
    };
    document.addEventListener('DOMContentLoaded', watch);
  });
}

/** What {@link recordStatusBar} saw. */
function statusSeen(page: Page): Promise<{ phase: string; lastSync: string | null }[]> {
  return page.evaluate(() => (window as unknown as { __statusSeen: { phase: string; lastSync: string | null }[] }).__statusSeen);
}
