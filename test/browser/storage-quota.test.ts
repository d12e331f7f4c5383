/**
 * A quota error in the engine's IndexedDB: the first sync of a mirror finds the origin's storage
 * nearly full (another database of the app takes most of it), stops with `storage-error` in the
 * status, and leaves nothing half-written: each collection holds exactly the pages its saved
 * cursor says, a page being one transaction with its cursor. Once space is freed, a sync goes on
 * from there and ends equal to the server.
 *
 * The limit is real where the engine lets a test set one: Chromium (CDP
 * `Storage.overrideQuotaForOrigin`), Firefox (`dom.quotaManager.temporaryStorage.fixedLimit` at
 * launch). WebKitGTK's MiniBrowser offers none (see `page/features.js`): there it is laid on
 * IndexedDB in the page, failing the write that goes over it as WebKit fails one.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type EngineName, type EngineTab } from '../../scripts/engines/index.js';
import type { CheckpointRow } from '../../src/db/sync-rows.js';
import { COLLECTIONS } from '../../src/schema/collections.js';
import { waitUntil } from '../e2e/dom.js';
import type { PageWindow } from './page/harness.js';
import { expectNoPageErrors, freshTenant, startStage, type PageFlags, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

/**
 * The origin's storage limit (bytes), and how much text the app's other data takes, so that less
 * is left to the mirror than the tiny tenant needs (about 1 MB in Chromium, 1.9 MB in Firefox).
 * Firefox counts a database's file and its write-ahead log, about twice the text written, and its
 * files grow in steps: it is given more room. WebKit's limit here counts the text itself.
 */
const LIMIT: Record<EngineName, number> = { chromium: 3_000_000, firefox: 5_000_000, webkit: 3_000_000 };
const OTHER_DATA: Record<EngineName, number> = { chromium: 2_700_000, firefox: 2_000_000, webkit: 2_700_000 };
/** Tables also written by their parent's pages (hydrations): only checked to hold server records. */
const CHILDREN = new Set(['product_price_matrix', 'order_details']);

describeEngines('a full storage in %s', { timeout: 60_000 }, (engine: EngineName) => {
  let stage: Stage;
  const flags: PageFlags = engine === 'webkit' ? { quota: LIMIT[engine] } : {};

  // A browser (and profile) per test: what one test's databases took is not given back to the
  // next. Firefox still counted a deleted database's files in the origin's usage a test later
  // (3.7 MB of the 5 MB limit at the second test's start, and its ballast's deletion freed nothing
  // the quota manager saw), so the second test's mirror could never fit.
  beforeEach(async () => {
    stage = await startStage(engine, { launch: engine === 'webkit' ? {} : { storageLimit: LIMIT[engine] } });
  }, 60_000);

  afterEach(async () => {
    await stage?.close();
  });

  it('stops a first sync that fills the storage with storage-error, nothing half-written, and carries on once space is freed', async () => {
    const { sim } = stage;
    const tab = await stage.openPage(flags);
    await tab.evaluate(async (o) => {
      await (window as unknown as PageWindow).conformance.openMirror(o).db.open();
    }, { token: sim.token, tenant: freshTenant('quota'), pollIntervalMs: 600_000 });
    await tab.evaluate((bytes) => (window as unknown as PageWindow).conformance.fillBallast('other-data-of-the-app', bytes), OTHER_DATA[engine]);
    expect(await syncOutcome(tab)).toBe('QuotaExceededError');
    expect(await statusOf(tab)).toMatchObject({ phase: 'storage-error', lastError: { name: 'QuotaExceededError' } });

    const stored = await tab.evaluate(async (tables) => {
      const { mirror } = window as unknown as PageWindow;
      return {
        ids: await Promise.all(tables.map((t) => mirror.db.table(t).toCollection().primaryKeys() as Promise<string[]>)),
        checkpoints: await mirror.db._sync_checkpoints.toArray(),
      };
    }, [...COLLECTIONS, 'categories']);
    const byId = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
    let partial = 0;
    [...COLLECTIONS, 'categories' as const].forEach((table, i) => {
      const served = sim.store.list(table).map((r) => String(r.id)).sort(byId);
      const held = [...stored.ids[i]!].sort(byId);
      if (CHILDREN.has(table)) {
        expect(held.filter((id) => !served.includes(id)), table).toEqual([]);
        return;
      }
      const row = (stored.checkpoints as CheckpointRow[]).find((c) => c.collection === table);
      // A collection holds the pages its cursor counts, all of them once done, or none.
      // A forward traversal holds the ids up to its cursor; a backward one (history, newest first) those from it.
      const cursor = row?.cursor ?? row?.backwardCursor;
      const kept = (id: string) => (row?.cursor ? byId(id, cursor!.idStart!) <= 0 : byId(id, cursor!.idStart!) >= 0);
      const expected = row?.initialDone ? served : cursor ? served.filter(kept) : [];
      if (cursor) expect(expected.length, table).toBe(cursor.records);
      expect(held, table).toEqual(expected);
      if (held.length < served.length) partial++;
    });
    expect(partial).toBeGreaterThan(0);

    // The app frees space: the next sync carries on and ends equal to the server.
    await tab.evaluate(() => (window as unknown as PageWindow).conformance.deleteDatabase('other-data-of-the-app'));
    expect(await syncOutcome(tab)).toBe('synced');
    expect(await statusOf(tab)).toMatchObject({ phase: 'idle', lastError: null });
    expect(await countsOf(tab)).toEqual(COLLECTIONS.map((c) => sim.store.count(c)));
    await closeAndDelete(tab);
    await tab.close();
    expectNoPageErrors(stage);
  });

  it('a mirror whose database finds the storage full shows storage-error, and opens it once space is freed', async () => {
    const { sim } = stage;
    const tab = await stage.openPage(flags);
    await tab.evaluate(() => (window as unknown as PageWindow).conformance.fillBallast('other-data-of-the-app', Infinity));
    await tab.evaluate((o) => void (window as unknown as PageWindow).conformance.openMirror(o), { token: sim.token, tenant: freshTenant('quota-open'), pollIntervalMs: 600_000 });
    expect(await syncOutcome(tab)).toBe('QuotaExceededError');
    expect(await statusOf(tab)).toMatchObject({ phase: 'storage-error', lastError: { name: 'QuotaExceededError' } });

    await tab.evaluate(() => (window as unknown as PageWindow).conformance.deleteDatabase('other-data-of-the-app'));
    expect(await syncOutcome(tab)).toBe('synced');
    expect(await countsOf(tab)).toEqual(COLLECTIONS.map((c) => sim.store.count(c)));
    // The status follows the database again: an edit shows as a pending push.
    await tab.evaluate(() => (window as unknown as PageWindow).mirror.save('customers', { company: null, lastname: 'After the full disk' }));
    await waitUntil('the pending edit in the status', () => statusOf(tab), (s) => s.pendingPushes === 1);
    await closeAndDelete(tab);
    await tab.close();
    expectNoPageErrors(stage);
  });
});

/** What `syncNow()` ends with: `synced`, or the name of what it threw. */
function syncOutcome(tab: EngineTab): Promise<string> {
  return tab.evaluate(() =>
    (window as unknown as PageWindow).mirror.syncNow().then(
      () => 'synced',
      (error: Error) => error.name,
    ),
  );
}

function statusOf(tab: EngineTab): Promise<{ phase: string; lastError: { name: string; message: string } | null; pendingPushes: number }> {
  return tab.evaluate(() => {
    const { phase, lastError, pendingPushes } = (window as unknown as PageWindow).mirror.status.value;
    return { phase, lastError: lastError ?? null, pendingPushes };
  });
}

function countsOf(tab: EngineTab): Promise<number[]> {
  return tab.evaluate((tables) => Promise.all(tables.map((t) => (window as unknown as PageWindow).mirror.db.table(t).count())), [...COLLECTIONS]);
}

/** Closes the page's mirror and deletes its database, as an app that is done with it would. */
async function closeAndDelete(tab: EngineTab): Promise<void> {
  await tab.evaluate(async () => {
    const { conformance, mirror } = window as unknown as PageWindow;
    await mirror.close();
    await conformance.deleteDatabase(mirror.db.name);
  });
}
