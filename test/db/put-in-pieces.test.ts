import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createTimeSlicer, type TimeSlicer } from '../../src/schema/time-slicer.js';
import { putInPieces } from '../../src/db/put-in-pieces.js';

const open: Dexie[] = [];

afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function database() {
  const db = new Dexie(`pieces-${open.length}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  db.version(1).stores({ records: 'id', cursors: 'name' });
  open.push(db);
  return db;
}

const records = (count: number) => Array.from({ length: count }, (_, i) => ({ id: String(i + 1).padStart(6, '0'), note: 'x' }));

/** A slicer that is always (or never) due, counting the waits it is told of (`restart`). */
function alwaysDue(due = true): TimeSlicer & { waits: number } {
  const inner = createTimeSlicer({ budgetMs: 0 });
  const counted = { waits: 0, due: () => due, yield: inner.yield, restart: () => void counted.waits++, yields: 0 };
  return counted;
}

/** The pieces `putInPieces` sends to `table`, by size. */
function countPieces(table: Dexie.Table): number[] {
  const sizes: number[] = [];
  const bulkPut = table.bulkPut.bind(table);
  table.bulkPut = ((items: unknown[]) => (sizes.push(items.length), bulkPut(items))) as typeof table.bulkPut;
  return sizes;
}

describe('records put in pieces', () => {
  it('send the pieces one after the other, without waiting, while the slice lasts', async () => {
    const db = database();
    const sizes = countPieces(db.table('records'));
    const slicer = alwaysDue(false);
    await db.transaction('rw', db.table('records'), () => putInPieces(db.table('records'), records(1000), slicer));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(slicer.waits).toBe(0);
    expect(await db.table('records').count()).toBe(1000);
  });

  it('wait for a piece to be written before sending more once the slice is over, all in the caller\'s transaction', async () => {
    const db = database();
    const sizes = countPieces(db.table('records'));
    const slicer = alwaysDue();
    await db.transaction('rw', [db.table('records'), db.table('cursors')], () =>
      Promise.all([putInPieces(db.table('records'), records(2000), slicer), db.table('cursors').put({ name: 'page', at: 2000 })]),
    );
    expect(sizes.length).toBeGreaterThan(1);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(2000);
    expect(slicer.waits).toBe(sizes.length - 1);
    expect(await db.table('records').toCollection().primaryKeys()).toEqual(records(2000).map((r) => r.id));
    expect(await db.table('cursors').count()).toBe(1);
  });

  it('keep nothing when a later piece fails, and throw that piece\'s error', async () => {
    const db = database();
    const sizes = countPieces(db.table('records'));
    const bad: { id?: string; note: string }[] = records(2000);
    bad[1999] = { note: 'no key' };
    const written = db.transaction('rw', [db.table('records'), db.table('cursors')], () =>
      Promise.all([putInPieces(db.table('records'), bad, alwaysDue()), db.table('cursors').put({ name: 'page', at: 2000 })]),
    );
    await expect(written).rejects.toMatchObject({ name: expect.stringMatching(/BulkError|DataError/) });
    expect(sizes.length).toBeGreaterThan(1);
    expect(await db.table('records').count()).toBe(0);
    expect(await db.table('cursors').count()).toBe(0);
  });
});
