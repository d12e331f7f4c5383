import { afterEach, describe, expect, it } from 'vitest';
import { startMirrorFixture, waitFor, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('a create moved to a fresh id because another device drew its id', () => {
  it('is said in the sync report and in the status of every tab, with the old and the new id', async () => {
    fixture = await startMirrorFixture();
    const leader = fixture.mirror({ pollIntervalMs: 3_600_000 });
    // A second tab on the same database that does not sync (not started): it shows what the leader did.
    const other = fixture.mirror({ pollIntervalMs: 3_600_000 });
    await leader.start();
    await waitFor(leader.status, (s) => s.leader && s.lastSyncAt !== undefined);
    expect(leader.status.value.movedCreates).toEqual([]);

    // Stopped, so that the edit's push does not go out before the other device's record lands.
    await leader.stop();
    const id = await other.save('customers', { company: null, firstname: 'Ours' });
    fixture.sim.store.write('customers', { id, company: 'Theirs Ltd', firstname: 'Theirs' });
    const report = await leader.syncNow();

    expect(report.push?.moved).toEqual([{ collection: 'customers', from: id, to: expect.any(String), at: expect.any(Number) }]);
    const to = report.push!.moved[0]!.to;
    expect(fixture.sim.store.get('customers', id)).toMatchObject({ firstname: 'Theirs' });
    expect(fixture.sim.store.get('customers', to)).toMatchObject({ firstname: 'Ours' });
    for (const mirror of [leader, other]) {
      const status = await waitFor(mirror.status, (s) => s.movedCreates.length === 1);
      expect(status.movedCreates).toEqual([{ collection: 'customers', from: id, to, at: expect.any(Number) }]);
    }
  });
});
