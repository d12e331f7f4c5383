import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../../../src/db/sync-rows.js';
import { COLLECTIONS, type CollectionName } from '../../../src/schema/collections.js';
import { createPuller } from '../../../src/sync/pull/pull.js';
import { ingestRecords } from '../../../src/sync/pull/ingest.js';
import { reconcileCollection } from '../../../src/sync/pull/reconcile.js';
import type { SyncClient, TraversalQuery } from '../../../src/sync/sync-client.js';
import { type Simulator } from '../../../src/simulator/index.js';
import { expectConverged } from '../../mirror/convergence.js';
import { pullSetup, withPageHook } from './pull-fixture.js';

const setup = pullSetup('pull');


/**
 * The scenario the checkpoint rule exists for: once, after the first page of a customers
 * traversal, the lowest-id customer is edited (`note_internal = note`), then the highest-id one
 * gets a newer `_v`. The traversal has passed the first and not yet reached the second.
 */
function editLowThenHighMidTraversal(sim: Simulator, client: SyncClient, note: string): { hooked: SyncClient; low: string; edited: () => boolean } {
  const ids = sim.store.list('customers').map((r) => String(r.id));
  const low = ids[0]!;
  const high = ids[ids.length - 1]!;
  let edited = false;
  const hooked = withPageHook(client, (collection, index) => {
    if (collection !== 'customers' || index !== 1 || edited) return;
    edited = true;
    sim.store.write('customers', { ...sim.store.get('customers', low)!, note_internal: note });
    sim.store.advanceClock(5);
    sim.store.write('customers', { ...sim.store.get('customers', high)!, note_internal: 'newer _v' });
  });
  return { hooked, low, edited: () => edited };
}

/** A wall clock that is set back by `jumpMs` right after its first reading. */
function clockSetBackAfterFirstRead(jumpMs: number): () => number {
  let calls = 0;
  return () => (calls++ === 0 ? Date.now() : Date.now() - jumpMs);
}

describe('createPuller', () => {
  it('mirrors every collection record for record on the first sync', async () => {
    const { sim, client, db } = await setup();
    const puller = createPuller({ db, client, pageLimit: 7 });
    for (const c of COLLECTIONS) await puller.pull(c);
    await expectConverged(db, sim, COLLECTIONS);
    const checkpoints = await db._sync_checkpoints.toArray();
    expect(checkpoints.every((row) => row.initialDone && row.cursor === undefined && row.checkpoint > 0)).toBe(true);
  });

  it('catches a low-id record edited mid-traversal after a high-id record got a newer _v', async () => {
    const { sim, client, db } = await setup();
    const { hooked, low, edited } = editLowThenHighMidTraversal(sim, client, 'edited mid-traversal');
    const puller = createPuller({ db, client: hooked, pageLimit: 5 });
    await puller.pull('customers');
    expect(edited()).toBe(true);
    expect((await db.customers.get(low))?.note_internal).not.toBe('edited mid-traversal');
    await puller.pull('customers');
    expect((await db.customers.get(low))?.note_internal).toBe('edited mid-traversal');
    await expectConverged(db, sim, ['customers']);
  });

  it('still catches that edit when the device clock is set back while the first page is in flight', async () => {
    const { sim, client, db } = await setup();
    const { hooked, low, edited } = editLowThenHighMidTraversal(sim, client, 'edited mid-traversal');
    // NTP (or the user) sets the clock back by 10 minutes right after the first reading.
    const puller = createPuller({ db, client: hooked, pageLimit: 5, now: clockSetBackAfterFirstRead(600_000) });
    await puller.pull('customers');
    expect(edited()).toBe(true);
    const checkpoint = (await db._sync_checkpoints.get('customers'))!.checkpoint;
    expect(checkpoint).toBeLessThanOrEqual(sim.store.now());
    await createPuller({ db, client, pageLimit: 5 }).pull('customers');
    expect((await db.customers.get(low))?.note_internal).toBe('edited mid-traversal');
    await expectConverged(db, sim, ['customers']);
  });

  it('would miss that edit if the checkpoint jumped to the highest _v seen (the scenario is real)', async () => {
    const { sim, client, db } = await setup();
    const { hooked, low } = editLowThenHighMidTraversal(sim, client, 'edited mid-traversal');
    // A negative margin that dwarfs every clock turns the rule into "checkpoint = max _v + 1".
    const naive = createPuller({ db, client: hooked, pageLimit: 5, skewMarginMs: -1e15 });
    await naive.pull('customers');
    await naive.pull('customers');
    expect((await db.customers.get(low))?.note_internal).not.toBe('edited mid-traversal');
  });

  it('resumes an interrupted traversal at its saved cursor, not from the start', async () => {
    const { sim, client, db } = await setup();
    const total = sim.store.count('orders');
    const crashAt = 2;
    const crashing = withPageHook(client, (_c, index) => {
      if (index === crashAt) throw new Error('crash');
    });
    await expect(createPuller({ db, client: crashing, pageLimit: 4 }).pull('orders')).rejects.toThrow('crash');
    const row = (await db._sync_checkpoints.get('orders'))!;
    // A first traversal of orders goes newest first: its cursor is the backward one.
    const saved = { checkpoint: row.checkpoint, cursor: row.backwardCursor };
    expect(row.cursor).toBeUndefined();
    expect(saved.cursor?.idStart).toBeDefined();
    expect(saved.checkpoint).toBe(0);
    const applied = await db.orders.count();
    expect(applied).toBe(4 * (crashAt + 1));

    const before = sim.requests.recent().length;
    await createPuller({ db, client, pageLimit: 4 }).pull('orders');
    const firstResumed = sim.requests.recent().slice(before).find((r) => r.path.endsWith('/orders'));
    expect(firstResumed?.query?.id_start).toBe(saved.cursor?.idStart);
    expect(await db.orders.count()).toBe(total);
    await expectConverged(db, sim, ['orders']);
  });

  it('keeps neither a page nor its cursor when one write of the page fails (its hydrated children included)', async () => {
    const { sim, client, db } = await setup();
    const ids = sim.store.list('products').map((p) => BigInt(String(p.id))).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
    const firstPage = new Set(ids.slice(0, 5));
    let refusals = 0;
    // The price rows split off the second page's products cannot be written: that page's transaction fails.
    const refuse = (_key: string | undefined, row: StoredRecord): void => {
      if (firstPage.has(String(row.id_product))) return;
      refusals++;
      throw new Error('price row refused');
    };
    db.product_price_matrix.hook('creating', refuse);
    await expect(createPuller({ db, client, pageLimit: 5 }).pull('products')).rejects.toThrow('price row refused');
    expect(refusals).toBeGreaterThan(0);
    const saved = (await db._sync_checkpoints.get('products'))!;
    expect(saved.cursor).toMatchObject({ idStart: ids[4], records: 5 });
    expect((await db.products.toCollection().primaryKeys()).sort()).toEqual([...firstPage].sort());
    expect((await db.product_price_matrix.toArray()).every((row) => firstPage.has(String(row.id_product)))).toBe(true);

    db.product_price_matrix.hook('creating').unsubscribe(refuse);
    await createPuller({ db, client, pageLimit: 5 }).pull('products');
    await expectConverged(db, sim, ['products']);
  });

  it.each([3, 64])('mirrors every collection record for record with %i pages per transaction', async (pagesPerTransaction) => {
    const { sim, client, db } = await setup();
    const puller = createPuller({ db, client, pageLimit: 4, pagesPerTransaction });
    for (const c of COLLECTIONS) await puller.pull(c);
    await expectConverged(db, sim, COLLECTIONS);
    expect((await db._sync_checkpoints.toArray()).every((row) => row.initialDone && row.cursor === undefined)).toBe(true);
  });

  it('keeps neither the pages of a transaction nor its cursor when one write fails, with several pages per transaction', async () => {
    const { sim, client, db } = await setup();
    const ids = sim.store.list('products').map((p) => BigInt(String(p.id))).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
    const writable = new Set(ids.slice(0, 12));
    // Pages arrive during the writes, so a transaction holds several: the one that reaches the
    // thirteenth product fails as a whole.
    const slow = withPageHook(client, () => new Promise((resolve) => setTimeout(resolve, 1)));
    const refuse = (_key: string | undefined, row: StoredRecord): void => {
      if (!writable.has(String(row.id_product))) throw new Error('price row refused');
    };
    db.product_price_matrix.hook('creating', refuse);
    await expect(createPuller({ db, client: slow, pageLimit: 2, pagesPerTransaction: 4 }).pull('products')).rejects.toThrow('price row refused');
    const saved = (await db._sync_checkpoints.get('products'))!;
    const stored = (await db.products.toCollection().primaryKeys()).map(String);
    // What was kept is exactly what the cursor says: the products up to it, with their children.
    expect(saved.cursor?.records).toBe(stored.length);
    expect(stored.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))).toEqual(ids.slice(0, stored.length));
    if (stored.length > 0) expect(saved.cursor?.idStart).toBe(ids[stored.length - 1]);
    expect(stored.every((id) => writable.has(id))).toBe(true);
    expect((await db.product_price_matrix.toArray()).every((row) => stored.includes(String(row.id_product)))).toBe(true);

    db.product_price_matrix.hook('creating').unsubscribe(refuse);
    await createPuller({ db, client, pageLimit: 2, pagesPerTransaction: 4 }).pull('products');
    await expectConverged(db, sim, ['products']);
  });

  it('resumes a traversal interrupted between transactions of several pages at the last one saved', async () => {
    const { sim, client, db } = await setup();
    const crashing = withPageHook(client, (_c, index) => {
      if (index === 9) throw new Error('crash');
    });
    await expect(createPuller({ db, client: crashing, pageLimit: 3, pagesPerTransaction: 4 }).pull('orders')).rejects.toThrow('crash');
    const row = (await db._sync_checkpoints.get('orders'))!;
    // A first traversal of orders goes newest first: its cursor is the backward one.
    const saved = { checkpoint: row.checkpoint, cursor: row.backwardCursor };
    expect(row.cursor).toBeUndefined();
    // Every page that came before the failed request was written, in transactions of up to four
    // (a first traversal of orders goes newest first).
    const ids = sim.store.list('orders').map((o) => BigInt(String(o.id))).sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)).map(String);
    expect(saved.cursor?.records).toBe(3 * 10);
    expect(saved.cursor?.idStart).toBe(ids[3 * 10 - 1]);
    expect(await db.orders.count()).toBe(3 * 10);

    const before = sim.requests.recent().length;
    await createPuller({ db, client, pageLimit: 3, pagesPerTransaction: 4 }).pull('orders');
    const firstResumed = sim.requests.recent().slice(before).find((r) => r.path.endsWith('/orders'));
    expect(firstResumed?.query?.id_start).toBe(saved.cursor?.idStart);
    await expectConverged(db, sim, ['orders']);
  });

  it.each([400, 2])('writes the hydrated children of a first traversal only over older local copies (page limit %i)', async (pageLimit) => {
    const { sim, client, db } = await setup();
    const puller = createPuller({ db, client, pageLimit });
    await puller.pull('product_price_matrix');
    const current = sim.store.list('products').flatMap((p) => {
      const row = sim.store.prices.currentRow(String(p.id), sim.store.now());
      return row ? [String(row.id)] : [];
    });
    expect(current.length).toBeGreaterThan(2);
    const [newer, older] = current;
    // One local copy is newer than the server's (kept), one older (replaced).
    await db.product_price_matrix.update(newer!, { _v: Number.MAX_SAFE_INTEGER, note: 'newer here' });
    await db.product_price_matrix.update(older!, { _v: 0, note: 'older here' });
    await puller.pull('products');
    expect(await db.product_price_matrix.get(newer!)).toMatchObject({ note: 'newer here' });
    expect((await db.product_price_matrix.get(older!))?.note).toBeUndefined();
    expect((await db.product_price_matrix.get(older!))?._v).toBeGreaterThan(0);
    expect(await db.product_price_matrix.count()).toBe(sim.store.count('product_price_matrix'));
    await expectConverged(db, sim, ['products']);
  });

  describe('the read-ahead of the next collection', () => {
    /** A client that records each traversal it starts: its collection, query and signal. */
    function recording(client: SyncClient) {
      const started: { collection: CollectionName; query: TraversalQuery }[] = [];
      const traced: SyncClient = {
        ...client,
        pages(collection: CollectionName, query: TraversalQuery) {
          started.push({ collection, query });
          return client.pages(collection, query);
        },
      };
      const of = (c: CollectionName) => started.filter((s) => s.collection === c);
      return { traced, of };
    }

    it('asks the next collection\'s first page during this pull, writes nothing of it, and hands it to that pull', async () => {
      const { sim, client, db } = await setup();
      const { traced, of } = recording(client);
      const puller = createPuller({ db, client: traced });
      await puller.pull('shops', undefined, { next: 'employees' });
      expect(of('employees')).toHaveLength(1);
      expect(await db.employees.count()).toBe(0);
      expect(await db._sync_checkpoints.get('employees')).toBeUndefined();
      await puller.pull('employees');
      expect(of('employees')).toHaveLength(1);
      expect(of('employees')[0]!.query.signal?.aborted).toBe(false);
      await expectConverged(db, sim, ['shops', 'employees']);
    });

    it('is cancelled when the signal of the pull that asked it aborts, and asked again by the next pull', async () => {
      const { sim, client, db } = await setup();
      const { traced, of } = recording(client);
      const puller = createPuller({ db, client: traced });
      const controller = new AbortController();
      await puller.pull('shops', controller.signal, { next: 'employees' });
      controller.abort(new Error('closed'));
      expect(of('employees')[0]!.query.signal?.aborted).toBe(true);
      await puller.pull('employees');
      expect(of('employees')).toHaveLength(2);
      await expectConverged(db, sim, ['shops', 'employees']);
    });

    it('is cancelled by a pull of another collection, and by a reset', async () => {
      const { client, db } = await setup();
      const { traced, of } = recording(client);
      const puller = createPuller({ db, client: traced });
      await puller.pull('shops', undefined, { next: 'employees' });
      await puller.pull('warehouses', undefined, { next: 'cash_registers' });
      expect(of('employees')[0]!.query.signal?.aborted).toBe(true);
      expect(of('cash_registers')[0]!.query.signal?.aborted).toBe(false);
      await puller.reset('shops');
      expect(of('cash_registers')[0]!.query.signal?.aborted).toBe(true);
      expect(await db.employees.count()).toBe(0);
      expect(await db.cash_registers.count()).toBe(0);
    });

    it('is dropped when its collection was pulled meanwhile: the pull starts from the new checkpoint', async () => {
      const { sim, client, db } = await setup();
      const { traced, of } = recording(client);
      const puller = createPuller({ db, client: traced });
      await puller.pull('shops', undefined, { next: 'employees' });
      // Another instance (a tab) pulls employees; then one is edited on the server.
      await createPuller({ db, client }).pull('employees');
      const edited = sim.store.list('employees')[0]!;
      sim.store.advanceClock(120_000);
      sim.store.write('employees', { ...edited, note: 'edited after the read-ahead' } as never);
      await puller.pull('employees');
      expect(of('employees')).toHaveLength(2);
      expect(of('employees')[1]!.query.versionStart).toBeGreaterThan(0);
      expect((await db.employees.get(String(edited.id)))?.note).toBe('edited after the read-ahead');
      await expectConverged(db, sim, ['employees']);
    });

    it('waits for the traversal that follows a resumed one', async () => {
      const { sim, client, db } = await setup();
      const crashing = withPageHook(client, (c, index) => {
        if (c === 'orders' && index === 1) throw new Error('crash');
      });
      await expect(createPuller({ db, client: crashing, pageLimit: 4 }).pull('orders')).rejects.toThrow('crash');
      const { traced, of } = recording(client);
      const puller = createPuller({ db, client: traced, pageLimit: 4 });
      await puller.pull('orders', undefined, { next: 'order_details' });
      expect(of('orders').map((s) => s.query.idStart !== undefined)).toEqual([true, false]);
      expect(of('order_details')).toHaveLength(1);
      await puller.pull('order_details');
      expect(of('order_details')).toHaveLength(1);
      await expectConverged(db, sim, ['orders', 'order_details']);
    });
  });

  it('leaves a record below the cursor of a resumed traversal current: one edited since the traversal was interrupted', async () => {
    const { sim, client, db } = await setup();
    await createPuller({ db, client, pageLimit: 5 }).pull('customers');
    const ids = sim.store.list('customers').map((r) => String(r.id));
    const low = ids[0]!;
    // Eleven changes since the checkpoint: a delta of three pages, interrupted after the first.
    for (const id of ids.slice(0, 11)) sim.store.write('customers', { id, note_internal: 'first edit' });
    const crashing = withPageHook(client, (_c, index) => {
      if (index === 0) throw new Error('crash');
    });
    await expect(createPuller({ db, client: crashing, pageLimit: 5 }).pull('customers')).rejects.toThrow('crash');
    expect((await db.customers.get(low))?.note_internal).toBe('first edit');
    expect((await db._sync_checkpoints.get('customers'))?.cursor?.idStart).toBe(ids[4]);

    // Edited again while the device was away; the traversal resumes past it.
    sim.store.write('customers', { id: low, note_internal: 'edited while interrupted' });
    await createPuller({ db, client, pageLimit: 5 }).pull('customers');
    expect((await db.customers.get(low))?.note_internal).toBe('edited while interrupted');
    await expectConverged(db, sim, ['customers']);
  });

  it('quarantines records that fail the read schema and applies the rest of the page', async () => {
    const { sim, client, db } = await setup();
    const victim = sim.store.list('employees')[1]!;
    sim.store.collection('employees').put({ ...victim, _v: 'not a version' } as never);
    await createPuller({ db, client }).pull('employees');
    const quarantine = await db._sync_quarantine.toArray();
    expect(quarantine).toHaveLength(1);
    expect(quarantine[0]).toMatchObject({ collection: 'employees', id: String(victim.id) });
    expect(quarantine[0]!.issues.map((i) => i.path.join('.'))).toContain('_v');
    expect(await db.employees.count()).toBe(sim.store.count('employees') - 1);
  });

  it('keeps one quarantine row for a refused record however many pulls read it again', async () => {
    const { sim, client, db } = await setup();
    const puller = createPuller({ db, client });
    await puller.pull('employees');
    // The newest write of the collection is unreadable (`_d` not a number): its `_v` stays out of
    // the checkpoint, so every delta reads it again.
    const victim = sim.store.list('employees')[1]!;
    sim.store.advanceClock(1_000);
    sim.store.collection('employees').put({ ...victim, _d: 'bad', _v: sim.store.now() } as never);
    const reports = [];
    for (let i = 0; i < 5; i++) {
      sim.store.advanceClock(120_000); // well past the skew margin
      reports.push(await puller.pull('employees'));
    }
    expect(reports.every((r) => r.quarantined === 1)).toBe(true);
    const rows = await db._sync_quarantine.toArray();
    expect(rows.map((r) => [r.key, r.id])).toEqual([[`employees:${victim.id}`, String(victim.id)]]);
  });

  it('takes a quarantined record out of quarantine when a fixed version is applied', async () => {
    const { sim, client, db } = await setup();
    const puller = createPuller({ db, client });
    await puller.pull('employees');
    const victim = sim.store.list('employees')[1]!;
    sim.store.advanceClock(1_000);
    sim.store.collection('employees').put({ ...victim, _d: 'bad', _v: sim.store.now() } as never);
    sim.store.advanceClock(120_000);
    await puller.pull('employees');
    expect(await db._sync_quarantine.count()).toBe(1);
    sim.store.advanceClock(1_000);
    sim.store.write('employees', { ...victim, _d: 0, note: 'fixed' } as never);
    await puller.pull('employees');
    expect((await db.employees.get(String(victim.id)))?.note).toBe('fixed');
    expect(await db._sync_quarantine.count()).toBe(0);
  });

  it('applies a product whose hydrated price row the read schema refuses, and quarantines only that row', async () => {
    const { sim, client, db } = await setup();
    const product = sim.store.list('products').find((p) => p._d === 0 && sim.store.prices.currentRow(String(p.id), sim.store.now()))!;
    const row = sim.store.prices.currentRow(String(product.id), sim.store.now())!;
    sim.store.collection('product_price_matrix').put({ ...row, currency: 5 } as never);
    const puller = createPuller({ db, client });
    const report = await puller.pull('products');
    expect(report.quarantined).toBe(1);
    await puller.pull('product_price_matrix');
    expect((await db.products.get(String(product.id)))?.id).toBe(String(product.id));
    expect(await db.product_price_matrix.get(String(row.id))).toBeUndefined();
    const quarantined = await db._sync_quarantine.toArray();
    expect(quarantined.map((q) => `${q.collection}:${q.id}`)).toEqual([`product_price_matrix:${row.id}`]);
    expect(quarantined[0]!.issues.map((i) => i.path.join('.'))).toEqual(['currency']);
    // Every other product, with its price row, is in the mirror as usual.
    await expectConverged(db, sim, ['products']);
  });

  it.each([false, true])('converges whether or not the server repeats the id_start record (idStartInclusive %s)', async (inclusive) => {
    const { sim, client, db } = await setup({ idStartInclusive: inclusive, idsAsStrings: inclusive });
    const puller = createPuller({ db, client, pageLimit: 3 });
    for (const c of COLLECTIONS) await puller.pull(c);
    await expectConverged(db, sim, COLLECTIONS);
  });

  it('converges under errors, 429s, dropped connections and truncated bodies', async () => {
    const { sim, client, db } = await setup({ seed: 5 });
    sim.setFaults({ errorRate: 0.15, extra429Rate: 0.1, dropRate: 0.1, truncateRate: 0.1 });
    const puller = createPuller({ db, client, pageLimit: 6 });
    for (const c of COLLECTIONS) {
      // A run may still fail after its retries; the next run resumes at the saved cursor.
      for (let attempt = 0; ; attempt++) {
        try {
          await puller.pull(c);
          break;
        } catch (error) {
          if (attempt > 20) throw error;
        }
      }
    }
    sim.setFaults({});
    await expectConverged(db, sim, COLLECTIONS);
  });

  it('clamps pageLimit to each collection maximum (orders 2000, others 400) instead of failing the pull', async () => {
    const { sim, client, db } = await setup();
    const before = sim.requests.recent().length;
    const puller = createPuller({ db, client, pageLimit: 1_000 });
    await puller.pull('orders');
    await puller.pull('customers');
    await expectConverged(db, sim, ['orders', 'customers']);
    const limits = (suffix: string) =>
      sim.requests.recent().slice(before).filter((r) => r.path.endsWith(suffix)).map((r) => Number(r.query.limit));
    expect(limits('/customers')).toContain(400);
    expect(Math.max(...limits('/customers'))).toBe(400);
    expect(Math.max(...limits('/orders'))).toBeLessThanOrEqual(1_000);
  });

  it('follows registers that keep selling: a delta after activity converges again', async () => {
    const { sim, client, db } = await setup();
    const puller = createPuller({ db, client, pageLimit: 20 });
    for (const c of COLLECTIONS) await puller.pull(c);
    for (let i = 0; i < 15; i++) sim.store.sell();
    sim.store.remove('customers', String(sim.store.list('customers')[0]!.id));
    const before = sim.requests.recent().length;
    for (const c of COLLECTIONS) await puller.pull(c);
    await expectConverged(db, sim, COLLECTIONS);
    // A delta reads what changed, not the whole tenant again.
    const received = sim.requests.recent().slice(before).length;
    expect(received).toBeLessThan(COLLECTIONS.length * 3);
  });
});

describe('reconcileCollection', () => {
  it('clamps pageLimit to the collection maximum, as a pull does', async () => {
    const { sim, client, db } = await setup();
    const report = await reconcileCollection('customers', { db, client, pageLimit: 1_000 });
    expect(report.seen).toBe(sim.store.count('customers'));
    await expectConverged(db, sim, ['customers']);
  });

  it('sets a checkpoint that still catches a low-id record edited mid-sweep when the device clock is set back', async () => {
    const { sim, client, db } = await setup();
    const { hooked, low, edited } = editLowThenHighMidTraversal(sim, client, 'edited mid-sweep');
    await reconcileCollection('customers', { db, client: hooked, pageLimit: 5, now: clockSetBackAfterFirstRead(600_000) });
    expect(edited()).toBe(true);
    await createPuller({ db, client, pageLimit: 5 }).pull('customers');
    expect((await db.customers.get(low))?.note_internal).toBe('edited mid-sweep');
    await expectConverged(db, sim, ['customers']);
  });

  it('quarantines a server record the read schema refuses and keeps its local copy, instead of taking it for vanished', async () => {
    const { sim, client, db } = await setup();
    await createPuller({ db, client }).pull('employees');
    const victim = sim.store.list('employees')[1]!;
    sim.store.collection('employees').put({ ...victim, _v: 'not a version' } as never);
    const report = await reconcileCollection('employees', { db, client, pageLimit: 3 });
    expect(report).toMatchObject({ vanished: 0, quarantined: 1 });
    expect(await db.employees.get(String(victim.id))).toBeDefined();
    const quarantine = await db._sync_quarantine.toArray();
    expect(quarantine).toHaveLength(1);
    expect(quarantine[0]).toMatchObject({ collection: 'employees', id: String(victim.id) });
    expect(await db.employees.count()).toBe(sim.store.count('employees'));
  });

  it('keeps one quarantine row per refused record over repeated sweeps, and drops the row of a record gone from the server', async () => {
    const { sim, client, db } = await setup();
    await createPuller({ db, client }).pull('employees');
    const victim = sim.store.list('employees')[1]!;
    sim.store.collection('employees').put({ ...victim, _v: 'not a version' } as never);
    await reconcileCollection('employees', { db, client, pageLimit: 3 });
    await reconcileCollection('employees', { db, client, pageLimit: 3 });
    expect((await db._sync_quarantine.toArray()).map((r) => r.key)).toEqual([`employees:${victim.id}`]);
    // A record only this device has (the server lost it), with a refused version in quarantine.
    const lost = { ...(await db.employees.get(String(sim.store.list('employees')[0]!.id)))!, id: '999999999999999990' };
    await db.employees.put(lost);
    await ingestRecords(db, 'employees', [{ ...lost, _v: lost._v + 1, _d: 'bad' }]);
    expect(await db._sync_quarantine.count()).toBe(2);
    const report = await reconcileCollection('employees', { db, client, pageLimit: 3 });
    expect(report.vanished).toBe(1);
    expect((await db._sync_quarantine.toArray()).map((r) => r.key)).toEqual([`employees:${victim.id}`]);
  });
});
