/**
 * The Shop companion on a new tablet of a medium shop (about 87,000 records, years of history) in
 * Chromium, Firefox and WebKit: today's sales show, read from the mirror, as soon as the `recent`
 * sync group is in, while the rest of the history is still arriving. The test waits for the group
 * (the Sales view's note, from `mirror.status`), not for the whole first sync.
 *
 * The browser reaches the app through a front (`../browser/front.ts`) that holds chosen requests
 * to the service: the last day's orders until the note has said they are still arriving, and the
 * stock history (the history's last list) until the test has looked, so the first sync cannot
 * have ended when the figures are compared, however fast or slow the machine is.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { money, quantity } from '../../examples/shared/format.js';
import type { EngineTab } from '../../scripts/engines/index.js';
import { describeEngines } from '../engines/describe-engines.js';
import { startFront, type Front } from '../browser/front.js';
import { openApp } from './app-on-stage.js';
import { attribute, SLOW, text, waitUntil } from './dom.js';
import type { PageErrorWatch } from './page-error-watch.js';
import { registersOf, salesSinceOf } from './sim-facts.js';
import { screenshot, type Stage } from './stage.js';

const LOCALE = 'en-US';
const NOTE = '[data-test=sales-note]';

/**
 * An IANA zone whose clock reads about 18:00 at `now`. The simulator's last day of sales runs from
 * 12 to 2 hours before its present (the start of its clock), so there all of it falls today, at
 * whatever hour the test runs.
 */
function eveningZone(now: Date): string {
  const offset = ((54 - now.getUTCHours()) % 24) - 12;
  // Etc/GMT+N is N hours behind UTC.
  return offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

/** What the Sales view shows, read in one go: the note and each register's figures for today. */
interface SalesSeen {
  note: { state: string | null; text: string } | null;
  registers: { id: string; count: number; takings: string }[];
}

function salesSeen(tab: EngineTab): Promise<SalesSeen> {
  return tab.evaluate(() => {
    const note = document.querySelector<HTMLElement>('[data-test=sales-note]');
    return {
      note: note && !note.hidden ? { state: note.getAttribute('data-state'), text: note.textContent ?? '' } : null,
      registers: [...document.querySelectorAll('[data-test=register]')].map((card) => ({
        id: card.getAttribute('data-register-id') ?? '',
        count: Number(card.querySelector('[data-test=register-sales-today]')?.getAttribute('data-count')),
        takings: card.querySelector('[data-test=register-takings-today]')?.textContent ?? '',
      })),
    };
  });
}

describeEngines('Shop companion on a medium shop’s new tablet in %s', { timeout: 120_000 }, (engine) => {
  let stage: Stage;
  let front: Front;
  let tab: EngineTab;
  let watch: PageErrorWatch;

  beforeAll(async () => {
    // The simulator's clock starts now (the stage's default), so its last day of sales is the tablet's.
    ({ stage, tab, watch } = await openApp('pos-companion', { size: 'medium', seed: 3, activity: false }, engine, { locale: LOCALE, timezone: eveningZone(new Date()) }));
    front = await startFront(stage.server.url, new URL(stage.server.apiBaseUrl).pathname);
  }, 180_000);
  afterAll(async () => {
    await stage?.close();
    await front?.close();
  });
  afterEach(() => expect(watch.unexpected(), 'errors the pages reported').toEqual([]));

  it('shows today’s sales of every register as the simulator has them once the recent group is in, while the history is still arriving', async () => {
    const service = new URL(stage.server.apiBaseUrl).pathname;
    const listOf = (collection: string) => (url: URL, method: string) => method === 'GET' && url.pathname === `${service}/${collection}`;
    const orders = front.stall(listOf('orders'));
    // Held until the stage closes: the first sync cannot end while the test looks.
    front.stall(listOf('stock_history'));
    await tab.goto(front.url);

    // The registers are in (the reference group) but not the last day's orders: the note says so.
    let ordersAsked = false;
    void orders.reached.then(() => (ordersAsked = true));
    await waitUntil('the first request for the orders (after the catalogue)', async () => ordersAsked, Boolean, { timeout: 90_000, interval: 200 });
    const arriving = await waitUntil('the note that today’s sales are still arriving', () => salesSeen(tab), (s) => s.note?.state === 'recent' && s.registers.length > 0, SLOW);
    expect(arriving.note?.text).toBe('Today’s sales are still arriving: the figures below are not complete yet.');
    orders.release();

    // The recent group: today's sales are in, the history is not.
    await waitUntil('the recent group', () => attribute(tab, NOTE, 'data-state'), (s) => s === 'history', SLOW);
    const startOfDay = await tab.evaluate(() => new Date().setHours(0, 0, 0, 0));
    const registers = registersOf(stage.sim);
    const expected = new Map(registers.map((r) => {
      const today = salesSinceOf(stage.sim, r.id, startOfDay);
      return [r.id, { count: today.count, takings: money(today.total, today.currency, LOCALE) }];
    }));
    // Every register sold on the simulator's last day, all of it today in the tablet's time zone.
    expect([...expected.values()].filter((e) => e.count === 0)).toEqual([]);

    // The page is read in one go until its figures match (the sales' live query may render a beat
    // after the status): the note read with them says the history had not arrived.
    const seen = await waitUntil('today’s sales of every register as the simulator has them', () => salesSeen(tab), (s) =>
      s.registers.length === registers.length && s.registers.every((r) => expected.get(r.id)?.count === r.count && expected.get(r.id)?.takings === r.takings), SLOW);
    expect(seen.note?.state).toBe('history');
    expect(seen.note?.text).toMatch(/^Today’s sales are in; older history is still arriving \([0-5] of 6 lists complete\)\.$/);
    // The first sync had not ended: the service has not been asked for the stock history yet.
    expect(stage.sim.requests.count('GET /stock_history')).toBe(0);
    expect(await attribute(tab, '#status', 'data-phase')).toBe('initial-sync');
    const total = [...expected.values()].reduce((n, e) => n + e.count, 0);
    expect(await text(tab, '[data-test=sales-today]')).toBe(quantity(total, LOCALE));
    await screenshot(tab, 'pos-companion-recent');
  });
});
