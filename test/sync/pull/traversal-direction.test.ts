import { describe, expect, it } from 'vitest';
import { inTransaction } from '../../../src/db/in-transaction.js';
import type { StoredRecord } from '../../../src/db/sync-rows.js';
import { COLLECTIONS, type CollectionName } from '../../../src/schema/collections.js';
import { applyServerRecords, applyTables, highestVersion } from '../../../src/sync/pull/apply-records.js';
import { createPuller } from '../../../src/sync/pull/pull.js';
import { NEWEST_FIRST, traversalDirection } from '../../../src/sync/pull/traversal-direction.js';
import { DEFAULT_SYNC_GROUPS } from '../../../src/sync/cycle/sync-groups.js';
import type { SyncClient, TraversalQuery } from '../../../src/sync/sync-client.js';
import { type LoggedRequest, type Simulator } from '../../../src/simulator/index.js';
import { expectConverged } from '../../mirror/convergence.js';
import { pullSetup, withPageHook } from './pull-fixture.js';

const setup = pullSetup('traversal direction', { activity: false, logSize: 100_000 });


/** The list requests of `collection` the server logged since `since` (a log length). */
function listRequests(sim: Simulator, collection: CollectionName, since = 0): LoggedRequest[] {
  return sim.requests.recent().slice(since).filter((r) => r.method === 'GET' && r.path.endsWith(`/${collection}`));
}

/** Ids of `collection` on the server, newest first. */
function newestFirst(sim: Simulator, collection: CollectionName): string[] {
  return sim.store
    .list(collection)
    .map((r) => BigInt(String(r.id)))
    .sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))
    .map(String);
}

describe('traversalDirection', () => {
  it('runs the first full traversal of each history collection newest first, and every other traversal forward', () => {
    const history = DEFAULT_SYNC_GROUPS.find((g) => g.name === 'history')!.collections;
    expect([...NEWEST_FIRST].sort()).toEqual([...history].sort());
    for (const c of COLLECTIONS) {
      expect(traversalDirection(c, 0), c).toBe(history.includes(c) ? 'backward' : 'forward');
      expect(traversalDirection(c, 1_700_000_000_000), c).toBe('forward');
    }
  });
});

describe('a first sync newest first', () => {
  it('asks every history collection backward from version 0, the others forward, and ends equal to the server', async () => {
    const { sim, client, db } = await setup({ size: 'small', seed: 3 });
    const puller = createPuller({ db, client, pageLimit: 400 });
    for (const c of COLLECTIONS) await puller.pull(c);
    await expectConverged(db, sim, COLLECTIONS);
    for (const c of COLLECTIONS) {
      const asked = listRequests(sim, c);
      expect(asked.length, c).toBeGreaterThan(0);
      expect(new Set(asked.map((r) => r.query.direction)), c).toEqual(new Set([NEWEST_FIRST.has(c) ? 'backward' : 'forward']));
      // Each table holds exactly the server's records: none lost, none twice (a key is one row).
      expect(await db.table(c).count(), c).toBe(sim.store.count(c));
    }
    // The first page of orders is the newest orders.
    const firstOrders = listRequests(sim, 'orders')[0]!;
    expect(firstOrders.query).toMatchObject({ direction: 'backward', version_start: '0' });
    expect(firstOrders.query.id_start ?? '0').toBe('0');
    // The deltas that follow go forward from the checkpoint.
    const before = sim.requests.recent().length;
    sim.store.sell();
    for (const c of COLLECTIONS) await puller.pull(c);
    const deltas = sim.requests.recent().slice(before).filter((r) => r.method === 'GET');
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.every((r) => r.query.direction === 'forward' && Number(r.query.version_start) > 0)).toBe(true);
    await expectConverged(db, sim, COLLECTIONS);
  });

  it('resumes a backward traversal interrupted after some pages from its cursor, backward, asking each page after the cursor once and none it applied', async () => {
    const { sim, client, db } = await setup();
    const ids = newestFirst(sim, 'orders');
    expect(ids.length).toBeGreaterThan(20);
    const stop = new AbortController();
    const stopping = withPageHook(client, (_c, index) => {
      if (index === 2) stop.abort(new DOMException('the app was closed', 'AbortError'));
    });
    await expect(createPuller({ db, client: stopping, pageLimit: 4 }).pull('orders', stop.signal)).rejects.toThrow();
    const saved = (await db._sync_checkpoints.get('orders'))!;
    expect(saved.checkpoint).toBe(0);
    expect(saved.backwardCursor).toMatchObject({ direction: 'backward', versionStart: 0 });
    // Not in `cursor`, the one field a tab of an earlier release reads (it would resume it forward).
    expect(saved.cursor).toBeUndefined();
    const kept = saved.backwardCursor!.records;
    expect(kept).toBeGreaterThanOrEqual(4);
    // What was kept is the newest orders, up to the cursor.
    expect(saved.backwardCursor!.idStart).toBe(ids[kept - 1]);
    expect((await db.orders.toCollection().primaryKeys()).map(String).sort()).toEqual(ids.slice(0, kept).sort());

    const before = sim.requests.recent().length;
    await createPuller({ db, client, pageLimit: 4 }).pull('orders');
    const resumedRun = listRequests(sim, 'orders', before);
    const full = resumedRun.filter((r) => r.query.version_start === '0');
    // The traversal goes on where it stopped, in its direction, then a delta goes forward from the checkpoint.
    expect(full[0]?.query).toMatchObject({ direction: 'backward', id_start: saved.backwardCursor!.idStart });
    expect(full.every((r) => r.query.direction === 'backward')).toBe(true);
    expect(resumedRun.slice(full.length).every((r) => r.query.direction === 'forward' && Number(r.query.version_start) > 0)).toBe(true);
    expect(resumedRun.slice(full.length).length).toBeGreaterThan(0);
    // The pages after the cursor, each once: none of those the first run applied is asked again
    // (the pages it had asked ahead of its writes were never applied, so they are asked now).
    const expected: string[] = [];
    for (let i = kept - 1; i < ids.length; i += 4) expected.push(ids[i]!);
    expect(full.map((r) => r.query.id_start)).toEqual(expected);
    expect(await db.orders.count()).toBe(ids.length);
    await expectConverged(db, sim, ['orders']);
  });

  it('resumes forward a cursor saved without a direction, as the release before wrote them', async () => {
    const { sim, client, db } = await setup();
    const startedAt = sim.store.now();
    // The oldest eight orders applied, and the cursor after them, as a forward traversal saved it.
    const page = await client.list('orders', { direction: 'forward', versionStart: 0, limit: 8 });
    await inTransaction(db, 'rw', [...applyTables(db, 'orders'), db._sync_checkpoints], async (tx) => {
      await applyServerRecords(tx, 'orders', page, { contiguous: true });
      await tx._sync_checkpoints.put({
        collection: 'orders',
        checkpoint: 0,
        initialDone: false,
        cursor: { versionStart: 0, idStart: page.cursor, startedAt, maxV: highestVersion(page), records: 8 },
      });
    });
    const before = sim.requests.recent().length;
    await createPuller({ db, client, pageLimit: 4 }).pull('orders');
    const full = listRequests(sim, 'orders', before).filter((r) => r.query.version_start === '0');
    expect(full[0]?.query).toMatchObject({ direction: 'forward', id_start: page.cursor });
    expect(full.every((r) => r.query.direction === 'forward')).toBe(true);
    expect(await db.orders.count()).toBe(sim.store.count('orders'));
    await expectConverged(db, sim, ['orders']);
  });

  it('keeps a backward cursor where an earlier release does not read it, and with a forward one beside it (such a tab ran) resumes one and ends equal, holding neither', async () => {
    const { sim, client, db } = await setup();
    const startedAt = sim.store.now();
    // A backward traversal of this release, interrupted after eight orders...
    const newest = await client.list('orders', { direction: 'backward', versionStart: 0, limit: 8 });
    // ...then a tab of an earlier release, which saw no `cursor`, started over forward and stopped after eight.
    const oldest = await client.list('orders', { direction: 'forward', versionStart: 0, limit: 8 });
    await inTransaction(db, 'rw', [...applyTables(db, 'orders'), db._sync_checkpoints], async (tx) => {
      await applyServerRecords(tx, 'orders', newest, { contiguous: true });
      await applyServerRecords(tx, 'orders', oldest, { contiguous: true });
      await tx._sync_checkpoints.put({
        collection: 'orders',
        checkpoint: 0,
        initialDone: false,
        backwardCursor: { versionStart: 0, idStart: newest.cursor, startedAt, maxV: highestVersion(newest), records: 8, direction: 'backward' },
        cursor: { versionStart: 0, idStart: oldest.cursor, startedAt, maxV: highestVersion(oldest), records: 8 },
      });
    });
    await createPuller({ db, client, pageLimit: 4 }).pull('orders');
    const row = await db._sync_checkpoints.get('orders');
    expect(row).toMatchObject({ initialDone: true, cursor: undefined, backwardCursor: undefined });
    expect(await db.orders.count()).toBe(sim.store.count('orders'));
    await expectConverged(db, sim, ['orders']);
  });

  it('has the orders created and changed while its backward traversal ran once the delta after it ran', async () => {
    const { sim, client, db } = await setup();
    const ids = newestFirst(sim, 'orders');
    const oldest = ids[ids.length - 1]!;
    const newest = ids[0]!;
    const created: string[] = [];
    const hooked = withPageHook(client, (collection, index) => {
      if (collection !== 'orders' || index !== 1) return;
      sim.store.advanceClock(5);
      // Sales during the traversal: ids above its first page, which it never reaches.
      for (let i = 0; i < 3; i++) created.push(String(sim.store.sell().order.id));
      // One order the traversal has read (the newest), one it has not reached yet (the oldest).
      sim.store.write('orders', { ...sim.store.get('orders', newest)!, note: 'changed after it was read' });
      sim.store.write('orders', { ...sim.store.get('orders', oldest)!, note: 'changed before it was read' });
    });
    const puller = createPuller({ db, client: hooked, pageLimit: 4 });
    await puller.pull('orders');
    expect(created).toHaveLength(3);
    // The scenario is real: the traversal missed the sales and read the newest order before its change.
    expect(await db.orders.bulkGet(created)).toEqual([undefined, undefined, undefined]);
    expect((await db.orders.get(newest))?.note).not.toBe('changed after it was read');
    expect((await db.orders.get(oldest))?.note).toBe('changed before it was read');
    const checkpoint = (await db._sync_checkpoints.get('orders'))!.checkpoint;
    for (const id of [...created, newest]) expect(checkpoint).toBeLessThanOrEqual(sim.store.get('orders', id)!._v as number);

    await puller.pull('orders');
    expect((await db.orders.bulkGet(created)).every((o) => o !== undefined)).toBe(true);
    expect((await db.orders.get(newest))?.note).toBe('changed after it was read');
    await expectConverged(db, sim, ['orders']);
  });

  it('opens the read-ahead of the next collection in that collection\'s direction', async () => {
    const { sim, client, db } = await setup();
    const started: { collection: CollectionName; query: TraversalQuery }[] = [];
    const traced: SyncClient = {
      ...client,
      pages(collection: CollectionName, query: TraversalQuery) {
        started.push({ collection, query });
        return client.pages(collection, query);
      },
    };
    const puller = createPuller({ db, client: traced, pageLimit: 5 });
    await puller.pull('customers', undefined, { next: 'orders' });
    await puller.pull('orders', undefined, { next: 'products' });
    await puller.pull('products');
    const of = (c: CollectionName) => started.filter((s) => s.collection === c).map((s) => s.query.direction);
    // Each pull took the first page read ahead for it: one traversal each, in its direction.
    expect([of('customers'), of('orders'), of('products')]).toEqual([['forward'], ['backward'], ['forward']]);
    await expectConverged(db, sim, ['customers', 'orders', 'products']);
  });
});

describe('applyServerRecords with a descending page', () => {
  it('reads the local copies of the whole id range: keeps a newer copy at either end and a pending edit, replaces an older copy', async () => {
    const { client, db } = await setup();
    const page = await client.list('shifts', { direction: 'backward', versionStart: 0, limit: 6 });
    expect(page).toHaveLength(6);
    expect(BigInt(page[0]!.id) > BigInt(page[5]!.id)).toBe(true);
    const [highest, edited, older] = [page[0]!, page[2]!, page[3]!];
    const lowest = page[5]!;
    const local = (record: StoredRecord, fields: Record<string, unknown>): StoredRecord => ({ ...record, ...fields });
    await db.shifts.bulkPut([
      // Newer here than the page, at the highest and at the lowest id: both kept.
      local(highest, { _v: Number.MAX_SAFE_INTEGER, note: 'newer here (highest)' }),
      local(lowest, { _v: Number.MAX_SAFE_INTEGER, note: 'newer here (lowest)' }),
      // An app's pending edit: not overwritten, the server state noted on its outbox entry.
      local(edited, { note: 'edited on the device' }),
      // Older here: replaced.
      local(older, { _v: 1, note: 'older here' }),
    ]);
    const now = Date.now();
    await db._sync_outbox.add({
      collection: 'shifts',
      id: edited.id,
      op: 'update',
      changed: ['note'],
      base: { ...edited, _v: edited._v - 1 },
      server: null,
      localVersion: 1,
      createdAt: now,
      updatedAt: now,
      state: 'pending',
      attempts: 0,
    });
    const result = await inTransaction(db, 'rw', applyTables(db, 'shifts'), (tx) => applyServerRecords(tx, 'shifts', page, { contiguous: true }));
    expect(result).toMatchObject({ written: 3, skipped: 2, deferred: 1 });
    expect((await db.shifts.get(highest.id))?.note).toBe('newer here (highest)');
    expect((await db.shifts.get(lowest.id))?.note).toBe('newer here (lowest)');
    expect((await db.shifts.get(edited.id))?.note).toBe('edited on the device');
    expect((await db._sync_outbox.where('[collection+id]').equals(['shifts', edited.id]).first())?.server).toEqual(edited);
    expect(await db.shifts.get(older.id)).toEqual({ ...older });
    expect(await db.shifts.count()).toBe(6);
  });
});
