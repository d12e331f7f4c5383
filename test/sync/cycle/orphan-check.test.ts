import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import { checkOrphanedCreates } from '../../../src/sync/cycle/orphan-check.js';
import { saveLocal } from '../../../src/sync/outbox/local-edit.js';
import { readOrphanedCreates } from '../../../src/sync/outbox/orphaned-creates.js';

const NOW = 1_760_000_000_000;
let db: MirrorDb;

beforeEach(async () => {
  db = new MirrorDb('orphan-check', { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.open();
});
afterEach(() => db.close());

/** A local create with no outbox entry: acknowledged a moment ago, or left without one (issue 39). */
async function unsent(collection: 'warehouses' | 'customers', values: Record<string, unknown>): Promise<string> {
  const id = await saveLocal(db, collection, values, { now: NOW });
  await db._sync_outbox.where('[collection+id]').equals([collection, id]).delete();
  return id;
}

describe('checkOrphanedCreates', () => {
  it('queues a create again only when two checks in a row find it with no entry and no server copy', async () => {
    const id = await unsent('warehouses', { name: 'Lost' });
    expect(await checkOrphanedCreates(db, ['warehouses'], NOW)).toEqual([]);
    expect(await db._sync_outbox.count()).toBe(0);
    expect(await checkOrphanedCreates(db, ['warehouses'], NOW + 1)).toEqual([{ collection: 'warehouses', id, at: NOW + 1 }]);
    expect(await db._sync_outbox.toArray()).toMatchObject([{ id, op: 'create', state: 'pending' }]);
    expect(await readOrphanedCreates(db)).toMatchObject({ total: 1 });
    // Queued: later checks leave it alone.
    expect(await checkOrphanedCreates(db, ['warehouses'], NOW + 2)).toEqual([]);
    expect(await db._sync_outbox.count()).toBe(1);
  });

  it('leaves alone an acknowledged create that a pull brought back between two checks', async () => {
    const id = await unsent('warehouses', { name: 'Acknowledged' });
    await checkOrphanedCreates(db, ['warehouses'], NOW);
    await db.warehouses.update(id, { _v: 900 });
    expect(await checkOrphanedCreates(db, ['warehouses'], NOW + 1)).toEqual([]);
    expect(await db._sync_outbox.count()).toBe(0);
  });

  it('keeps what it noted of a collection a run did not check for the next run that does', async () => {
    const id = await unsent('customers', { company: null, firstname: 'Eva' });
    await checkOrphanedCreates(db, ['customers'], NOW);
    expect(await checkOrphanedCreates(db, ['warehouses'], NOW + 1)).toEqual([]);
    expect(await checkOrphanedCreates(db, ['customers'], NOW + 2)).toEqual([{ collection: 'customers', id, at: NOW + 2 }]);
  });
});
