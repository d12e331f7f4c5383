import { forceCloseDatabase } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { StorageError } from '../../src/errors/index.js';
import { expectConverged } from './convergence.js';
import { startMirrorFixture, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('a lost IndexedDB connection', () => {
  it('is reopened and the sync carries on (the Safari failure)', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    await mirror.syncNow({ collections: ['customers'] });
    forceCloseDatabase(mirror.db.backendDB() as never);
    fixture.sim.store.sell();
    await mirror.syncNow({ collections: ['orders', 'customers'] });
    await expectConverged(mirror.db, fixture.sim, ['orders', 'customers']);
    expect(mirror.status.value.phase).not.toBe('error');
  });
});

describe('WebKit\'s lost IndexedDB server', () => {
  /** Dexie middleware that fails every write with WebKit's error while `lost` is set. */
  function losable(db: import('dexie').Dexie): { lost: boolean } {
    const state = { lost: false };
    db.use({
      stack: 'dbcore',
      name: 'losable',
      create: (down) => ({
        ...down,
        table: (name) => {
          const table = down.table(name);
          return {
            ...table,
            mutate: (request) =>
              state.lost ? Promise.reject(new DOMException('Connection to Indexed Database server lost. Refresh the page to try again', 'UnknownError')) : table.mutate(request),
          };
        },
      }),
    });
    return state;
  }

  it('rejects a save it met with a StorageError, shows the loss in the status, and syncs again once it is back', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    await mirror.syncNow({ collections: ['customers'] });
    const state = losable(mirror.db);
    // Middleware joins on the next open.
    mirror.db.close({ disableAutoOpen: false });
    state.lost = true;
    const seen: string[] = [];
    mirror.status.subscribe((s) => {
      if (seen.at(-1) !== s.storage) seen.push(s.storage);
    });
    const failed = await mirror.save('customers', { company: null, lastname: 'Lost' }).catch((error: unknown) => error);
    expect(failed).toMatchObject({ name: 'StorageError', problem: 'connection-lost', path: mirror.db.name });
    // It names the id the create was given, under which nothing was stored.
    const lostId = (failed as StorageError).id;
    expect(lostId).toMatch(/^[1-9][0-9]*$/);
    expect((failed as Error).message).toContain(`customers ${lostId}`);
    fixture.sim.store.sell();
    // syncNow() rejects with the same StorageError, whatever the engine and Dexie wrapped the loss in.
    const runFailed = await mirror.syncNow({ collections: ['orders'] }).catch((error: unknown) => error);
    expect(runFailed).toMatchObject({ name: 'StorageError', problem: 'connection-lost', path: mirror.db.name });
    expect((runFailed as Error).message).toContain('Connection to Indexed Database server lost');
    expect(mirror.status.value.lastError).toMatchObject({ name: 'StorageError' });
    expect(mirror.status.value.lastError?.message).toContain('the connection to the database was lost');
    state.lost = false;
    const id = await mirror.save('customers', { company: null, lastname: 'Kept' });
    expect(await mirror.db.customers.get(lostId!)).toBeUndefined();
    await mirror.syncNow({ collections: ['orders', 'customers'] });
    expect(await mirror.pending()).toEqual([]);
    expect(fixture.sim.store.get('customers', id)).toMatchObject({ lastname: 'Kept' });
    await expectConverged(mirror.db, fixture.sim, ['orders', 'customers']);
    // The save and the sync run each met the loss: a reopen each.
    expect(seen).toEqual(['open', 'reopening', 'open', 'reopening', 'open']);
    expect(mirror.status.value.storage).toBe('open');
  });
});

describe('a create whose transaction committed as the connection was lost', () => {
  /**
   * The engine commits the next read-write transaction of `db` and then reports the connection
   * lost, as WebKit can when its storage process dies between the commit and the page hearing of
   * it; and the database, closed under the page, is opened again on its next use.
   */
  function commitThenLose(db: import('dexie').Dexie): void {
    const transaction = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
    let armed = true;
    (db as unknown as { transaction: (...args: unknown[]) => Promise<unknown> }).transaction = async (...args: unknown[]) => {
      const result = await transaction(...args);
      if (args[0] !== 'rw' || !armed) return result;
      armed = false;
      db.close({ disableAutoOpen: false });
      throw new DOMException('An internal error was encountered in the Indexed Database server', 'UnknownError');
    };
  }

  it('resolves the save with the record it stored (found once the database is open again), so the app makes no second one', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    await mirror.syncNow({ collections: ['customers'] });
    const before = await mirror.db.customers.count();
    commitThenLose(mirror.db);
    const id = await mirror.save('customers', { company: null, lastname: 'Committed' });
    expect(await mirror.db.customers.get(id)).toMatchObject({ lastname: 'Committed', _v: 0 });
    expect(await mirror.db.customers.count()).toBe(before + 1);
    expect((await mirror.pending()).map((p) => p.id)).toEqual([id]);
    await mirror.syncNow({ collections: ['customers'] });
    expect(fixture.sim.store.list('customers').filter((c) => c.lastname === 'Committed').map((c) => String(c.id))).toEqual([id]);
    await expectConverged(mirror.db, fixture.sim, ['customers']);
  });

  it('an update that met the loss rejects naming its record: making it again is harmless', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    await mirror.syncNow({ collections: ['customers'] });
    const [customer] = await mirror.db.customers.limit(1).toArray();
    commitThenLose(mirror.db);
    const failed = await mirror.save('customers', { id: customer!.id, lastname: 'Renamed' }).catch((error: unknown) => error);
    expect(failed).toMatchObject({ name: 'StorageError', problem: 'connection-lost', id: customer!.id });
    // Stored after all (the commit came first): the same edit again changes nothing more.
    await mirror.save('customers', { id: customer!.id, lastname: 'Renamed' });
    expect((await mirror.pending()).filter((p) => p.id === customer!.id)).toHaveLength(1);
    await mirror.syncNow({ collections: ['customers'] });
    expect(fixture.sim.store.get('customers', customer!.id)).toMatchObject({ lastname: 'Renamed' });
  });
});
