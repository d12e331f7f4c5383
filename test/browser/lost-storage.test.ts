/**
 * The process serving IndexedDB killed under a syncing mirror, as iOS ends WebKit's when an app
 * goes to the background: during a pull and during saves. WebKit only (driven through its
 * inspector: a kill ends a WebDriver session): Chromium serves IndexedDB from its browser process
 * (`storage-process-probe.test.ts`), Firefox from its parent process.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchInspectedWebKit } from '../../scripts/engines/webkit-inspected.js';
import { SLOW, waitUntil } from '../e2e/dom.js';
import type { PageWindow } from './page/harness.js';
import { expectNoPageErrors, freshTenant, startStage, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

/** What the page keeps of this test's calls. */
interface Kept {
  marker: string;
  run?: string;
  saves: (string | null)[];
  errors: string[];
  /** The ids the rejected saves name (`StorageError.id`): none of them was stored. */
  rejected: string[];
}

describeEngines('the storage process killed under a mirror in %s', { timeout: 120_000 }, (engine) => {
  let stage: Stage;

  beforeAll(async () => {
    stage = await startStage(engine, { browser: launchInspectedWebKit });
  }, 60_000);

  afterAll(async () => {
    await stage?.close();
  });

  it('keeps every acknowledged save, shows the loss, and syncs and answers live queries again without a reload', async () => {
    const { sim } = stage;
    const tab = await stage.openPage();
    await tab.evaluate(async (o) => {
      const page = window as unknown as PageWindow & { kept: Kept };
      page.kept = { marker: 'the same page', saves: [], errors: [], rejected: [] };
      const mirror = page.conformance.openMirror(o);
      page.conformance.followCounts('customers', ['customers']);
      await mirror.start();
    }, { token: sim.token, tenant: freshTenant('lost-storage'), pollIntervalMs: 600_000 });
    await waitUntil('the first sync', () => tab.evaluate(() => (window as unknown as PageWindow).mirror.status.value.lastSyncAt !== undefined), Boolean, SLOW);
    const kept = () => tab.evaluate(() => (window as unknown as { kept: Kept }).kept);

    // During a pull: the customers' list is held until the kill.
    sim.store.write('customers', { company: null, lastname: 'Pulled after the loss' });
    const stall = stage.front.stall((url, method) => method === 'GET' && url.pathname.endsWith('/customers'), 'request');
    await tab.evaluate(() => {
      const page = window as unknown as PageWindow & { kept: Kept };
      void page.mirror.syncNow({ collections: ['customers'] }).then(
        () => (page.kept.run = 'ok'),
        (error: Error) => (page.kept.run = `${error.name}: ${error.message}`),
      );
    });
    await stall.reached;
    expect(await stage.browser.killStorage!()).toBe(1);
    stall.end();
    await waitUntil('the pull to end', kept, (k) => k.run !== undefined, SLOW);

    // During saves: twenty in a row, the process killed while they go.
    await tab.evaluate(() => {
      const page = window as unknown as PageWindow & { kept: Kept };
      void (async () => {
        for (let i = 0; i < 20; i++) {
          await page.mirror.save('customers', { company: null, lastname: `Saved ${i}` }).then(
            (id) => page.kept.saves.push(String(id)),
            (error: Error & { problem?: string; id?: string }) => {
              page.kept.saves.push(null);
              if (error.id !== undefined) page.kept.rejected.push(error.id);
              page.kept.errors.push(`${error.name} ${error.problem ?? (error.message + " / " + String((error as { inner?: Error }).inner?.name) + ": " + String((error as { inner?: Error }).inner?.message))}`);
            },
          );
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
    });
    await waitUntil('a few saves', kept, (k) => k.saves.length >= 3, SLOW);
    expect(await stage.browser.killStorage!()).toBe(1);
    const afterSaves = await waitUntil('every save to end', kept, (k) => k.saves.length === 20, SLOW);
    for (const error of afterSaves.errors) expect(error).toBe('StorageError connection-lost');
    // A rejected save that got as far as minting its create's id names it (one that met the loss
    // sooner has none), and nothing is stored under it (checked below).
    expect(afterSaves.rejected.length).toBeLessThanOrEqual(afterSaves.errors.length);

    // Carries on: one more save and an update of a record read back since, then a sync of everything.
    // Made again when they meet the loss, as the docs tell an app to: a kill waits for a network
    // process that young to have run 1.5 s, so it can land after the twenty saves, under these.
    const updated = afterSaves.saves.find((id): id is string => id !== null)!;
    const last = await tab.evaluate(async (toUpdate) => {
      const { mirror } = window as unknown as PageWindow;
      const again = async <T,>(edit: () => Promise<T>): Promise<T> => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await edit();
          } catch (error) {
            if (attempt >= 10 || (error as { problem?: string }).problem !== 'connection-lost') throw error;
            await new Promise((resolve) => setTimeout(resolve, 300));
          }
        }
      };
      const id = await again(() => mirror.save('customers', { company: null, lastname: 'After the loss' }));
      await again(() => mirror.save('customers', { id: toUpdate as never, lastname: 'Updated after the loss' }));
      await mirror.syncNow().catch(() => mirror.syncNow());
      return String(id);
    }, updated);
    expect(sim.store.get('customers', updated as never)).toMatchObject({ lastname: 'Updated after the loss' });
    const acknowledged = [...afterSaves.saves.filter((id): id is string => id !== null), last];
    const stored = await tab.evaluate((ids) => Promise.all(ids.map(async (id) => (await (window as unknown as PageWindow).mirror.db.table('customers').get(id)) !== undefined)), acknowledged);
    expect(stored.every(Boolean)).toBe(true);
    for (const id of acknowledged) expect(sim.store.get('customers', id as never), id).toBeDefined();
    const rejectedStored = await tab.evaluate((ids) => Promise.all(ids.map(async (id) => (await (window as unknown as PageWindow).mirror.db.table('customers').get(id)) !== undefined)), afterSaves.rejected);
    expect(rejectedStored.filter(Boolean)).toEqual([]);
    for (const id of afterSaves.rejected) expect(sim.store.get('customers', id as never), id).toBeUndefined();
    const end = await tab.evaluate(async () => {
      const page = window as unknown as PageWindow & { kept: Kept };
      return { marker: page.kept.marker, pending: (await page.mirror.pending()).length, phase: page.mirror.status.value.phase, run: page.kept.run, reopening: page.statuses.filter((s) => s.storage === 'reopening').length, storage: page.mirror.status.value.storage, count: await page.mirror.db.table('customers').count() };
    });
    expect(end).toMatchObject({ marker: 'the same page', pending: 0, phase: 'idle', storage: 'open', count: sim.store.count('customers') });
    // Both kills were seen as they happened (a sync run that met one also shows it as lastError).
    expect(end.reopening).toBeGreaterThanOrEqual(2);
    // The sync met by the loss either finished before it or rejected with what the engine said.
    expect(end.run).toMatch(/^ok$|Indexed Database server/);
    await waitUntil('the live query to follow', () => tab.evaluate(() => (window as unknown as PageWindow).answers.customers!.at(-1)?.customers), (n) => n === sim.store.count('customers'), SLOW);
    await tab.evaluate(() => (window as unknown as PageWindow).mirror.close());
    expectNoPageErrors(stage);
  });
}, ['webkit']);
