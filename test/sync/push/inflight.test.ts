import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import { QUARANTINE_MOVING, QUARANTINE_STORE } from '../../../src/db/stores.js';
import { version1Stores } from '../../../src/db/version-1-stores.js';
import type { OutboxEntry } from '../../../src/db/sync-rows.js';
import { readSent } from '../../../src/sync/outbox/outbox-sent.js';

const open: Dexie[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

let n = 0;

/** A database as version 5 of the library left it (the schema versions MirrorDb declared then). */
async function version5Database(factory: IDBFactory, name: string, fill: (db: Dexie) => Promise<void>): Promise<void> {
  const v5 = new Dexie(name, { indexedDB: factory, IDBKeyRange });
  v5.version(1).stores(version1Stores());
  v5.version(2).stores({ [QUARANTINE_MOVING]: QUARANTINE_STORE });
  v5.version(3).stores({ _sync_quarantine: null });
  v5.version(4).stores({ _sync_quarantine: QUARANTINE_STORE });
  v5.version(5).stores({ [QUARANTINE_MOVING]: null });
  await v5.open();
  await fill(v5);
  v5.close();
}

const customer = { id: '5000000000000000010', _v: 7, _d: 0, _t: 'customers', firstname: 'Ana', lastname: 'Novak' };
const pending: OutboxEntry = {
  collection: 'customers',
  id: customer.id,
  op: 'update',
  changed: ['firstname'],
  base: { ...customer, firstname: 'Anna' },
  server: null,
  localVersion: 2,
  createdAt: 1,
  updatedAt: 2,
  state: 'pending',
  attempts: 1,
  // A snapshot written per entry by the library before version 6 (an unanswered POST).
  sent: { record: { ...customer, firstname: 'Ana' }, fields: ['firstname'] },
};

describe('schema version 6 (_sync_inflight)', () => {
  it('opens a version 5 database: the table is added, outbox entries (and their sent snapshots) and records are kept', async () => {
    const factory = new IDBFactory();
    const name = `inflight-upgrade-${++n}`;
    await version5Database(factory, name, async (db) => {
      await db.table('customers').put(customer);
      await db.table('_sync_outbox').add({ ...pending });
      await db.table('_sync_quarantine').put({ key: 'employees:9', collection: 'employees', id: '9', record: { id: 9 }, issues: [], at: 3 });
    });

    const db = new MirrorDb(name, { indexedDB: factory, IDBKeyRange });
    open.push(db);
    await db.open();
    expect(db.verno).toBe(9);
    expect(db.tables.map((t) => t.name)).toContain('_sync_inflight');
    const [entry] = await db._sync_outbox.toArray();
    expect(entry).toEqual({ ...pending, seq: 1 });
    expect(readSent(entry!)).toEqual(pending.sent);
    expect(await db.customers.get(customer.id)).toEqual(customer);
    expect(await db._sync_quarantine.get('employees:9')).toMatchObject({ collection: 'employees' });
    // The new table works: keys count up, rows go.
    const key = await db._sync_inflight.add({ collection: 'customers', entries: [] });
    expect(typeof key).toBe('number');
    await db._sync_inflight.delete(key);
    expect(await db._sync_inflight.count()).toBe(0);
  });

  it('opening folds a batch row left behind into its entries, the later row winning, and deletes the rows', async () => {
    const factory = new IDBFactory();
    const name = `inflight-fold-${++n}`;
    const first = new MirrorDb(name, { indexedDB: factory, IDBKeyRange });
    await first.open();
    const { sent: _sent, ...bare } = pending;
    const seq = await first._sync_outbox.add({ ...bare });
    const other = await first._sync_outbox.add({ ...bare, id: '5000000000000000020' });
    const wire = { id: customer.id, _t: 'customers', firstname: 'Ana' };
    await first._sync_inflight.bulkAdd([
      { collection: 'customers', entries: [{ seq, wire: { ...wire, firstname: 'Older' }, v: 7, fields: ['firstname'] }] },
      { collection: 'customers', entries: [{ seq, wire, v: 7, fields: ['firstname'] }, { seq: 999, wire, v: 0, fields: ['firstname'] }] },
    ]);
    first.close();

    const db = new MirrorDb(name, { indexedDB: factory, IDBKeyRange });
    open.push(db);
    await db.open();
    expect(await db._sync_inflight.count()).toBe(0);
    expect(readSent((await db._sync_outbox.get(seq))!)).toEqual({ record: { ...wire, _v: 7 }, fields: ['firstname'] });
    expect(readSent((await db._sync_outbox.get(other))!)).toBeUndefined();
    expect(await db._sync_outbox.count()).toBe(2);
  });
});
