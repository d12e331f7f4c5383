/**
 * A save whose page stops running in the middle (a reload, a close): the engine commits what the
 * transaction was asked for so far, so a record and its outbox entry asked for one after the other
 * could be kept apart, a record that no push would ever send (issue 39, seen in Firefox).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PageWindow } from './page/harness.js';
import { freshTenant, startStage, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

describeEngines('a save cut short in %s', { timeout: 90_000 }, (engine) => {
  let stage: Stage;

  beforeAll(async () => {
    stage = await startStage(engine);
  }, 60_000);

  afterAll(async () => {
    await stage?.close();
  });

  it('keeps its record and its outbox entry together when the script gets no answer after its first write', async () => {
    const open = { token: stage.sim.token, tenant: freshTenant('cut-short'), pollIntervalMs: 600_000 };
    const tab = await stage.openPage();
    const kept = await tab.evaluate(async (o) => {
      const page = window as unknown as PageWindow;
      const mirror = page.conformance.openMirror(o);
      await mirror.db.open();
      // From the first write of the record on, no answer reaches the script, as when the page stops:
      // the transaction then has nothing more to do and commits what it was asked for.
      const put = IDBObjectStore.prototype.put;
      let stopped = false;
      IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
        const request = put.apply(this, args);
        if (this.name === 'warehouses') stopped = true;
        if (stopped) for (const handler of ['onsuccess', 'onerror']) Object.defineProperty(request, handler, { set() {}, get: () => null });
        return request;
      };
      void mirror.save('warehouses', { name: 'Cut short' }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      IDBObjectStore.prototype.put = put;
      const records = await mirror.db.warehouses.toArray();
      const entries = await mirror.db._sync_outbox.toArray();
      return { records: records.map((r) => r.id), entries: entries.map((e) => e.id) };
    }, open);
    expect(kept.records).toHaveLength(1);
    expect(kept.entries).toEqual(kept.records);
  });
});
