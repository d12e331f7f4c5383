import { Dexie } from 'dexie';
import { forceCloseDatabase, IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isReopening, reopenDatabase, reopenWhenClosed } from '../../src/db/reopen.js';

const open: Dexie[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function database(factory = new IDBFactory()): Dexie {
  const db = new Dexie('reopen', { indexedDB: factory, IDBKeyRange });
  db.version(1).stores({ items: 'id' });
  open.push(db);
  return db;
}

describe('reopenDatabase', () => {
  it('opens a connection closed under it again, with its data', async () => {
    const db = database();
    await db.table('items').put({ id: 'a' });
    const closed = db.backendDB();
    forceCloseDatabase(closed as never);
    const reopened = Promise.all([reopenDatabase(db), reopenDatabase(db)]);
    expect(isReopening(db)).toBe(true);
    await reopened;
    expect(isReopening(db)).toBe(false);
    expect(db.isOpen()).toBe(true);
    expect(db.backendDB()).not.toBe(closed);
    await db.table('items').put({ id: 'b' });
    expect(await db.table('items').count()).toBe(2);
  });

  it('rejects with the open\'s error when an injected IndexedDB refuses to open (no frame is tried)', async () => {
    const factory = new IDBFactory();
    const db = database(factory);
    await db.open();
    const lost = new DOMException('Connection to Indexed Database server lost. Refresh the page to try again', 'UnknownError');
    factory.open = () => {
      throw lost;
    };
    // Dexie tries an UnknownError's open three times, saying so each time.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(reopenDatabase(db)).rejects.toMatchObject({ inner: lost });
    expect(warn).toHaveBeenCalledWith('Dexie: Workaround for Chrome UnknownError on open()');
    warn.mockRestore();
  });
});

describe('reopenWhenClosed', () => {
  it('opens a connection the engine closed at once, before its next use, until stopped', async () => {
    const db = database();
    const stop = reopenWhenClosed(db);
    await db.open();
    const first = db.backendDB();
    forceCloseDatabase(first as never);
    await vi.waitFor(() => expect(db.isOpen() && db.backendDB() !== first).toBe(true));
    stop();
    forceCloseDatabase(db.backendDB() as never);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(db.isOpen()).toBe(false);
  });

  it('leaves a database its owner closed closed', async () => {
    const db = database();
    const stop = reopenWhenClosed(db);
    await db.open();
    stop();
    db.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(db.isOpen()).toBe(false);
  });
});
