/**
 * The Shop companion app in Chromium, Firefox and WebKit (real IndexedDB, Web Locks, service
 * worker) against the simulator over HTTP, under a real locale (en-US). The steps build on each
 * other, in order: first sync, live sales, product lookup offline, a customer created offline
 * surviving an offline reload and reaching the server exactly once, a conflict resolved field by
 * field, two tabs with one leader, a refused token, a wrong address fixed in the settings, the
 * changes left under an old address sent through the new one.
 *
 * Offline means the app server (which serves the app and proxies the API: one origin) is stopped,
 * so a reload can only come from the service worker, which all three engines run; where the
 * engine can (Chromium, Firefox), the tab is also set offline. WebKit's tab cannot be: there the
 * page still believes it is online (`navigator.onLine`), as on a shop's Wi-Fi whose line is down,
 * and the app learns of the lost service from its failed requests.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { money, priceLabel } from '../../examples/shared/format.js';
import { createAppServer } from '../../scripts/app-server.js';
import { type EngineTab } from '../../scripts/engines/index.js';
import { attribute, count, inputValue, SLOW, text, visible, waitForSelector, waitUntil } from './dom.js';
import { openApp, serviceBack, serviceGone } from './app-on-stage.js';
import type { PageErrorWatch } from './page-error-watch.js';
import { latestOrderOf, livePriceRow, postsOf, registersOf } from './sim-facts.js';
import { screenshot, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

const LOCALE = 'en-US';

describeEngines('Shop companion in %s', { timeout: 120_000 }, (engine) => {
  let stage: Stage;
  let tab: EngineTab;
  let watch: PageErrorWatch;
  let customerId: string;

  beforeAll(async () => {
    // Stock history of many pages: a first sync long enough to show an estimate and to be interrupted.
    ({ stage, tab, watch } = await openApp('pos-companion', { size: { stock_history: 10_000 }, seed: 21, activity: false }, engine, { locale: LOCALE }));
  }, 180_000);
  afterAll(() => stage?.close());
  afterEach(() => expect(watch.unexpected(), 'errors the pages reported').toEqual([]));

  const goOffline = () => serviceGone(stage, tab);
  const goOnline = () => serviceBack(stage, tab);
  const open = (view: string) => tab.click(`#tabs a[data-view="${view}"]`);
  const card = (registerId: string) => `[data-test=register][data-register-id="${registerId}"]`;
  const customer = (id: string) => `[data-test=customer][data-customer-id="${id}"]`;

  // A first sync of 10,000 stock movements, interrupted and resumed, takes its time in WebKit under load.
  it('runs the first sync and shows every register with its latest sale as the simulator has it', { timeout: 240_000 }, async () => {
    // Slow answers keep the first sync running long enough to watch the status bar through it.
    stage.sim.setFaults({ latencyMs: 120 });
    await tab.goto(stage.server.url);
    // The progress shows the records so far and, once the stock history is probed (a few pages in), about how many are left.
    const stock = '[data-test=progress-stock_history]';
    const under = async () => ({ running: await attribute(tab, stock, 'class'), left: await text(tab, '[data-test=progress-remaining]') });
    await waitUntil('the stock history under way with an estimate', under, (p) => p.running === 'running' && p.left !== null, SLOW);
    expect(await text(tab, '[data-test=progress-records]')).toMatch(/^[\d,.\s]+ records so far$/);
    expect(await text(tab, '[data-test=progress-remaining]')).toMatch(/^about [\d,.\s]+ left in the lists under way$/);
    expect(await text(tab, stock)).toMatch(/of ~[\d,.\s]+$/);
    // Closing the tab halfway leaves the stock history's cursor: the next visit resumes there.
    const left = Number(await attribute(tab, stock, 'data-records'));
    await tab.close();
    tab = await stage.browser.newTab();
    await tab.goto(stage.server.url);
    await recordStatusBar(tab);
    const resumed = await waitUntil('the resumed first sync', () => text(tab, '[data-test=progress-resumed]'), (t) => t !== null, SLOW);
    const at = Number(/^Resumed at ([\d,.\s]+) records of Stock movements/.exec(resumed!)?.[1]?.replace(/\D/g, ''));
    expect(at, resumed!).toBeGreaterThanOrEqual(left);
    expect(at).toBeLessThan(stage.sim.store.count('stock_history'));
    await waitForSyncRun(tab);
    stage.sim.setFaults({});
    // While the first sync runs there is no "last sync" to show: not "now", beside "First sync…".
    const seen = await statusSeen(tab);
    expect(seen.some((s) => s.phase === 'First sync…'), 'the first sync was seen running').toBe(true);
    expect(seen.filter((s) => /first sync/i.test(s.phase) && s.lastSync !== null)).toEqual([]);
    expect(await text(tab, '[data-test=status-last-sync]')).toMatch(/^Last sync /);
    await waitUntil('the offline shell', () => attribute(tab, 'html', 'data-offline-ready'), (v) => v === 'true');

    const registers = registersOf(stage.sim);
    await waitUntil('every register', () => count(tab, '[data-test=register]'), (n) => n === registers.length);
    for (const register of registers) {
      const latest = latestOrderOf(stage.sim, register.id);
      // Every register sells every day up to the simulator's start.
      expect(latest, `register ${register.id} has sales`).toBeDefined();
      await waitUntil(`register ${register.id}'s latest sale`, () => attribute(tab, `${card(register.id)} [data-test=order]`, 'data-order-id'), (id) => id === latest!.id);
      expect(await text(tab, `${card(register.id)} [data-test=order-total]`)).toBe(money(latest!.total_paid_tax_incl, latest!.currency as string, LOCALE));
    }
  });

  it('shows a sale at a register without a reload', async () => {
    const register = registersOf(stage.sim)[0]!;
    const sold = stage.sim.store.sell({ idCashRegister: register.id });
    await waitUntil('the new sale', () => attribute(tab, `${card(register.id)} [data-test=order]`, 'data-order-id'), (id) => id === sold.order.id, SLOW);
    await screenshot(tab, 'pos-companion-sales');
  });

  it('finds a product by barcode and by name with its current price, with the network off', async () => {
    await goOffline();
    if (tab.setOffline) {
      // The engine says it is offline, and nothing waits: nothing is "kept on this device" yet.
      await waitForSelector(tab, '#status[data-phase="offline"][data-pending="0"]', SLOW);
      expect(await text(tab, '[data-test=status-phase]')).toBe('Showing the copy on this device');
    } else {
      // WebKit's page stays "online": the next sync fails, and the app says the service is out of reach.
      await waitForSelector(tab, '[data-test=sync-problem]', SLOW);
      expect(await text(tab, '[data-test=sync-problem-reason]')).toBe(`The service at ${stage.server.apiBaseUrl} cannot be reached.`);
      expect(await text(tab, '[data-test=sync-problem]')).toContain('The data on this device stays usable');
    }
    await open('products');
    const { product, price } = livePriceRow(stage.sim);
    const expected = priceLabel(price, LOCALE).amount;
    const row = `[data-test=product][data-product-id="${product.id}"]`;

    await tab.fill('[data-test=product-search]', String(product.barcode));
    await waitUntil('the product found by barcode', () => text(tab, `${row} [data-test=product-price]`), (p) => p === expected);

    await tab.fill('[data-test=product-search]', String(product.name).slice(0, 6));
    await waitUntil('the product found by name', () => count(tab, row), (n) => n === 1);
    await screenshot(tab, 'pos-companion-products-offline');
  });

  it('refuses an empty new customer, saying so by the name and company fields', async () => {
    await open('customers');
    await waitForSelector(tab, '[data-test=customer]');
    const before = await count(tab, '[data-test=customer]');
    await tab.click('[data-test=customer-new]');
    await tab.fill('[data-test=customer-city]', 'Olomouc');
    await tab.click('[data-test=customer-save]');
    expect(await text(tab, '[data-test=customer-firstname-error]')).toBe('Enter a name or a company.');
    expect(await text(tab, '[data-test=customer-company-error]')).toBe('Enter a name or a company.');
    expect(await attribute(tab, '[data-test=customer-firstname]', 'aria-invalid')).toBe('true');
    expect(await count(tab, '[data-test=customer-form]')).toBe(1);
    expect(await attribute(tab, '#status', 'data-pending')).toBe('0');
    expect(await count(tab, '[data-test=customer]')).toBe(before);
    expect(await outboxSize(tab)).toBe(0);
    // A company alone is enough.
    await tab.fill('[data-test=customer-company]', 'E2E Company Only s.r.o.');
    await tab.click('[data-test=customer-save]');
    await waitUntil('the company waiting to be sent', () => customerState(tab, 'E2E Company Only s.r.o.'), (s) => s === 'Waiting to send');
  });

  it('creates a customer offline, keeps it across an offline reload, and pushes it exactly once', async () => {
    await open('customers');
    await tab.click('[data-test=customer-new]');
    await tab.fill('[data-test=customer-firstname]', 'Zdeňka');
    await tab.fill('[data-test=customer-lastname]', 'E2E-Offline');
    await tab.fill('[data-test=customer-email]', 'zdenka.offline@example.com');
    await tab.fill('[data-test=customer-phone_number]', '+420 777 100 200');
    await tab.fill('[data-test=customer-city]', 'Olomouc');
    await tab.click('[data-test=customer-save]');

    await waitUntil('the new customer waiting to be sent', () => customerState(tab, 'Zdeňka E2E-Offline'), (s) => s === 'Waiting to send');
    customerId = (await tab.evaluate(() => [...document.querySelectorAll('[data-test=customer]')].find((r) => r.textContent?.includes('Zdeňka E2E-Offline'))?.getAttribute('data-customer-id') ?? null))!;
    expect(customerId).toMatch(/^[1-9]\d*$/);

    // No server: the page comes from the service worker's cache.
    await tab.reload();
    await waitUntil('the app after an offline reload', () => attribute(tab, 'html', 'data-ready'), (v) => v === 'true');
    await open('customers');
    await waitUntil('the customer kept across the reload', () => text(tab, `${customer(customerId)} [data-test=customer-state]`), (s) => s === 'Waiting to send');
    // The token lives in memory only: after the reload the app asks for it.
    expect(await count(tab, '[data-test=connect-form]')).toBe(1);
    await screenshot(tab, 'pos-companion-customers-offline');
    expect(stage.sim.store.get('customers', customerId)).toBeUndefined();

    await goOnline();
    await waitUntil('the customer on the server', () => count(tab, `${customer(customerId)} [data-test=customer-state]`), (n) => n === 0, SLOW);
    const onServer = stage.sim.store.list('customers').filter((c) => c.lastname === 'E2E-Offline');
    expect(onServer.map((c) => c.id)).toEqual([customerId]);
    expect(onServer[0]).toMatchObject({ firstname: 'Zdeňka', email: 'zdenka.offline@example.com', city: 'Olomouc' });
    expect(postsOf(stage.sim, 'customers', customerId)).toBe(1);
  });

  it('shows a clash with a server change field by field and saves the person’s choices', async () => {
    await waitForSyncRun(tab);
    await goOffline();
    // The name, not the row: WebKit's driver does not click a table row ("element not interactable").
    await tab.click(`${customer(customerId)} [data-test=customer-name]`);
    await tab.fill('[data-test=customer-phone_number]', '+420 777 111 111');
    await tab.fill('[data-test=customer-city]', 'Brno');
    await tab.click('[data-test=customer-save]');

    // Meanwhile a register changes the same customer.
    const server = stage.sim.store.get('customers', customerId)!;
    stage.sim.store.write('customers', { ...server, phone_number: '+420 602 999 999', note_internal: 'Regular on Fridays' });

    await goOnline();
    await waitForSelector(tab, '#status[data-conflicts="1"]', SLOW);
    await open('conflicts');
    await waitUntil('one conflict', () => count(tab, '[data-test=conflict]'), (n) => n === 1);
    // Only the field both sides changed is a choice, labelled as the form labels it.
    expect(await tab.evaluate(() => [...document.querySelectorAll('[data-test=conflict] [data-test=conflict-field]')].map((r) => r.getAttribute('data-field')))).toEqual(['phone_number']);
    expect(await text(tab, '[data-test=conflict] [data-test=conflict-field] th')).toBe('Phone');
    // The fields that merged by themselves are listed: the city changed here, the note on the server.
    const merged = await tab.evaluate(() => [...document.querySelectorAll('[data-test=conflict] [data-test=merged-field]')].map((i) => [i.getAttribute('data-field'), i.getAttribute('data-side'), i.textContent]));
    expect(merged).toEqual([
      ['city', 'here', 'City: Brno (changed here: kept, and sent to the server)'],
      ['note_internal', 'server', 'Note (staff only): Regular on Fridays (changed on the server: taken)'],
    ]);
    // Taking the server's version takes its phone only: the other edit stays.
    expect(await text(tab, '[data-test=conflict] [data-test=take-server-explained]')).toBe('The server’s Phone is kept; your change to City is kept and sent.');
    await screenshot(tab, 'pos-companion-conflict');

    // Keep the server's phone; the city was changed only here and stays.
    await tab.click('[data-test="choose-server-phone_number"]');
    await tab.click('[data-test=apply-choices]');
    await waitForSelector(tab, '[data-test=no-conflicts]');
    await waitForSelector(tab, '#status[data-pending="0"][data-conflicts="0"]', SLOW);
    await waitUntil('the city on the server', async () => stage.sim.store.get('customers', customerId)?.city, (city) => city === 'Brno', SLOW);
    expect(stage.sim.store.get('customers', customerId)).toMatchObject({
      phone_number: '+420 602 999 999',
      note_internal: 'Regular on Fridays',
      city: 'Brno',
    });
  });

  it('works in two tabs: one syncs, both show edits at once', async () => {
    const second = await stage.browser.newTab();
    await second.goto(`${stage.server.url}#customers`);
    await waitUntil('the second tab', () => attribute(second, 'html', 'data-ready'), (v) => v === 'true');
    const leaders = async () => [await attribute(tab, '#status', 'data-leader'), await attribute(second, '#status', 'data-leader')];
    await waitUntil('one leader', leaders, ([a, b]) => a === 'true' && b === 'false');

    // An edit in the tab that does not sync shows in the other at once and is pushed by the leader.
    await second.click('[data-test=customer-new]');
    await second.fill('[data-test=customer-firstname]', 'Vratislav');
    await second.fill('[data-test=customer-lastname]', 'E2E-Second-Tab');
    await second.click('[data-test=customer-save]');
    await open('customers');
    await waitUntil('the other tab’s customer', () => customerState(tab, 'Vratislav E2E-Second-Tab'), (s) => s !== undefined);
    await waitUntil('the customer on the server', async () => stage.sim.store.list('customers').filter((c) => c.lastname === 'E2E-Second-Tab').length, (n) => n === 1, SLOW);
    await screenshot(second, 'pos-companion-second-tab');

    // When the syncing tab closes, the other takes over.
    await tab.close();
    await waitUntil('the second tab leading', () => attribute(second, '#status', 'data-leader'), (v) => v === 'true', SLOW);
    tab = second;
  });

  it('asks again for a token the service refuses, and syncs with the new one', async () => {
    // Another origin (its own storage) whose config hands out a wrong token.
    const wrong = await createAppServer({
      root: stage.root,
      apiBaseUrl: stage.sim.baseUrl,
      config: { token: 'sim_not-the-token', tenant: 'e2e-refused' },
      pageErrors: (error) => stage.errors.push(error),
    });
    const other = await stage.browser.newTab();
    try {
      await other.goto(wrong.url);
      await waitForSelector(other, '#status[data-phase="auth-error"]', SLOW);
      expect(await text(other, '[data-test=status-phase]')).toBe('Token refused');
      await other.fill('[data-test=connect-form] input[name=token]', stage.sim.token);
      await other.click('[data-test=connect-form] button[type=submit]');
      await waitForSyncRun(other);
      expect(await count(other, '[data-test=connect-form]')).toBe(0);
      await waitUntil('every register', () => count(other, '[data-test=register]'), (n) => n === registersOf(stage.sim).length);
    } finally {
      await other.close();
      await wrong.stop();
    }
  });

  it('says why the first sync fails at a wrong address, keeps saying it while retrying, and syncs once the address is changed in the settings', async () => {
    // Another origin (its own storage) without a config: the app asks for the address and token.
    const other = await createAppServer({ root: stage.root, apiBaseUrl: stage.sim.baseUrl, pageErrors: (error) => stage.errors.push(error) });
    const page = await stage.browser.newTab();
    const wrong = 'http://127.0.0.1:9/api/v1';
    try {
      await page.goto(other.url);
      await page.fill('[data-test=connect-form] input[name=baseUrl]', wrong);
      await page.fill('[data-test=connect-form] input[name=token]', stage.sim.token);
      await page.click('[data-test=connect-form] button[type=submit]');

      await waitForSelector(page, '[data-test=sync-problem]', SLOW);
      expect(await text(page, '[data-test=sync-problem-reason]')).toBe(`The service at ${wrong} cannot be reached.`);
      expect(await text(page, '[data-test=sync-problem]')).toContain(`accepts requests from ${new URL(other.url).origin}`);
      expect(await text(page, '[data-test=sync-problem-detail]')).toMatch(/^NetworkError: /);
      // The next attempt does not hide the reason.
      await waitForSelector(page, '#status[data-phase="initial-sync"][data-problem="true"]', SLOW);
      expect(await text(page, '[data-test=status-phase]')).toBe('Retrying first sync…');
      expect(await visible(page, '[data-test=sync-problem]')).toBe(true);
      await screenshot(page, 'pos-companion-sync-problem');

      await page.click('[data-test=problem-settings]');
      await waitForSelector(page, '[data-test=settings]');
      expect(await inputValue(page, '[data-test=settings-address]')).toBe(wrong);
      expect(await text(page, '[data-test=stored-address]')).toContain(`Remembered: the service address ${wrong}`);
      expect(await text(page, '[data-test=stored-token]')).toContain('Never stored: the API token');
      await page.fill('[data-test=settings-address]', 'not an address');
      await page.click('[data-test=settings-save]');
      expect(await text(page, '[data-test=settings-address-error]')).toContain('https://');
      await screenshot(page, 'pos-companion-settings');

      // The simulator answers cross-origin requests: the app talks to it directly.
      await page.fill('[data-test=settings-address]', stage.sim.baseUrl);
      await page.fill('[data-test=settings-token]', stage.sim.token);
      await page.click('[data-test=settings-save]');
      await waitForSyncRun(page);
      await waitUntil('every register', () => count(page, '[data-test=register]'), (n) => n === registersOf(stage.sim).length);
      expect(await visible(page, '[data-test=sync-problem]')).toBe(false);
      const remembered = await page.evaluate(() => JSON.stringify({ ...localStorage }));
      expect(remembered).toContain(stage.sim.baseUrl);
      expect(remembered.includes(stage.sim.token)).toBe(false);

      // Not remembering the address forgets it at once, and says so.
      await page.click('[data-test=open-settings]');
      await waitForSelector(page, '[data-test=settings-remember]');
      await page.click('[data-test=settings-remember]');
      expect(await page.evaluate(() => (document.querySelector('[data-test=settings-remember]') as HTMLInputElement).checked)).toBe(false);
      await page.click('[data-test=settings-save]');
      await waitUntil('the address forgotten', () => text(page, '[data-test=stored-address]'), (t) => t?.includes('Not remembered: the service address.') ?? false);
      expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(stage.sim.baseUrl);
    } finally {
      await page.close();
      await other.stop();
    }
  });

  it('says before leaving an address that its changes are not sent, then shows them under the new address and sends them through it, once', async () => {
    // Another origin (its own storage), whose app reaches the service through the app server's proxy.
    const first = await createAppServer({
      root: stage.root,
      apiBaseUrl: stage.sim.baseUrl,
      config: { token: stage.sim.token, tenant: 'e2e-stranded' },
      pageErrors: (error) => stage.errors.push(error),
    });
    const page = await stage.browser.newTab();
    const customers = () => page.click('#tabs a[data-view="customers"]');
    try {
      await page.goto(first.url);
      await waitForSyncRun(page);
      // The proxy goes away: what is changed from now on cannot be sent through it.
      await first.stop();
      const existing = strandedTarget(stage);
      await customers();
      await page.fill('[data-test=customer-search]', String(existing.lastname));
      // Click once the list shows the search's result: the unfiltered list it replaces may hold the customer too.
      await waitUntil('the customer found', () => listedFor(page, String(existing.lastname)), (ids) => ids.includes(existing.id));
      await page.click(`${customer(existing.id)} [data-test=customer-name]`);
      await page.fill('[data-test=customer-city]', 'Přerov');
      await page.click('[data-test=customer-save]');
      await page.fill('[data-test=customer-search]', '');
      await page.click('[data-test=customer-new]');
      await page.fill('[data-test=customer-firstname]', 'Bohdana');
      await page.fill('[data-test=customer-lastname]', 'E2E-Stranded');
      await page.click('[data-test=customer-save]');
      await waitUntil('the new customer waiting to be sent', () => customerState(page, 'Bohdana E2E-Stranded'), (s) => s === 'Waiting to send');
      const createdId = (await page.evaluate(() => [...document.querySelectorAll('[data-test=customer]')].find((r) => r.textContent?.includes('Bohdana E2E-Stranded'))?.getAttribute('data-customer-id') ?? null))!;
      await waitForSelector(page, '#status[data-pending="2"]');

      // Another address (the simulator itself, without the proxy): the app says first what stays behind.
      await page.click('[data-test=open-settings]');
      await waitForSelector(page, '[data-test=settings-address]');
      await page.fill('[data-test=settings-address]', stage.sim.baseUrl);
      await page.fill('[data-test=settings-token]', stage.sim.token);
      await page.click('[data-test=settings-save]');
      await waitForSelector(page, '[data-test=settings-unsent]');
      expect(await text(page, '[data-test=settings-unsent-text]')).toContain(`This device holds 2 changes made under ${first.apiBaseUrl} that the service has not received.`);
      expect(await inputValue(page, '[data-test=settings-address]')).toBe(stage.sim.baseUrl);
      await screenshot(page, 'pos-companion-unsent-warning');
      await page.click('[data-test=settings-confirm-switch]');
      await waitForSyncRun(page);

      // Under the new address, the copy left behind is shown, and its changes go out through this one.
      const copy = '[data-test=stranded-copy]';
      await waitUntil('the copy left behind', () => count(page, copy), (n) => n === 1);
      expect(await text(page, `${copy} [data-test=stranded-text]`)).toMatch(new RegExp(`^2 changes made on this device under ${escape(first.apiBaseUrl)}, the last on .+ were never sent`));
      expect(stage.sim.store.get('customers', createdId)).toBeUndefined();
      await screenshot(page, 'pos-companion-stranded');
      await page.click(`${copy} [data-test=stranded-take-over]`);
      await waitUntil('the changes moved', () => text(page, '[data-test=stranded-result]'), (t) => t === '2 changes moved to this address: sending them now.', SLOW);
      expect(await count(page, copy)).toBe(0);
      await waitUntil('the new customer on the server', async () => stage.sim.store.get('customers', createdId)?.lastname, (name) => name === 'E2E-Stranded', SLOW);
      await waitUntil('the changed city on the server', async () => stage.sim.store.get('customers', existing.id)?.city, (city) => city === 'Přerov', SLOW);
      await waitForSelector(page, '#status[data-pending="0"]', SLOW);
      expect(postsOf(stage.sim, 'customers', createdId)).toBe(1);
      expect(postsOf(stage.sim, 'customers', existing.id)).toBe(1);
    } finally {
      await page.close();
      await first.stop();
    }
  });

  it('keeps the token out of localStorage, IndexedDB and Cache Storage', async () => {
    // Read in the page, answered as three facts (the stored text is megabytes).
    const stored = await tab.evaluate(async (token) => {
      const parts: string[] = [];
      for (const storage of [localStorage, sessionStorage]) {
        for (let i = 0; i < storage.length; i++) parts.push(storage.key(i)!, storage.getItem(storage.key(i)!) ?? '');
      }
      for (const name of await caches.keys()) {
        parts.push(`cache ${name}`);
        const cache = await caches.open(name);
        for (const request of await cache.keys()) parts.push(request.url, JSON.stringify([...request.headers]), await (await cache.match(request))!.text());
      }
      const ask = <T,>(request: IDBRequest<T>) => new Promise<T>((ok, fail) => ((request.onsuccess = () => ok(request.result)), (request.onerror = () => fail(request.error))));
      for (const info of await indexedDB.databases()) {
        const db = await ask(indexedDB.open(info.name!));
        for (const store of Array.from(db.objectStoreNames)) parts.push(info.name!, store, JSON.stringify(await ask(db.transaction(store).objectStore(store).getAll())));
        db.close();
      }
      const all = parts.join('\n');
      return { records: all.includes('E2E-Second-Tab'), shell: all.includes('cache app-shell'), token: all.includes(token) };
    }, stage.sim.token);
    // It read the records (customers created above are in it) and the cached app shell; the token is nowhere.
    expect(stored).toEqual({ records: true, shell: true, token: false });
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

/** Waits until this tab (the syncing one) has completed a whole sync run and is idle. */
function waitForSyncRun(tab: EngineTab): Promise<void> {
  return waitForSelector(tab, '#status[data-cycle="done"][data-phase="idle"]', { timeout: 60_000, interval: 200 });
}

/** The state badge of the first customer row whose text holds `name`: its text, null without one, undefined without such a row. */
function customerState(tab: EngineTab, name: string): Promise<string | null | undefined> {
  return tab.evaluate((n) => {
    const row = [...document.querySelectorAll('[data-test=customer]')].find((r) => r.textContent?.includes(n));
    return row ? (row.querySelector('[data-test=customer-state]')?.textContent ?? null) : undefined;
  }, name);
}

/** The customers listed, once every row matches `text` as the search does (the list is its result); else none. */
function listedFor(tab: EngineTab, text: string): Promise<string[]> {
  return tab.evaluate((needle) => {
    const rows = [...document.querySelectorAll('[data-test=customer]')];
    const filtered = rows.every((r) => (r.textContent ?? '').toLocaleLowerCase().includes(needle.toLocaleLowerCase()));
    return filtered ? rows.map((r) => r.getAttribute('data-customer-id') ?? '') : [];
  }, text);
}

/** How many edits wait in the outbox of every database of the page's origin. */
function outboxSize(tab: EngineTab): Promise<number> {
  return tab.evaluate(async () => {
    const ask = <T,>(r: IDBRequest<T>) => new Promise<T>((ok, fail) => ((r.onsuccess = () => ok(r.result)), (r.onerror = () => fail(r.error))));
    let pending = 0;
    for (const info of await indexedDB.databases()) {
      const db = await ask(indexedDB.open(info.name!));
      if (db.objectStoreNames.contains('_sync_outbox')) pending += await ask(db.transaction('_sync_outbox').objectStore('_sync_outbox').count());
      db.close();
    }
    return pending;
  });
}

/**
 * Records every state of the status bar from now on (phase text, last sync text), the current one
 * first. Installed right after the page loads: the first sync, slowed by the simulator, is still
 * running then.
 */
async function recordStatusBar(tab: EngineTab): Promise<void> {
  await tab.evaluate(() => {
    const seen: { phase: string; lastSync: string | null }[] = [];
    (window as unknown as { __statusSeen: typeof seen }).__statusSeen = seen;
    const bar = document.getElementById('status')!;
    const note = () => {
      const phase = bar.querySelector('[data-test=status-phase]')?.textContent ?? '';
      seen.push({ phase, lastSync: bar.querySelector('[data-test=status-last-sync]')?.textContent ?? null });
    };
    note();
    new MutationObserver(note).observe(bar, { childList: true, subtree: true, characterData: true });
  });
}

/** What {@link recordStatusBar} saw. */
function statusSeen(tab: EngineTab): Promise<{ phase: string; lastSync: string | null }[]> {
  return tab.evaluate(() => (window as unknown as { __statusSeen: { phase: string; lastSync: string | null }[] }).__statusSeen);
}
