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
