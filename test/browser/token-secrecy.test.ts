/**
 * The token never reaches the browser's storage: after a sync, pushed edits, a refused token
 * (`auth-error`) and a new one given with `setToken`, no row of any object store of any IndexedDB
 * database of the origin, and nothing in localStorage or sessionStorage, holds either token; nor
 * does the error the status shows.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SLOW, waitUntil } from '../e2e/dom.js';
import type { PageWindow } from './page/harness.js';
import { expectNoPageErrors, freshTenant, startStage, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

describeEngines('the token in %s', { timeout: 60_000 }, (engine) => {
  let stage: Stage;

  beforeAll(async () => {
    stage = await startStage(engine);
  }, 60_000);

  afterAll(async () => {
    await stage?.close();
  });

  it('is never stored: not in IndexedDB, localStorage or sessionStorage, nor in the status', async () => {
    const { sim } = stage;
    const first = sim.token;
    const tab = await stage.openPage();
    await tab.evaluate(async (o) => {
      const { conformance } = window as unknown as PageWindow;
      const mirror = conformance.openMirror(o);
      await mirror.start();
      await mirror.save('customers', { company: null, lastname: 'Secret keeper' });
      await mirror.syncNow();
    }, { token: first, tenant: freshTenant('token'), pollIntervalMs: 600_000 });

    // The service replaces the token: the next sync is refused, then the app gives the new one.
    const second = `${first}-replaced`;
    sim.setToken(second);
    await tab.evaluate(async () => {
      const { mirror } = window as unknown as PageWindow;
      await mirror.save('customers', { company: null, lastname: 'Waits for the new token' });
      await mirror.syncNow().catch(() => undefined);
    });
    const refused = await tab.evaluate(() => (window as unknown as PageWindow).mirror.status.value);
    expect(refused.phase).toBe('auth-error');
    expect(JSON.stringify(refused)).not.toContain(first);
    await tab.evaluate(async (token) => {
      const { mirror } = window as unknown as PageWindow;
      mirror.setToken(token);
      await mirror.syncNow();
    }, second);
    await waitUntil('the outbox to empty', () => tab.evaluate(async () => (await (window as unknown as PageWindow).mirror.pending()).length), (n) => n === 0, SLOW);

    const stored = await tab.evaluate(async () => {
      const { conformance, mirror } = window as unknown as PageWindow;
      const names = new Set([mirror.db.name, ...(await indexedDB.databases()).map((d) => d.name ?? '')]);
      const rows = await conformance.dumpDatabases([...names].filter(Boolean));
      const web = (storage: Storage) => Array.from({ length: storage.length }, (_, i) => [storage.key(i), storage.getItem(storage.key(i) ?? '')]);
      return { databases: [...names], rows: rows.map((r) => r.join(' ')), local: JSON.stringify(web(localStorage)), session: JSON.stringify(web(sessionStorage)) };
    });
    // What was read is the mirror's whole database: its records, outbox and sync tables.
    expect(stored.rows.length).toBeGreaterThan(sim.store.count('customers'));
    expect(stored.rows.some((row) => row.includes('Secret keeper'))).toBe(true);
    for (const token of [first, second]) {
      expect(stored.rows.filter((row) => row.includes(token))).toEqual([]);
      expect(stored.local).not.toContain(token);
      expect(stored.session).not.toContain(token);
    }
    await tab.evaluate(() => (window as unknown as PageWindow).mirror.close());
    await tab.close();
    expectNoPageErrors(stage);
  });
});
