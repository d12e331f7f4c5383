/**
 * A database the previous release left (schema version 6: synced records, checkpoints, and edits
 * still waiting in the outbox) is upgraded when the new release opens it, in the engine's own
 * IndexedDB: the products and the categories get the search words versions 7 and 8 index, version 9
 * drops the indexes nothing reads by, the waiting edits are kept and pushed once, and the mirror
 * carries on with a delta sync.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultDbName } from '../../src/db/db-name.js';
import type { OutboxEntry } from '../../src/db/sync-rows.js';
import { generateId } from '../../src/ids/index.js';
import { DEFAULT_INDEXES } from '../../src/db/stores.js';
import { COLLECTIONS } from '../../src/schema/collections.js';
import { validateWrite } from '../../src/schema/index.js';
import type { PageWindow } from './page/harness.js';
import * as truth from './sim-truth.js';
import { expectNoPageErrors, freshTenant, pageReady, startStage, type Stage } from './stage.js';
import { describeEngines } from '../engines/describe-engines.js';

/** The tables version 9 took indexes from. */
const LEAN = ['orders', 'order_details', 'customers', 'stock_history'] as const;

describeEngines('an upgrade from the previous schema version in %s', { timeout: 60_000 }, (engine) => {
  let stage: Stage;

  beforeAll(async () => {
    stage = await startStage(engine);
  }, 60_000);

  afterAll(async () => {
    await stage?.close();
  });

  it('keeps the pending edits, indexes the products for search, keeps only the lean indexes, and pushes the edits once', async () => {
    const { sim } = stage;
    const tenant = freshTenant('upgrade');
    const left = previousReleaseRows(stage);
    const tab = await stage.openPage();
    const dbName = defaultDbName(new URL('/api/v1', stage.front.url).href, tenant);
    expect(await tab.evaluate(({ name, rows }) => (window as unknown as PageWindow).conformance.createVersion6Database(name, rows), { name: dbName, rows: left.rows })).toBe(60);

    // The new release is loaded (the page's script is the current library) and opens it.
    await tab.reload();
    await pageReady(tab);
    const opened = await tab.evaluate(async ({ o, edited, lean }) => {
      const { conformance } = window as unknown as PageWindow;
      const mirror = conformance.openMirror(o);
      await mirror.db.open();
      return {
        name: mirror.db.name,
        version: mirror.db.backendDB().version,
        pending: (await mirror.pending()).map((e) => [e.op, e.id, e.changed.join(',')].join(' ')).sort(),
        phone: (await mirror.db.customers.get(edited))?.phone_number,
        kava: (await mirror.query.searchProducts('kava', { limit: 50 })).map((p) => p.id),
        indexes: Object.fromEntries(
          lean.map((table) => {
            const idb = mirror.db.backendDB();
            return [table, [...idb.transaction(table).objectStore(table).indexNames].sort()];
          }),
        ),
      };
    }, { o: { token: sim.token, tenant, pollIntervalMs: 600_000 }, edited: left.edited, lean: LEAN });
    expect(opened).toEqual({
      name: dbName,
      version: 90,
      pending: left.pending,
      phone: '+420 600 000 006',
      kava: truth.searchProducts(sim, 'kava', 50),
      // Version 9's lean indexes, in the engine's own database: those a helper or the sync reads by.
      indexes: Object.fromEntries(LEAN.map((table) => [table, [...DEFAULT_INDEXES[table]].sort()])),
    });
    expect(opened.kava.length).toBeGreaterThan(1);

    await tab.evaluate(async () => void (await (window as unknown as PageWindow).mirror.syncNow()));
    const after = await tab.evaluate(async (tables) => {
      const { mirror } = window as unknown as PageWindow;
      return { pending: (await mirror.pending()).length, counts: await Promise.all(tables.map((t) => mirror.db.table(t).count())) };
    }, [...COLLECTIONS]);
    expect(after).toEqual({ pending: 0, counts: COLLECTIONS.map((c) => sim.store.count(c)) });
    expect([left.edited, left.created].map((id) => sim.requests.timesPosted('customers', id))).toEqual([1, 1]);
    expect(sim.store.get('customers', left.edited)).toMatchObject({ phone_number: '+420 600 000 006' });
    expect(sim.store.get('customers', left.created)).toMatchObject({ lastname: 'Made by release 6' });
    // A delta sync: no collection was traversed from version 0 again.
    expect(sim.requests.recent().filter((r) => r.method === 'GET' && r.query.version_start === '0' && r.path !== '/api/v1/categories')).toEqual([]);

    await tab.evaluate(() => (window as unknown as PageWindow).mirror.close());
    await tab.close();
    expectNoPageErrors(stage);
  });
});

/**
 * What a tab of the previous release left after syncing the tenant: every record as the server
 * sent it (products without search words), a checkpoint per collection, and two edits waiting in
 * the outbox, an update of a customer and a customer created offline, with their records.
 */
function previousReleaseRows(stage: Stage): { rows: Record<string, object[]>; pending: string[]; edited: string; created: string } {
  const { store } = stage.sim;
  const now = Date.now();
  const rows: Record<string, object[]> = {};
  for (const table of [...COLLECTIONS, 'categories'] as const) rows[table] = store.list(table);
  rows._sync_checkpoints = [...COLLECTIONS, 'categories'].map((collection) => ({ collection, checkpoint: store.now() - 60_000, initialDone: true, lastSyncAt: now - 3_600_000 }));

  const customers = rows.customers as truth.SimRow[];
  const index = customers.findIndex((c) => truth.live(c));
  const base = customers[index]!;
  customers[index] = { ...base, phone_number: '+420 600 000 006' };
  const created = generateId('customers', { now });
  const record = { ...(validateWrite('customers', { id: created, company: null, lastname: 'Made by release 6' }, { now }) as object), id: created, _v: 0 };
  customers.push(record);
  const entry = (fields: Omit<OutboxEntry, 'server' | 'localVersion' | 'createdAt' | 'updatedAt' | 'state' | 'attempts' | 'collection'>): OutboxEntry => ({
    collection: 'customers',
    server: null,
    localVersion: 1,
    createdAt: now,
    updatedAt: now,
    state: 'pending',
    attempts: 0,
    ...fields,
  });
  const changed = Object.keys(record).filter((f) => f !== 'id' && f !== '_v' && f !== '_t' && (record as Record<string, unknown>)[f] !== undefined);
  rows._sync_outbox = [
    entry({ id: base.id, op: 'update', changed: ['phone_number'], base: base as OutboxEntry['base'] }),
    entry({ id: created, op: 'create', changed, base: null }),
  ];
  return {
    rows,
    pending: [`update ${base.id} phone_number`, `create ${created} ${changed.join(',')}`].sort(),
    edited: base.id,
    created,
  };
}
