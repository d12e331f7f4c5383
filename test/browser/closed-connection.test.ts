/**
 * The engine closes the mirror's connection under the page when another connection changes the
 * database: a newer release of the app upgrading it in another tab (`versionchange`), or the
 * database deleted (another tab, or the person clearing the site's data). The mirror's tab lets go
 * at once, so the other side is never blocked, and carries on on the database as it is then.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type EngineTab } from '../../scripts/engines/index.js';
import { COLLECTIONS } from '../../src/schema/collections.js';
import { SLOW, waitUntil } from '../e2e/dom.js';
import type { PageMirrorOptions, PageWindow } from './page/harness.js';
import { expectNoPageErrors, freshTenant, startStage, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

describeEngines('a connection closed under the page in %s', { timeout: 60_000 }, (engine) => {
  let stage: Stage;

  beforeAll(async () => {
    stage = await startStage(engine);
  }, 60_000);

  afterAll(async () => {
    await stage?.close();
  });

  /** A tab whose mirror is started and synced, following its customers with a live query. */
  async function syncedTab(open: PageMirrorOptions): Promise<{ tab: EngineTab; name: string }> {
    const tab = await stage.openPage();
    const name = await tab.evaluate(async (o) => {
      const { conformance } = window as unknown as PageWindow;
      const mirror = conformance.openMirror(o);
      conformance.followCounts('customers', ['customers']);
      await mirror.start();
      return mirror.db.name;
    }, open);
    await waitUntil('the first sync', () => tab.evaluate(() => (window as unknown as PageWindow).mirror.status.value.lastSyncAt !== undefined), Boolean, SLOW);
    return { tab, name };
  }

  it('a newer version opened in another tab is not blocked, and the mirror carries on on it', async () => {
    const { sim } = stage;
    const { tab, name } = await syncedTab({ token: sim.token, tenant: freshTenant('versionchange'), pollIntervalMs: 600_000 });
    const other = await stage.openPage();
    // A later release adds a table: IndexedDB version 100 (Dexie's version 10).
    const upgraded = await other.evaluate(
      (dbName) =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open(dbName, 100);
          open.onupgradeneeded = () => open.result.createObjectStore('added_by_a_later_release', { keyPath: 'id' });
          open.onsuccess = () => {
            const version = open.result.version;
            open.result.close();
            resolve(version);
          };
          open.onerror = () => reject(open.error);
          open.onblocked = () => reject(new Error('the upgrade is blocked by the mirror\'s open connection'));
        }),
      name,
    );
    expect(upgraded).toBe(100);
    await other.close();

    sim.store.write('customers', { company: null, lastname: 'After the upgrade' });
    const after = await tab.evaluate(async () => {
      const { mirror } = window as unknown as PageWindow;
      await mirror.syncNow();
      const id = await mirror.save('customers', { company: null, lastname: 'Saved after the upgrade' });
      await mirror.syncNow();
      return { id, version: mirror.db.backendDB().version, pending: (await mirror.pending()).length, phase: mirror.status.value.phase };
    });
    expect(after).toMatchObject({ version: 100, pending: 0, phase: 'idle' });
    expect(sim.requests.timesPosted('customers', after.id)).toBe(1);
    await waitUntil('the live query to follow', () => tab.evaluate(() => (window as unknown as PageWindow).answers.customers!.at(-1)?.customers), (n) => n === sim.store.count('customers'));
    await tab.evaluate(() => (window as unknown as PageWindow).mirror.close());
    await tab.close();
    expectNoPageErrors(stage);
  });

  it('a database deleted under the page is made again and filled by the next sync', async () => {
    const { sim } = stage;
    const { tab, name } = await syncedTab({ token: sim.token, tenant: freshTenant('deleted'), pollIntervalMs: 600_000 });
    const other = await stage.openPage();
    await other.evaluate((dbName) => (window as unknown as PageWindow).conformance.deleteDatabase(dbName), name);
    await other.close();

    await tab.evaluate(async () => void (await (window as unknown as PageWindow).mirror.syncNow()));
    const counts = await tab.evaluate(
      (tables) => Promise.all(tables.map((t) => (window as unknown as PageWindow).mirror.db.table(t).count())),
      [...COLLECTIONS],
    );
    expect(counts).toEqual(COLLECTIONS.map((c) => sim.store.count(c)));
    // The status and the page's live queries follow the new database: an edit made while the
    // service is cut shows as pending, then goes out.
    stage.front.cutService(true);
    await tab.evaluate(() => (window as unknown as PageWindow).mirror.save('customers', { company: null, lastname: 'In the new database' }));
    await waitUntil('the status to count the edit', () => tab.evaluate(() => (window as unknown as PageWindow).mirror.status.value.pendingPushes), (n) => n === 1);
    stage.front.cutService(false);
    await tab.evaluate(async () => void (await (window as unknown as PageWindow).mirror.syncNow()));
    await waitUntil('the status to count no edit', () => tab.evaluate(() => (window as unknown as PageWindow).mirror.status.value.pendingPushes), (n) => n === 0, SLOW);
    await waitUntil('the live query to follow', () => tab.evaluate(() => (window as unknown as PageWindow).answers.customers!.at(-1)?.customers), (n) => n === sim.store.count('customers'));
    await tab.evaluate(() => (window as unknown as PageWindow).mirror.close());
    await tab.close();
    expectNoPageErrors(stage);
  });
});
