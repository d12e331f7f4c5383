import { afterEach, describe, expect, it } from 'vitest';
import type { MirrorDb } from '../../src/db/mirror-db.js';
import { startMirrorFixture, waitFor, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** Removes a record's outbox entry, as issue 39 left a create: its record written, its entry not. */
async function dropEntry(db: MirrorDb, collection: string, id: string): Promise<void> {
  await db._sync_outbox.where('[collection+id]').equals([collection, id]).delete();
}

describe('a local create left without its outbox entry (issue 39)', () => {
  it('is found by the sync, shown in the status of every tab, queued again and pushed', async () => {
    fixture = await startMirrorFixture();
    const leader = fixture.mirror({ pollIntervalMs: 3_600_000 });
    const other = fixture.mirror({ pollIntervalMs: 3_600_000 });
    await leader.syncNow();
    const id = await other.save('warehouses', { name: 'Left behind' });
    await dropEntry(other.db, 'warehouses', id);

    const first = await leader.syncNow();
    expect(first.orphanedCreates).toEqual([]);
    expect(fixture.sim.store.get('warehouses', id)).toBeUndefined();
    const second = await leader.syncNow();
    expect(second.orphanedCreates).toEqual([{ collection: 'warehouses', id, at: expect.any(Number) }]);
    for (const mirror of [leader, other]) {
      const status = await waitFor(mirror.status, (s) => s.orphanedCreates.total === 1);
      expect(status.orphanedCreates.latest).toEqual(second.orphanedCreates);
    }
    await leader.syncNow();
    expect(fixture.sim.store.get('warehouses', id)).toMatchObject({ name: 'Left behind' });
    expect(await leader.pending()).toEqual([]);
  });

  it('is queued again by a reconcile sweep, not removed as vanished from the server', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror({ pollIntervalMs: 3_600_000 });
    await mirror.syncNow();
    const id = await mirror.save('warehouses', { name: 'Left behind' });
    await dropEntry(mirror.db, 'warehouses', id);

    const [report] = await mirror.reconcile({ collections: ['warehouses'] });
    expect(report).toMatchObject({ collection: 'warehouses', vanished: 0, neverSent: [id] });
    expect(await mirror.db.warehouses.get(id)).toMatchObject({ name: 'Left behind', _v: 0 });
    expect(await mirror.pending()).toMatchObject([{ collection: 'warehouses', id, op: 'create' }]);
    await waitFor(mirror.status, (s) => s.orphanedCreates.total === 1);
    await mirror.syncNow();
    expect(fixture.sim.store.get('warehouses', id)).toMatchObject({ name: 'Left behind' });
  });
});
