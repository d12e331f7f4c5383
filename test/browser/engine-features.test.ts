/**
 * What each engine offers of the features the library falls back without, and the fallback taken
 * where one is missing: the engine's own absence (WebKitGTK has no `navigator.storage`), and the
 * same absence forced in the engines that have it. (Web Locks are taken away in `tabs.test.ts`,
 * where the lease that replaces them is tested.)
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SLOW, waitUntil } from '../e2e/dom.js';
import type { PageWindow } from './page/harness.js';
import { expectNoPageErrors, freshTenant, startStage, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

describeEngines('the features %s offers', { timeout: 60_000 }, (engine) => {
  let stage: Stage;

  beforeAll(async () => {
    stage = await startStage(engine);
  }, 60_000);

  afterAll(async () => {
    await stage?.close();
  });

  it('Web Locks, BroadcastChannel and indexedDB.databases() everywhere; navigator.storage.persist not in WebKitGTK', async () => {
    const tab = await stage.openPage();
    expect(await tab.evaluate(() => (window as unknown as PageWindow).conformance.features())).toEqual({
      webLocks: true,
      broadcastChannel: true,
      databasesList: true,
      persist: engine !== 'webkit',
    });
    await tab.close();
    expectNoPageErrors(stage);
  });

  it.each([
    { way: 'as the engine offers it', flags: {} },
    { way: 'without navigator.storage', flags: { 'no-storage-manager': true } },
  ])('the mirror asks to keep its storage where the browser can, and syncs either way ($way)', async ({ flags }) => {
    const tab = await stage.openPage(flags);
    await tab.evaluate(async (o) => {
      const page = window as unknown as PageWindow & { asked: string[] };
      page.asked = [];
      // Counts what the library asks of the storage manager, answering as the engine does.
      const manager = navigator.storage as StorageManager | undefined;
      for (const method of ['persist', 'persisted'] as const) {
        const original = manager?.[method]?.bind(manager);
        if (manager && original) manager[method] = () => (page.asked.push(method), original());
      }
      await page.conformance.openMirror(o).start();
    }, { token: stage.sim.token, tenant: freshTenant('persist'), pollIntervalMs: 600_000 });
    await waitUntil('the first sync', () => tab.evaluate(() => (window as unknown as PageWindow).mirror.status.value.lastSyncAt !== undefined), Boolean, SLOW);
    const { present, asked } = await tab.evaluate(() => ({
      present: typeof navigator.storage?.persist === 'function',
      asked: (window as unknown as { asked: string[] }).asked,
    }));
    expect(present).toBe(engine !== 'webkit' && !('no-storage-manager' in flags));
    // Where it can, the library asks whether the storage is kept already, then to keep it.
    expect(asked.slice(0, 1)).toEqual(present ? ['persisted'] : []);
    await tab.evaluate(() => (window as unknown as PageWindow).mirror.close());
    await tab.close();
    expectNoPageErrors(stage);
  });
});
