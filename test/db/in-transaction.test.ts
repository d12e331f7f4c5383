import { Dexie, type DBCore, type Middleware } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/in-transaction.js';
import { putInPieces } from '../../src/db/put-in-pieces.js';
import { writesTogether } from '../../src/db/writes-together.js';
import { createTimeSlicer } from '../../src/schema/time-slicer.js';

const open: Dexie[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

/**
 * A storage layer that hands each write's completion back through a native promise (an `async`
 * function), as the file storage's journal once did: code of a transaction that awaits such a
 * completion through an async helper runs on outside Dexie's zone.
 */
const nativeCompletions: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'native-completions',
  level: -1,
  create: (down) => ({
    ...down,
    table: (name) => {
      const table = down.table(name);
      return { ...table, mutate: async (request) => await table.mutate(request) };
    },
  }),
};

class Db extends Dexie {
  declare products: Dexie.Table<{ id: string }, string>;
  declare prices: Dexie.Table<{ id: string }, string>;
  constructor(layer?: Middleware<DBCore>) {
    super(`in-transaction-${open.length}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    this.version(1).stores({ products: 'id', prices: 'id', other: 'id' });
    if (layer) this.use(layer);
    open.push(this);
  }
}

const records = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => ({ id: `${prefix}${String(i).padStart(5, '0')}` }));

/**
 * Writes as a pull writes a page: the products in pieces, then their split prices, through async
 * helpers, beside the write of the traversal's cursor (sent together, awaited together).
 */
async function writePage(db: Db): Promise<void> {
  const write = async (table: Dexie.Table<{ id: string }, string>, prefix: string) => putInPieces(table, records(700, prefix), createTimeSlicer());
  const apply = async () => {
    await write(db.products, 'p');
    await write(db.table('prices'), 'm');
  };
  await writesTogether([apply(), db.table('other').put({ id: 'cursor' })]);
}

const TABLES = ['products', 'prices', 'other'];

describe('inTransaction', () => {
  it('keeps every write of its scope in its transaction when the storage completes requests through native promises', async () => {
    const db = new Db(nativeCompletions);
    await inTransaction(db, 'rw', TABLES.map((t) => db.table(t)), (tx) => writePage(tx));
    expect([await db.products.count(), await db.prices.count(), await db.table('other').count()]).toEqual([700, 700, 1]);
  });

  it('keeps nothing of its scope when the scope fails after writing both tables: the writes were all one transaction', async () => {
    const db = new Db(nativeCompletions);
    const failed = inTransaction(db, 'rw', TABLES.map((t) => db.table(t)), async (tx) => {
      await writePage(tx);
      throw new Error('the last step failed');
    });
    await expect(failed).rejects.toThrow('the last step failed');
    expect([await db.products.count(), await db.prices.count(), await db.table('other').count()]).toEqual([0, 0, 0]);
  });

  it('binds a table reached by property, by table(), through a method and through a getter of the database', async () => {
    class WithHelpers extends Db {
      byName(name: string) {
        return this.table(name);
      }
      get both() {
        return [this.products, this.prices];
      }
    }
    const db = new WithHelpers();
    await inTransaction(db, 'rw', [db.products, db.prices], (tx) => {
      const tables = [tx.products, tx.table('prices'), tx.byName('products'), ...tx.both];
      expect(tables.every((table) => (table as unknown as { _tx?: unknown })._tx === Dexie.currentTransaction)).toBe(true);
    });
  });

  it('leaves a table outside the transaction as it is on the database: using it inside is refused as Dexie refuses it', async () => {
    const db = new Db();
    const outside = inTransaction(db, 'rw', [db.products], (tx) => tx.table('other').put({ id: '1' }));
    await expect(outside).rejects.toMatchObject({ name: 'NotFoundError' });
  });
});
