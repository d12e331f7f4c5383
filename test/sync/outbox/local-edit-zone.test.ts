import type { DBCore, DBCoreMutateRequest, DBCoreTable, DBCoreTransaction, Middleware } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import { removeLocal, saveLocal } from '../../../src/sync/outbox/local-edit.js';

const NOW = 1_760_000_000_000;
const opened: MirrorDb[] = [];
afterEach(() => opened.splice(0).forEach((db) => db.close()));

/** One write that reached the database's core, and the IndexedDB transaction it went in. */
interface Write {
  table: string;
  trans: DBCoreTransaction;
}

/**
 * A middleware whose writes to a collection's table resolve a task later, through a native
 * `async` function, as a write whose answer comes in a later task does: Dexie's ambient
 * transaction (its zone) does not follow such an `await`, and the IndexedDB transaction commits
 * meanwhile when nothing else was asked of it. `afterWrite` runs in that later task.
 */
function lateWrites(writes: Write[], afterWrite: () => void = () => undefined): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'test:late-writes',
    create(down) {
      return {
        ...down,
        table(name: string): DBCoreTable {
          const table = down.table(name);
          return {
            ...table,
            async mutate(request: DBCoreMutateRequest) {
              writes.push({ table: name, trans: request.trans });
              const response = await table.mutate(request);
              if (!name.startsWith('_sync_')) {
                await new Promise((resolve) => setTimeout(resolve, 0));
                afterWrite();
              }
              return response;
            },
          };
        },
      };
    },
  };
}

async function openDb(factory: IDBFactory, middleware?: Middleware<DBCore>): Promise<MirrorDb> {
  const db = new MirrorDb('local-edit-zone', { indexedDB: factory, IDBKeyRange });
  if (middleware) db.use(middleware);
  await db.open();
  opened.push(db);
  return db;
}

describe('saveLocal when the ambient transaction is lost', () => {
  it('writes the record and its outbox entry in one transaction', async () => {
    const writes: Write[] = [];
    const db = await openDb(new IDBFactory(), lateWrites(writes));
    // The transaction commits before each edit ends: Dexie may say so (a save that fails), but
    // what the edit wrote, it wrote whole.
    await saveLocal(db, 'warehouses', { name: 'Back room' }, { now: NOW }).catch(() => undefined);
    const id = (await db.warehouses.toCollection().first())!.id;
    await saveLocal(db, 'warehouses', { id, name: 'Front room' }, { now: NOW + 1 }).catch(() => undefined);
    await removeLocal(db, 'warehouses', id, { now: NOW + 2 }).catch(() => undefined);
    const byEdit = [0, 1, 2].map((i) => writes.filter((w) => w.table === 'warehouses')[i]!.trans);
    for (const trans of byEdit) {
      const outboxWrite = writes.find((w) => w.table === '_sync_outbox' && w.trans === trans);
      expect(outboxWrite, 'the outbox entry went in the record\'s transaction').toBeDefined();
    }
    expect(await db._sync_outbox.toArray()).toMatchObject([{ id, op: 'delete', localVersion: 3 }]);
    expect(await db.warehouses.get(id)).toMatchObject({ name: 'Front room', _d: NOW + 2 });
  });

  // Regression (issue 39): a tab reloaded between a create's record and its outbox entry left a
  // record with _v 0 that no push would ever send and no status would show.
  it('never leaves a record without its outbox entry when the tab goes between the two writes', async () => {
    const factory = new IDBFactory();
    let db: MirrorDb | undefined;
    db = await openDb(factory, lateWrites([], () => db?.close()));
    await saveLocal(db, 'warehouses', { name: 'Back room' }, { now: NOW }).catch(() => undefined);
    const again = await openDb(factory);
    const records = await again.warehouses.toArray();
    const entries = await again._sync_outbox.toArray();
    expect(records).toHaveLength(1);
    expect(entries.map((e) => e.id)).toEqual(records.map((r) => r.id));
  });
});
