/**
 * What a real engine tells the mirror's status of its storage: whether it is kept for good
 * (`persisted`) and the origin's usage and quota, after a first sync. Types and bounds only: the
 * figures are each engine's own (WebKitGTK has no `navigator.storage`, so there the fields stay
 * undefined).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SLOW, waitUntil } from '../e2e/dom.js';
import type { PageWindow } from './page/harness.js';
import { expectNoPageErrors, freshTenant, startStage, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

describeEngines('the storage status in %s', { timeout: 120_000 }, (engine) => {
  let stage: Stage;

  beforeAll(async () => {
    stage = await startStage(engine);
  }, 60_000);

  afterAll(async () => {
    await stage?.close();
  });

  it('reports persisted as a boolean and the quota as numbers, usage above 0 and within the quota, after a first sync', async () => {
    const tab = await stage.openPage();
    await tab.evaluate(async (o) => {
      await (window as unknown as PageWindow).conformance.openMirror(o).start();
    }, { token: stage.sim.token, tenant: freshTenant('storage-status'), pollIntervalMs: 600_000 });
    await waitUntil('the first sync', () => tab.evaluate(() => (window as unknown as PageWindow).mirror.status.value.lastSyncAt !== undefined), Boolean, SLOW);
    // The storage is read again as the first sync ends (Firefox says 0 bytes used at the start).
    await waitUntil('the reading after the first sync', () => tab.evaluate(() => navigator.storage?.estimate === undefined || ((window as unknown as PageWindow).mirror.status.value.quota?.usage ?? 0) > 0));
    // And once more through persist() where the engine answers it.
    // Firefox asks the user before it keeps a site's storage: persist() waits for an answer no one gives here.
    const asks = engine !== 'firefox';
    const seen = await tab.evaluate(async (asks) => {
      const { mirror } = window as unknown as PageWindow;
      const granted = asks ? await mirror.persist() : false;
      const { persisted, quota } = mirror.status.value;
      return { storageManager: typeof navigator.storage?.estimate === 'function', granted, persisted: persisted ?? null, quota: quota ?? null };
    }, asks);
    expect(seen.storageManager).toBe(engine !== 'webkit');
    if (!seen.storageManager) {
      expect(seen).toMatchObject({ granted: false, persisted: null, quota: null });
    } else {
      expect(typeof seen.granted).toBe('boolean');
      expect(typeof seen.persisted).toBe('boolean');
      expect(seen.quota).not.toBeNull();
      const { usage, quota, at } = seen.quota!;
      expect([typeof usage, typeof quota, typeof at]).toEqual(['number', 'number', 'number']);
      expect(usage).toBeGreaterThan(0);
      expect(usage).toBeLessThanOrEqual(quota);
    }
    await tab.evaluate(() => (window as unknown as PageWindow).mirror.close());
    await tab.close();
    expectNoPageErrors(stage);
  });
});
