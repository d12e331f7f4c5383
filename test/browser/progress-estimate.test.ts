/**
 * The estimate of a long first sync in a real browser: with a slow service (every answer waits, as
 * on a shop's poor line), a traversal of thirty pages shows about how many records it has left
 * within its first few pages, not near its end, and says exactly none left at the end.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SLOW, waitUntil } from '../e2e/dom.js';
import type { PageWindow } from './page/harness.js';
import { expectNoPageErrors, freshTenant, startStage, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

/**
 * What the page kept of each progress of the stock history it saw, oldest first; null without an
 * estimate (WebKitWebDriver hands `undefined` back as null).
 */
interface SeenProgress {
  pages: number;
  records: number;
  done: boolean;
  total: number | null;
  remaining: number | null;
}

describeEngines('the estimate of a first sync in %s', { timeout: 120_000 }, (engine) => {
  let stage: Stage;

  beforeAll(async () => {
    // Every answer, the traversal's pages and the estimate's questions alike, waits 100 ms.
    stage = await startStage(engine, { sim: { size: { stock_history: 1_500 }, seed: 4, activity: false, faults: { latencyMs: 100 } } });
  }, 60_000);

  afterAll(async () => {
    await stage?.close();
  });

  it('shows what is left within the first few pages of a slow service, and none left at the end', async () => {
    const tab = await stage.openPage();
    await tab.evaluate(
      async (o) => {
        const page = window as unknown as PageWindow & { progressSeen: SeenProgress[] };
        const mirror = page.conformance.openMirror(o);
        page.progressSeen = [];
        mirror.progress.subscribe((p) => {
          const c = p.collections.stock_history;
          if (c) page.progressSeen.push({ pages: c.pages, records: c.records, done: c.done, total: c.estimate?.total ?? null, remaining: c.estimate?.remaining ?? null });
        });
        await mirror.start();
      },
      { token: stage.sim.token, tenant: freshTenant('estimate'), pageLimit: 50, collections: ['stock_history' as const] },
    );
    await waitUntil('the first sync to end', () => tab.evaluate(() => (window as unknown as PageWindow).mirror.status.value.lastSyncAt !== undefined), Boolean, SLOW);
    const seen = await tab.evaluate(() => (window as unknown as { progressSeen: SeenProgress[] }).progressSeen);
    const actual = stage.sim.store.count('stock_history');

    const last = seen.at(-1)!;
    expect(last).toMatchObject({ done: true, records: actual, total: actual, remaining: 0 });
    expect(last.pages).toBeGreaterThanOrEqual(25);
    // The newest records and then the first pass's probes, a few at a time: about three round trips
    // after the second page (page 5 here; a busy engine's page may pass by first). One probe at a time
    // it took nine, and the estimate came at page 10 or 11.
    const first = seen.find((p) => !p.done && p.total !== null);
    expect(first?.pages, 'the page at which the first estimate showed').toBeLessThanOrEqual(8);
    await tab.evaluate(() => (window as unknown as PageWindow).mirror.close());
    await tab.close();
    expectNoPageErrors(stage);
  });
});
