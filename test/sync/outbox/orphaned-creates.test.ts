import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import { saveLocal } from '../../../src/sync/outbox/local-edit.js';
import { findUnsentCreates, ORPHANED_CREATES_KEPT, readOrphanedCreates, requeueCreates } from '../../../src/sync/outbox/orphaned-creates.js';

const NOW = 1_760_000_000_000;
let db: MirrorDb;

beforeEach(async () => {
  db = new MirrorDb('orphaned-creates', { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.open();
});
afterEach(() => db.close());

/** A local create whose outbox entry is gone, as issue 39 left one. */
async function orphan(name: string): Promise<string> {
  const id = await saveLocal(db, 'warehouses', { name }, { now: NOW });
  await db._sync_outbox.where('[collection+id]').equals(['warehouses', id]).delete();
  return id;
}

describe('findUnsentCreates', () => {
  it('finds records with _v 0 and no outbox entry, and none that have an entry in any state, a server version or a server copy in quarantine', async () => {
    const lost = await orphan('Lost');
    await saveLocal(db, 'warehouses', { name: 'Pending' }, { now: NOW });
    const rejected = await saveLocal(db, 'warehouses', { name: 'Refused' }, { now: NOW });
    const entry = (await db._sync_outbox.where('[collection+id]').equals(['warehouses', rejected]).first())!;
    await db._sync_outbox.put({ ...entry, state: 'rejected', reason: 'no' });
    await db.warehouses.put({ id: '42', _v: 900, name: 'From the server' });
    // Acknowledged, and the server's copy refused by the read schema: it is on the server.
    const refused = await orphan('Refused on the way back');
    await db._sync_quarantine.put({ key: `warehouses:${refused}`, collection: 'warehouses', id: refused, record: {}, issues: [{ path: ['name'], message: 'bad' }], at: NOW });
    expect(await findUnsentCreates(db, ['warehouses', 'customers'])).toEqual([{ collection: 'warehouses', id: lost }]);
  });
});

describe('requeueCreates', () => {
  it('queues each again as a pending create of every field it holds, and keeps the count and the latest for the status', async () => {
    const id = await orphan('Lost');
    const requeued = await requeueCreates(db, [{ collection: 'warehouses', id }], NOW + 5);
    expect(requeued).toEqual([{ collection: 'warehouses', id, at: NOW + 5 }]);
    const [entry] = await db._sync_outbox.toArray();
    expect(entry).toMatchObject({ collection: 'warehouses', id, op: 'create', base: null, state: 'pending', localVersion: 1 });
    expect(entry!.changed).toContain('name');
    expect(entry!.changed).not.toContain('_v');
    expect(entry!.minted).toBeUndefined();
    expect(await readOrphanedCreates(db)).toEqual({ total: 1, latest: requeued });
  });

  it('skips a record that got an entry or a server version meanwhile, or left its table', async () => {
    const queued = await saveLocal(db, 'warehouses', { name: 'Queued' }, { now: NOW });
    const pulled = await orphan('Pulled');
    await db.warehouses.update(pulled, { _v: 700 });
    const refs = [queued, pulled, '123'].map((id) => ({ collection: 'warehouses' as const, id }));
    expect(await requeueCreates(db, refs, NOW)).toEqual([]);
    expect(await db._sync_outbox.count()).toBe(1);
    expect(await readOrphanedCreates(db)).toEqual({ total: 0, latest: [] });
  });

  it(`keeps the latest ${ORPHANED_CREATES_KEPT} for the status and counts them all`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < ORPHANED_CREATES_KEPT + 3; i++) ids.push(await orphan(`Lost ${i}`));
    for (const id of ids) await requeueCreates(db, [{ collection: 'warehouses', id }], NOW);
    const kept = await readOrphanedCreates(db);
    expect(kept.total).toBe(ORPHANED_CREATES_KEPT + 3);
    expect(kept.latest.map((o) => o.id)).toEqual(ids.slice(3));
  });
});
