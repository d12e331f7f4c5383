import { afterEach, describe, expect, it } from 'vitest';
import { startMirrorFixture, waitFor, type MirrorFixture } from '../mirror/fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const options = { categories: false, pollIntervalMs: 3_600_000, leaderLeaseMs: 300 };
const stoppedTabOptions = { ...options, collections: ['customers' as const] };

describe('a syncNow() queued behind a run when stop() is called', () => {
  it('is cut short by stop() (AbortError, as the TSDoc says), and posts nothing after stop()', async () => {
    fixture = await startMirrorFixture();
    const a = fixture.mirror(options);
    await a.start();
    await waitFor(a.status, (s) => s.leader && s.lastSyncAt !== undefined);
    fixture.sim.setFaults({ latencyMs: 300 });
    // A run under way (shops), and a syncNow of customers queued behind it.
    const first = a.syncNow({ collections: ['shops'] }).catch((e: Error) => e.name);
    const id = await a.save('customers', { company: 'Kovárna Hrubý', email: 'hruby@example.com' });
    const queued = a.syncNow({ collections: ['customers'] }).then(
      () => 'resolved',
      (e: Error) => e.name,
    );
    await new Promise((r) => setTimeout(r, 100));
    const stopped = a.stop();
    expect(await first).toBe('AbortError');
    await stopped;
    // Documented: "A run cut short by stop(), close() or the loss of leadership rejects with an AbortError".
    expect(await queued).toBe('AbortError');
    expect(fixture.sim.requests.timesPosted('customers', id)).toBe(0);
  });

  it('does not POST from the stopped tab while the tab that takes over pushes the same entry', async () => {
    fixture = await startMirrorFixture();
    const a = fixture.mirror({ ...options, collections: ['customers', 'shops'] });
    // B pulls customers only, so its push comes while A's POST is still on its way.
    const b = fixture.mirror({ ...options, collections: ['customers'] });
    await a.start();
    await waitFor(a.status, (s) => s.leader && s.lastSyncAt !== undefined);
    await b.start();
    await new Promise((r) => setTimeout(r, 400));
    expect(b.status.value.leader).toBe(false);
    fixture.sim.setFaults({ latencyMs: 300 });
    const first = a.syncNow({ collections: ['shops'] }).catch((e: Error) => e.name);
    const id = await a.save('customers', { company: 'Pekárna Malina', email: 'malina@example.com' });
    const queued = a.syncNow({ collections: ['customers'] }).catch((e: Error) => e.name);
    await new Promise((r) => setTimeout(r, 100));
    // Tab A is closed by the user (stop, as a page's pagehide handler would): B takes over.
    await Promise.all([a.stop(), first, queued]);
    await waitFor(b.status, (s) => s.leader && s.pendingPushes === 0, 10_000);
    await new Promise((r) => setTimeout(r, 1_000));
    // The queued syncNow of the stopped tab must not run after stop(): one POST, by B.
    expect(fixture.sim.requests.timesPosted('customers', id)).toBe(1);
  });
});

describe('syncNow() in a stopped tab while another tab leads (no Web Locks)', () => {
  it('does not POST an entry the leader is pushing too', async () => {
    fixture = await startMirrorFixture();
    const a = fixture.mirror(stoppedTabOptions);
    const b = fixture.mirror(stoppedTabOptions);
    await a.start();
    await waitFor(a.status, (s) => s.leader && s.lastSyncAt !== undefined);
    // B was started and stopped (a view that unmounted): it follows nobody, and A still leads.
    await b.start();
    await new Promise((r) => setTimeout(r, 300));
    await b.stop();
    expect(a.status.value.leader).toBe(true);
    fixture.sim.setFaults({ latencyMs: 300 });
    // An edit in B, then its "Sync now" button: A is told (outbox-touched) and pushes it as well.
    const id = await b.save('customers', { company: 'Zámečnictví Veselý', email: 'vesely@example.com' });
    const report = await b.syncNow().catch((e: Error) => ({ ran: e.name }));
    await waitFor(a.status, (s) => s.pendingPushes === 0, 5_000);
    await new Promise((r) => setTimeout(r, 1_000));
    // The stopped tab may pull, but it leaves the push to the leader.
    expect({ ran: report.ran, posts: fixture.sim.requests.timesPosted('customers', id) }).toEqual({ ran: report.ran, posts: 1 });
  });
});
