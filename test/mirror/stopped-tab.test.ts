import { afterEach, describe, expect, it } from 'vitest';
import { clientThrough, isGet, startMirrorFixture, waitFor, type MirrorFixture } from '../mirror/fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const options = { categories: false, pollIntervalMs: 3_600_000, leaderLeaseMs: 300 };
const stoppedTabOptions = { ...options, collections: ['customers' as const] };

/**
 * A client whose first GET of shops once armed waits until `stop()` is called: the run that sends
 * it is surely under way when the tab stops. `stopping()` lets it go.
 */
function heldUntilStop(fixture: MirrorFixture) {
  let armed = false;
  let stopping!: () => void;
  const stopCalled = new Promise<void>((resolve) => (stopping = resolve));
  let sent!: () => void;
  const underWay = new Promise<void>((resolve) => (sent = resolve));
  const client = clientThrough(fixture.sim, async (request) => {
    if (!armed || !isGet(request, 'shops')) return;
    armed = false;
    sent();
    await stopCalled;
  });
  return { client, underWay, stopping, arm: () => (armed = true) };
}

describe('a syncNow() queued behind a run when stop() is called', () => {
  it('is cut short by stop() (AbortError, as the TSDoc says), and posts nothing after stop()', async () => {
    fixture = await startMirrorFixture();
    const held = heldUntilStop(fixture);
    const a = fixture.mirror({ ...options, client: held.client });
    await a.start();
    await waitFor(a.status, (s) => s.leader && s.lastSyncAt !== undefined);
    fixture.sim.setFaults({ latencyMs: 300 });
    held.arm();
    // A run under way (shops: its request waits for the stop), and a syncNow of customers queued behind it.
    const first = a.syncNow({ collections: ['shops'] }).catch((e: Error) => e.name);
    const id = await a.save('customers', { company: 'Kovárna Hrubý', email: 'hruby@example.com' });
    const queued = a.syncNow({ collections: ['customers'] }).then(
      () => 'resolved',
      (e: Error) => e.name,
    );
    await held.underWay;
    const stopped = a.stop();
    held.stopping();
    expect(await first).toBe('AbortError');
    await stopped;
    // Documented: "A run cut short by stop(), close() or the loss of leadership rejects with an AbortError".
    expect(await queued).toBe('AbortError');
    expect(fixture.sim.requests.timesPosted('customers', id)).toBe(0);
  });

  it('does not POST from the stopped tab while the tab that takes over pushes the same entry', async () => {
    fixture = await startMirrorFixture();
    const held = heldUntilStop(fixture);
    const a = fixture.mirror({ ...options, collections: ['customers', 'shops'], client: held.client });
    // B pulls customers only, so its push comes while A's POST is still on its way.
    const b = fixture.mirror({ ...options, collections: ['customers'] });
    await a.start();
    await waitFor(a.status, (s) => s.leader && s.lastSyncAt !== undefined);
    await b.start();
    // B's first campaign has an outcome once its syncNow() answers: it follows.
    expect((await b.syncNow()).ran).toBe(false);
    expect(b.status.value.leader).toBe(false);
    fixture.sim.setFaults({ latencyMs: 300 });
    held.arm();
    const first = a.syncNow({ collections: ['shops'] }).catch((e: Error) => e.name);
    const id = await a.save('customers', { company: 'Pekárna Malina', email: 'malina@example.com' });
    const queued = a.syncNow({ collections: ['customers'] }).catch((e: Error) => e.name);
    await held.underWay;
    // Tab A is closed by the user (stop, as a page's pagehide handler would): B takes over.
    const stopped = a.stop();
    held.stopping();
    await Promise.all([stopped, first, queued]);
    await waitFor(b.status, (s) => s.leader && s.pendingPushes === 0, 10_000);
    // A's work has all ended with its stop(); the server has handled every request either tab sent.
    await fixture.sim.idle();
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
    // B's first campaign has an outcome once its syncNow() answers: it follows.
    expect((await b.syncNow()).ran).toBe(false);
    await b.stop();
    expect(a.status.value.leader).toBe(true);
    fixture.sim.setFaults({ latencyMs: 300 });
    // An edit in B, then its "Sync now" button: A is told (outbox-touched) and pushes it as well.
    const id = await b.save('customers', { company: 'Zámečnictví Veselý', email: 'vesely@example.com' });
    const report = await b.syncNow().catch((e: Error) => ({ ran: e.name }));
    await waitFor(a.status, (s) => s.pendingPushes === 0, 5_000);
    // B's syncNow() has ended (so has any POST it sent); A has nothing left to push; the server has handled every request.
    await fixture.sim.idle();
    // The stopped tab may pull, but it leaves the push to the leader.
    expect({ ran: report.ran, posts: fixture.sim.requests.timesPosted('customers', id) }).toEqual({ ran: report.ran, posts: 1 });
  });
});
