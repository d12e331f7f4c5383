/**
 * Conflicts in a real browser: an edit of a field the server changed since is held as a row of the
 * conflicts table (shown by a live query and in `status`), an edit of a field the server left alone
 * merges silently, and each conflict resolved either way reaches the server once, its row gone.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitUntil } from '../e2e/dom.js';
import type { PageWindow } from './page/harness.js';
import type { SimRow } from './sim-truth.js';
import { expectNoPageErrors, freshTenant, startStage, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

describeEngines('conflicts in %s', { timeout: 60_000 }, (engine) => {
  let stage: Stage;

  beforeAll(async () => {
    stage = await startStage(engine);
  }, 60_000);

  afterAll(async () => {
    await stage?.close();
  });

  it('are shown in the conflicts table and status, and resolved for either side', async () => {
    const { sim } = stage;
    const tab = await stage.openPage();
    await tab.evaluate(async (o) => {
      const { conformance } = window as unknown as PageWindow;
      await conformance.openMirror(o).syncNow();
      conformance.followCounts('conflicts', ['_sync_conflicts']);
    }, { token: sim.token, tenant: freshTenant('conflicts'), pollIntervalMs: 600_000 });
    const [kept, dropped, merged] = (sim.store.list('customers') as SimRow[]).filter((c) => !c._d).map((c) => c.id);

    // The back office changes three customers the page has already pulled...
    sim.store.write('customers', { id: kept!, phone_number: '+420 111 111 111' });
    sim.store.write('customers', { id: dropped!, phone_number: '+420 222 222 222' });
    sim.store.write('customers', { id: merged!, note_internal: 'from the back office' });
    // ...and the page edits them on what it had: the same field twice, another field once.
    await tab.evaluate(async (ids) => {
      const { mirror } = window as unknown as PageWindow;
      await mirror.save('customers', { id: ids[0]!, phone_number: '+420 777 777 777' });
      await mirror.save('customers', { id: ids[1]!, phone_number: '+420 888 888 888' });
      await mirror.save('customers', { id: ids[2]!, phone_number: '+420 999 999 999' });
      await mirror.syncNow();
    }, [kept!, dropped!, merged!]);

    const shown = await tab.evaluate(async () => {
      const { mirror } = window as unknown as PageWindow;
      return {
        rows: (await mirror.conflicts()).map((c) => ({ key: c.key, fields: c.fields, local: c.local?.phone_number, server: c.server?.phone_number })),
        status: mirror.status.value.conflicts,
      };
    });
    expect(shown.rows.sort((a, b) => a.key.localeCompare(b.key))).toEqual(
      [
        { key: `customers:${kept!}`, fields: ['phone_number'], local: '+420 777 777 777', server: '+420 111 111 111' },
        { key: `customers:${dropped!}`, fields: ['phone_number'], local: '+420 888 888 888', server: '+420 222 222 222' },
      ].sort((a, b) => a.key.localeCompare(b.key)),
    );
    expect(shown.status).toBe(2);
    await waitUntil('the live query to show both conflicts', () => tab.evaluate(() => (window as unknown as PageWindow).answers.conflicts!.at(-1)?._sync_conflicts), (n) => n === 2);
    // The disjoint edit merged silently and went out; the conflicting ones did not.
    expect(sim.store.get('customers', merged!)).toMatchObject({ phone_number: '+420 999 999 999', note_internal: 'from the back office' });
    expect([kept!, dropped!].map((id) => sim.requests.timesPosted('customers', id))).toEqual([0, 0]);

    await tab.evaluate(async ([keep, drop]) => {
      const { mirror } = window as unknown as PageWindow;
      await mirror.resolveConflict(keep, 'local');
      await mirror.resolveConflict(drop, 'server');
      await mirror.syncNow();
    }, [`customers:${kept!}`, `customers:${dropped!}`] as [string, string]);
    await waitUntil('the live query to show no conflict', () => tab.evaluate(() => (window as unknown as PageWindow).answers.conflicts!.at(-1)?._sync_conflicts), (n) => n === 0);
    const after = await tab.evaluate(async (ids) => {
      const { mirror } = window as unknown as PageWindow;
      const rows = await mirror.db.customers.bulkGet(ids);
      return { pending: (await mirror.pending()).length, status: mirror.status.value.conflicts, phones: rows.map((r) => r?.phone_number) };
    }, [kept!, dropped!]);
    expect(after).toEqual({ pending: 0, status: 0, phones: ['+420 777 777 777', '+420 222 222 222'] });
    expect(sim.store.get('customers', kept!)).toMatchObject({ phone_number: '+420 777 777 777' });
    expect(sim.store.get('customers', dropped!)).toMatchObject({ phone_number: '+420 222 222 222' });
    expect([kept!, dropped!, merged!].map((id) => sim.requests.timesPosted('customers', id))).toEqual([1, 0, 1]);

    await tab.evaluate(() => (window as unknown as PageWindow).mirror.close());
    await tab.close();
    expectNoPageErrors(stage);
  });
});
