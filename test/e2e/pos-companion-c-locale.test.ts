/**
 * The Shop companion in WebKit on a device whose locale nobody set up: MiniBrowser started under
 * `LANG=C.UTF-8` reports `navigator.language === "C"`, a tag `Intl` refuses. The app formats
 * money, dates and numbers in the locale that tag stands for (en-US) instead of going blank; and
 * when a view cannot show what it read (here an order whose currency code no format takes), it
 * says so in its place, with the technical line, and shows the sales again once the record is
 * corrected. Only WebKit can be started under a POSIX locale name.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { money } from '../../examples/shared/format.js';
import type { EngineTab } from '../../scripts/engines/index.js';
import { runnableEngines } from '../engines/describe-engines.js';
import { attribute, count, SLOW, text, waitForSelector, waitUntil } from './dom.js';
import { openApp } from './app-on-stage.js';
import type { PageErrorWatch } from './page-error-watch.js';
import { latestOrderOf, registersOf } from './sim-facts.js';
import { screenshot, type Stage } from './stage.js';

describe.runIf(runnableEngines().includes('webkit'))('Shop companion in WebKit under the C locale', { timeout: 120_000 }, () => {
  let stage: Stage;
  let tab: EngineTab;
  let watch: PageErrorWatch;

  beforeAll(async () => {
    ({ stage, tab, watch } = await openApp('pos-companion', { size: 'tiny', seed: 21, activity: false }, 'webkit', { locale: 'C' }));
  }, 180_000);
  afterAll(() => stage?.close());
  afterEach(() => expect(watch.unexpected(), 'errors the pages reported').toEqual([]));

  const card = (registerId: string) => `[data-test=register][data-register-id="${registerId}"]`;

  it('shows every register and its sales, formatted as en-US, though the page reports the language "C"', async () => {
    await tab.goto(stage.server.url);
    // The device as it is: the language tag is "C", and Intl refuses it.
    expect(await tab.evaluate(() => [navigator.language, (() => {
      try {
        return new Intl.NumberFormat(navigator.language).format(1);
      } catch (error) {
        return (error as Error).name;
      }
    })()])).toEqual(['C', 'RangeError']);
    await waitForSelector(tab, '#status[data-cycle="done"][data-phase="idle"]', { timeout: 60_000, interval: 200 });

    const registers = registersOf(stage.sim);
    await waitUntil('every register', () => count(tab, '[data-test=register]'), (n) => n === registers.length);
    for (const register of registers) {
      const latest = latestOrderOf(stage.sim, register.id)!;
      await waitUntil(`register ${register.id}'s latest sale`, () => attribute(tab, `${card(register.id)} [data-test=order]`, 'data-order-id'), (id) => id === latest.id);
      expect(await text(tab, `${card(register.id)} [data-test=order-total]`)).toBe(money(latest.total_paid_tax_incl, latest.currency as string, 'en-US'));
    }
    expect(await text(tab, '[data-test=takings-today]')).toMatch(/^CZK\s[\d,]+\.\d\d/);
    await screenshot(tab, 'pos-companion-sales-c-locale');
  });

  it('says in the Sales view that the sales cannot be shown when an order carries a currency no format takes, and shows them again once it is corrected', async () => {
    // A currency stored in a CHAR(3) column: "Kč" padded with a space, which no currency format takes.
    const register = registersOf(stage.sim)[0]!;
    const order = latestOrderOf(stage.sim, register.id)!;
    stage.sim.store.write('orders', { id: order.id, currency: 'Kč ' });
    watch.allow(/^console\.error: the sales cannot be shown: ValidationError: formatMoney: invalid currency "Kč "/);

    await waitForSelector(tab, '[data-test=view-problem]', SLOW);
    expect(await text(tab, '[data-test=view-problem-reason]')).toBe('The sales cannot be shown.');
    expect(await text(tab, '[data-test=view-problem]')).toContain('Reload the page to try again');
    expect(await text(tab, '[data-test=view-problem-detail]')).toMatch(/^ValidationError: formatMoney: invalid currency "Kč ": /);
    expect(await count(tab, '[data-test=register]')).toBe(0);
    await waitUntil('the error reported', async () => stage.errors.some((e) => e.message.includes('the sales cannot be shown')), Boolean);
    await screenshot(tab, 'pos-companion-view-problem-c-locale');

    // The other views work meanwhile.
    await tab.click('#tabs a[data-view="customers"]');
    await waitForSelector(tab, '[data-test=customer]');
    await tab.click('#tabs a[data-view="sales"]');
    await waitForSelector(tab, '[data-test=view-problem]');

    // Corrected on the server, the order syncs and the sales show again, without a reload.
    stage.sim.store.write('orders', { id: order.id, currency: 'CZK' });
    await waitUntil('every register again', () => count(tab, '[data-test=register]'), (n) => n === registersOf(stage.sim).length, SLOW);
    expect(await count(tab, '[data-test=view-problem]')).toBe(0);
  });
});
