import { describe, expect, it } from 'vitest';
import { decodeId } from '../../../src/ids/decode-id.js';
import { compareIds } from '../../../src/ids/id.js';
import type { CollectionName } from '../../../src/schema/collections.js';
import { type Simulator } from '../../../src/simulator/index.js';
import { cutAtEdge, edgeOf, isBeforeEdge } from '../../../src/sync/pull/edge.js';
import { createPuller } from '../../../src/sync/pull/pull.js';
import type { SyncClient } from '../../../src/sync/sync-client.js';
import { expectConverged } from '../../mirror/convergence.js';
import { pullSetup, withPageHook } from './pull-fixture.js';

const setup = pullSetup('edge', { activity: false, logSize: 100_000 });

/** Ids of `collection` on the server, newest first. */
function newestFirst(sim: Simulator, collection: CollectionName): string[] {
  return sim.store
    .list(collection)
    .map((r) => String(r.id))
    .sort((a, b) => compareIds(b, a));
}

/** The time of the `n`th newest record of `collection`, a ms after it: the edge keeps the `n` newest. */
function timeKeeping(sim: Simulator, collection: CollectionName, n: number): number {
  return decodeId(newestFirst(sim, collection)[n - 1]!).createdAt;
}

async function storedIds(db: { table: (name: string) => { toCollection: () => { primaryKeys: () => Promise<unknown[]> } } }, collection: CollectionName): Promise<string[]> {
  return (await db.table(collection).toCollection().primaryKeys()).map(String).sort((a, b) => compareIds(b, a));
}

describe('edgeOf', () => {
  it('is the lowest id of its time: records created at or after it are not before it, those a ms earlier are', () => {
    const time = Date.UTC(2025, 5, 1, 12);
    const edge = edgeOf(time);
    expect(decodeId(edge)).toEqual({ createdAt: time, tableId: 0, random: 0 });
    expect(isBeforeEdge({ id: edgeOf(time - 1) }, edge)).toBe(true);
    expect(isBeforeEdge({ id: edge }, edge)).toBe(false);
    expect(edgeOf(0)).toBe('0');
  });

  it('cuts backward pages at the first record before the edge and leaves the pages after it out', () => {
    const edge = '1000';
    const cut = cutAtEdge([[{ id: '3000', _v: 1 }, { id: '2000', _v: 1 }], [{ id: '1500', _v: 1 }, { id: '900', _v: 1 }], [{ id: '800', _v: 1 }]], edge);
    expect(cut).toEqual({ kept: [[{ id: '3000', _v: 1 }, { id: '2000', _v: 1 }], [{ id: '1500', _v: 1 }]], reached: true });
    expect(cutAtEdge([[{ id: '3000', _v: 1 }]], edge).reached).toBe(false);
  });
});

describe('a backward first traversal paused at an edge', () => {
  it('writes every record from the edge on and none before it, keeps its cursor at the last one written, and asks no page past the edge', async () => {
    const { sim, client, db } = await setup();
    const ids = newestFirst(sim, 'orders');
    expect(ids.length).toBeGreaterThan(20);
    const pauseAt = timeKeeping(sim, 'orders', 6);
    let pages = 0;
    const counted = withPageHook(client, () => void pages++);
    const report = await createPuller({ db, client: counted, pageLimit: 4, pagesPerTransaction: 1 }).pull('orders', undefined, { pauseAt });

    expect(report.paused).toBe(true);
    expect(await storedIds(db, 'orders')).toEqual(ids.slice(0, 6));
    // Pages of 4: the sixth is on the second page, which reached the edge; the read-ahead asked at most one more.
    expect(pages).toBeLessThanOrEqual(3);
    const row = (await db._sync_checkpoints.get('orders'))!;
    expect(row).toMatchObject({ checkpoint: 0, initialDone: false, pausedAt: pauseAt });
    expect(row.backwardCursor).toMatchObject({ direction: 'backward', versionStart: 0, idStart: ids[5], records: 6 });
  });

  it('is continued by the next pull from its cursor, older first, skipping and repeating nothing, and then equals the server', async () => {
    const { sim, client, db } = await setup();
    const ids = newestFirst(sim, 'orders');
    const puller = createPuller({ db, client, pageLimit: 4, pagesPerTransaction: 1 });
    await puller.pull('orders', undefined, { pauseAt: timeKeeping(sim, 'orders', 6) });
    const before = sim.requests.recent().length;
    await puller.pull('orders');
    const asked = sim.requests.recent().slice(before).filter((r) => r.method === 'GET' && r.path.endsWith('/orders'));
    const full = asked.filter((r) => r.query.version_start === '0');
    expect(full[0]?.query).toMatchObject({ direction: 'backward', id_start: ids[5] });
    // Every page once, from the record after the last one written.
    const expected: string[] = [];
    for (let i = 5; i < ids.length; i += 4) expected.push(ids[i]!);
    expect(full.map((r) => r.query.id_start)).toEqual(expected);
    expect((await db._sync_checkpoints.get('orders'))!.initialDone).toBe(true);
    expect(await db.orders.count()).toBe(ids.length);
    await expectConverged(db, sim, ['orders']);
  });

  it('asks nothing again when its cursor is already past the edge, and has the sales made meanwhile once continued', async () => {
    const { sim, client, db } = await setup();
    let traversals = 0;
    const traced: SyncClient = { ...client, pages: (c, q) => (traversals++, client.pages(c, q)) };
    const puller = createPuller({ db, client: traced, pageLimit: 4 });
    const pauseAt = timeKeeping(sim, 'orders', 6);
    await puller.pull('orders', undefined, { pauseAt });
    expect(traversals).toBe(1);
    // A later run's edge is later (the clock moved on): the records from there on are in already.
    const again = await puller.pull('orders', undefined, { pauseAt: pauseAt + 60_000 });
    expect(again.paused).toBe(true);
    expect(traversals).toBe(1);

    sim.store.advanceClock(5);
    const sold = String(sim.store.sell().order.id);
    await puller.pull('orders');
    expect(await db.orders.get(sold)).toBeDefined();
    await expectConverged(db, sim, ['orders']);
  });

  it('ends complete at the window\'s edge: the checkpoint moves, and a delta keeps no older record the mirror does not hold', async () => {
    const { sim, client, db } = await setup();
    const ids = newestFirst(sim, 'orders');
    const window = timeKeeping(sim, 'orders', 7);
    const puller = createPuller({ db, client, pageLimit: 4, windowEdge: (c) => (c === 'orders' ? window : undefined) });
    await puller.pull('orders');
    expect(await storedIds(db, 'orders')).toEqual(ids.slice(0, 7));
    const row = (await db._sync_checkpoints.get('orders'))!;
    expect(row).toMatchObject({ initialDone: true, historyEdge: window, backwardCursor: undefined });
    expect(row.checkpoint).toBeGreaterThan(0);

    sim.store.advanceClock(5);
    const old = ids[ids.length - 1]!;
    const kept = ids[0]!;
    sim.store.write('orders', { ...sim.store.get('orders', old)!, note: 'changed long after' });
    sim.store.write('orders', { ...sim.store.get('orders', kept)!, note: 'changed in the window' });
    const sold = String(sim.store.sell().order.id);
    await puller.pull('orders');
    expect(await db.orders.get(old)).toBeUndefined();
    expect((await db.orders.get(kept))?.note).toBe('changed in the window');
    expect(await db.orders.get(sold)).toBeDefined();
  });

  it('pauses at the group\'s edge when the window reaches further, and the continuation completes at the window', async () => {
    const { sim, client, db } = await setup();
    const ids = newestFirst(sim, 'orders');
    const window = timeKeeping(sim, 'orders', 11);
    const puller = createPuller({ db, client, pageLimit: 4, windowEdge: () => window });
    expect((await puller.pull('orders', undefined, { pauseAt: timeKeeping(sim, 'orders', 3) })).paused).toBe(true);
    expect(await storedIds(db, 'orders')).toEqual(ids.slice(0, 3));
    await puller.pull('orders');
    expect(await storedIds(db, 'orders')).toEqual(ids.slice(0, 11));
    expect((await db._sync_checkpoints.get('orders'))!).toMatchObject({ initialDone: true, historyEdge: window, pausedAt: timeKeeping(sim, 'orders', 3) });
  });
});
