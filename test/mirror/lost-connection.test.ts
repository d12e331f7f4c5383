import { forceCloseDatabase } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
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
    fixture.sim.store.sell();
    await mirror.syncNow({ collections: ['orders'] }).catch(() => undefined);
    expect(mirror.status.value.lastError).toMatchObject({ name: 'StorageError' });
    expect(mirror.status.value.lastError?.message).toContain('the connection to the database was lost');
    state.lost = false;
    const id = await mirror.save('customers', { company: null, lastname: 'Kept' });
    await mirror.syncNow({ collections: ['orders', 'customers'] });
    expect(await mirror.pending()).toEqual([]);
    expect(fixture.sim.store.get('customers', id)).toMatchObject({ lastname: 'Kept' });
    await expectConverged(mirror.db, fixture.sim, ['orders', 'customers']);
    // The save and the sync run each met the loss: a reopen each.
    expect(seen).toEqual(['open', 'reopening', 'open', 'reopening', 'open']);
    expect(mirror.status.value.storage).toBe('open');
  });
});
