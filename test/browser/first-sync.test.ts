/**
 * The first sync of the small tenant in a real browser, with a live query following it as a UI
 * bound to it would: the counts it shows grow page by page and end equal to the simulator's.
 */
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { COLLECTIONS } from '../../src/schema/collections.js';
import { SLOW, waitUntil } from '../e2e/dom.js';
import type { PageWindow } from './page/harness.js';
import { expectNoPageErrors, freshTenant, startStage, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

const TABLES = [...COLLECTIONS, 'categories'] as const;

describeEngines('the first sync in %s', { timeout: 120_000 }, (engine) => {
  let stage: Stage;

  beforeAll(async () => {
    stage = await startStage(engine, { sim: { size: 'small' } });
  }, 60_000);

  afterAll(async () => {
    await stage?.close();
  });

  it('fills every table of the small tenant while a live query follows the counts up to the simulator\'s', async () => {
    const tab = await stage.openPage();
    await tab.evaluate(
      async ({ token, tenant, tables }) => {
        const { conformance } = window as unknown as PageWindow;
        conformance.openMirror({ token, tenant });
        conformance.followCounts('tables', tables);
        await (window as unknown as PageWindow).mirror.start();
      },
      { token: stage.sim.token, tenant: freshTenant('first-sync'), tables: [...TABLES] },
    );
    await waitUntil('the first sync to end', () => tab.evaluate(() => (window as unknown as PageWindow).mirror.status.value.lastSyncAt !== undefined), Boolean, SLOW);

    const expected = Object.fromEntries(TABLES.map((t) => [t, stage.sim.store.count(t)]));
    // The live query's last answer comes after the last write it saw: wait for it to catch up. (Keys
    // are compared as a set: WebKitWebDriver hands objects back with their keys in its own order.)
    const answers = await waitUntil(
      'the live query to show the final counts',
      () => tab.evaluate(() => (window as unknown as PageWindow).answers.tables!),
      (seen) => isDeepStrictEqual(seen.at(-1), expected),
    );
    expect(answers.at(-1)).toEqual(expected);
    // It followed the sync: many answers, totals never going down, and some in between nothing and everything.
    const totals = answers.map((a) => Object.values(a).reduce((s, n) => s + n, 0));
    const final = totals.at(-1)!;
    expect(totals.every((total, i) => i === 0 || total >= totals[i - 1]!)).toBe(true);
    expect(totals.filter((total) => total > 0 && total < final).length).toBeGreaterThanOrEqual(3);
    const phases = await tab.evaluate(() => (window as unknown as PageWindow).statuses.map((s) => s.phase));
    expect(phases).toContain('initial-sync');
    expect(phases.at(-1)).toBe('idle');
    await tab.evaluate(() => (window as unknown as PageWindow).mirror.close());
    await tab.close();
    expectNoPageErrors(stage);
  });
});
