/**
 * Edits made while the service cannot be reached are stored in the engine's IndexedDB with their
 * outbox entries, survive a reload of the page (the library loaded again), and reach the server
 * once the service is back: exactly one applied POST per record, however many times the mirror
 * tried while it was cut off and however often it syncs after.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SLOW, waitUntil } from '../e2e/dom.js';
import type { PageWindow } from './page/harness.js';
import type { SimRow } from './sim-truth.js';
import { expectNoPageErrors, freshTenant, pageReady, startStage, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

describeEngines('offline edits in %s', { timeout: 90_000 }, (engine) => {
  let stage: Stage;

  beforeAll(async () => {
    stage = await startStage(engine);
  }, 60_000);

  afterAll(async () => {
    await stage?.close();
  });

  it('survive a reload and are pushed exactly once when the service is back', async () => {
    const { sim } = stage;
    const open = { token: sim.token, tenant: freshTenant('offline'), pollIntervalMs: 600_000 };
    const customer = (sim.store.list('customers') as SimRow[]).find((c) => !c._d)!;
    const gone = (sim.store.list('customers') as SimRow[]).filter((c) => !c._d && c.id !== customer.id).at(-1)!;
    const tab = await stage.openPage();
    await tab.evaluate(async (o) => {
      const page = window as unknown as PageWindow;
      // The durability each read-write transaction over the outbox got from the engine (before the
      // mirror's connection opens: Dexie binds `transaction` as it opens).
      const asked: string[] = [];
      const transaction = IDBDatabase.prototype.transaction;
      IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
        const tx = transaction.apply(this, args);
        if (tx.mode === 'readwrite' && [...tx.objectStoreNames].includes('_sync_outbox') && ![...tx.objectStoreNames].includes('_sync_quarantine')) {
          asked.push(String((tx as IDBTransaction & { durability?: string }).durability));
        }
        return tx;
      };
      Object.assign(window, { outboxDurability: asked });
      await page.conformance.openMirror(o).start();
    }, open);
    await waitUntil('the first sync', () => tab.evaluate(() => (window as unknown as PageWindow).mirror.status.value.lastSyncAt !== undefined), Boolean, SLOW);

    stage.front.cutService(true);
    const created = await tab.evaluate(
      async ({ id, gone }) => {
        const { mirror } = window as unknown as PageWindow;
        const made = await mirror.save('customers', { company: null, firstname: 'Zoë', lastname: 'Offline-Nováková', email: 'zoe@example.com' });
        await mirror.save('customers', { id, phone_number: '+420 777 000 111' });
        await mirror.remove('customers', gone);
        return made;
      },
      { id: customer.id, gone: gone.id },
    );
    // The started mirror tries to push at once, and fails for as long as the service is cut.
    await waitUntil('a failed push', () => tab.evaluate(() => (window as unknown as PageWindow).statuses.some((s) => s.phase === 'error' || s.phase === 'offline')), Boolean, SLOW);
    expect(sim.requests.timesPosted('customers', created)).toBe(0);
    // Each edit was committed strict (every engine here tells a transaction's durability).
    const durability = await tab.evaluate(() => (window as unknown as { outboxDurability: string[] }).outboxDurability);
    expect(durability.length).toBeGreaterThanOrEqual(3);
    expect(new Set(durability)).toEqual(new Set(['strict']));

    await tab.reload();
    await pageReady(tab);
    const kept = await tab.evaluate(
      async ({ o, ids }) => {
        const { conformance } = window as unknown as PageWindow;
        const mirror = conformance.openMirror(o);
        const pending = (await mirror.pending()).map((e) => `${e.op} ${e.id} ${e.changed.includes('phone_number') ? 'phone' : ''}`.trim());
        const [made, edited, removed] = await mirror.db.customers.bulkGet(ids);
        return { pending: pending.sort(), lastname: made?.lastname, phone: edited?.phone_number, removed: Boolean(removed?._d) };
      },
      { o: open, ids: [created, customer.id, gone.id] },
    );
    expect(kept).toEqual({
      pending: [`create ${created}`, `delete ${gone.id}`, `update ${customer.id} phone`].sort(),
      lastname: 'Offline-Nováková',
      phone: '+420 777 000 111',
      removed: true,
    });

    stage.front.cutService(false);
    await tab.evaluate(() => (window as unknown as PageWindow).mirror.start());
    await waitUntil('the outbox to empty', () => tab.evaluate(async () => (await (window as unknown as PageWindow).mirror.pending()).length), (n) => n === 0, SLOW);
    // Another sync, and another reload with a sync, send nothing again.
    await tab.evaluate(() => (window as unknown as PageWindow).mirror.syncNow());
    await tab.reload();
    await pageReady(tab);
    await tab.evaluate(async (o) => {
      await (window as unknown as PageWindow).conformance.openMirror(o).syncNow();
    }, open);
    expect([created, customer.id, gone.id].map((id) => sim.requests.timesPosted('customers', id))).toEqual([1, 1, 1]);
    expect(sim.store.get('customers', created)).toMatchObject({ firstname: 'Zoë', lastname: 'Offline-Nováková', email: 'zoe@example.com' });
    expect(sim.store.get('customers', customer.id)).toMatchObject({ phone_number: '+420 777 000 111' });
    expect(sim.store.get('customers', gone.id)!._d).not.toBe(0);

    await tab.evaluate(() => (window as unknown as PageWindow).mirror.close());
    await tab.close();
    expectNoPageErrors(stage);
  });

  it.each([
    // The page reads the status and headers, then the connection closes: the client sends the POST
    // again (it carries its record's id), in every engine.
    { cut: 'after-headers', retried: { chromium: 1, firefox: 1, webkit: 1 } },
    // The connection closes before the first byte of the answer: Chromium and Firefox send the POST
    // again by themselves, unseen by the page; WebKit fails it and the client sends it again.
    { cut: 'before-answer', retried: { chromium: 0, firefox: 0, webkit: 1 } },
  ] as const)('a push whose answer is lost ($cut) is sent again once and leaves the record once on the server, as sent', async ({ cut, retried }) => {
    const { sim } = stage;
    const tab = await stage.openPage();
    await tab.evaluate(async (o) => {
      await (window as unknown as PageWindow).conformance.openMirror(o).syncNow();
    }, { token: sim.token, tenant: freshTenant('lost-answer'), pollIntervalMs: 600_000 });
    const customers = sim.store.count('customers');
    let seen = 0;
    const stall = stage.front.stall((url, method) => method === 'POST' && url.pathname.endsWith('/customers') && ++seen === 1, 'answer');
    const pushed = tab.evaluate(async () => {
      const { mirror } = window as unknown as PageWindow;
      const id = await mirror.save('customers', { company: null, lastname: 'Answer lost', email: 'lost@example.com' });
      const outcome = await mirror.syncNow().then(
        () => 'synced',
        (error: Error) => error.name,
      );
      return { id, outcome };
    });
    await stall.reached;
    stall.end(cut);
    const { id } = await pushed;
    await waitUntil(
      'the outbox to empty',
      () => tab.evaluate(async () => {
        const { mirror } = window as unknown as PageWindow;
        if ((await mirror.pending()).length > 0) await mirror.syncNow().catch(() => undefined);
        return (await mirror.pending()).length;
      }),
      (n) => n === 0,
      SLOW,
    );
    expect(sim.store.count('customers')).toBe(customers + 1);
    expect(sim.store.get('customers', id)).toMatchObject({ lastname: 'Answer lost', email: 'lost@example.com' });
    // Two POSTs of one record with the same values, whoever sent the second: never a second record.
    expect(sim.requests.timesPosted('customers', id)).toBe(2);
    const retries = await tab.evaluate(() => (window as unknown as PageWindow).retries.filter((r) => r.startsWith('POST ')));
    expect(retries.length).toBe(retried[engine]);
    await tab.evaluate(() => (window as unknown as PageWindow).mirror.close());
    await tab.close();
    expectNoPageErrors(stage);
  });
});
