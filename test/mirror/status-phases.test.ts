import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SyncEnvironment } from '../../src/sync/coordination/environment.js';
import type { Mirror } from '../../src/mirror/create-mirror.js';
import type { SyncPhase } from '../../src/sync/controller/sync-state.js';
import { startMirrorFixture, waitFor, type MirrorFixture } from './fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  vi.unstubAllGlobals();
  await fixture?.close();
  fixture = undefined;
});

/** The runtime's `online`/`offline` events (Node has none, so the test plays them). */
function connectivity() {
  let online = true;
  const listeners = new Set<(online: boolean) => void>();
  const env: Partial<SyncEnvironment> = {
    isOnline: () => online,
    onConnectivity(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
  return {
    env,
    set(value: boolean) {
      online = value;
      for (const fn of [...listeners]) fn(value);
    },
  };
}

/** The phases `mirror` shows from now on, each change once (a status that changes only its counts is not a new phase). */
function phasesOf(mirror: Mirror) {
  const phases: SyncPhase[] = [];
  const sub = mirror.status.subscribe((s) => {
    if (phases[phases.length - 1] !== s.phase) phases.push(s.phase);
  });
  return {
    phases,
    /** The phases seen until now, and no more. */
    end(): SyncPhase[] {
      sub.unsubscribe();
      return phases;
    },
  };
}

describe('the status phase after the network goes away and comes back', () => {
  it('of a follower tab is following again, not offline', async () => {
    fixture = await startMirrorFixture();
    const net = connectivity();
    // A lease that a loaded machine's stalls cannot let lapse: the leader stays the leader.
    const leader = fixture.mirror({ environment: net.env, leaderLeaseMs: 5_000 });
    const follower = fixture.mirror({ environment: net.env, leaderLeaseMs: 5_000 });
    await leader.start();
    await waitFor(leader.status, (s) => s.leader && s.lastSyncAt !== undefined);
    await follower.start();
    // The follower's first campaign has an outcome once its syncNow() answers (`following` shows from then).
    expect((await follower.syncNow()).ran).toBe(false);
    expect(follower.status.value).toMatchObject({ leader: false, phase: 'following' });
    const seen = phasesOf(follower);
    const synced = leader.status.value.lastSyncAt!;
    net.set(false);
    expect(follower.status.value).toMatchObject({ online: false, phase: 'offline' });
    net.set(true);
    expect(follower.status.value).toMatchObject({ online: true, phase: 'following' });
    // The leader's run on coming back has ended; the follower still follows.
    await waitFor(leader.status, (s) => s.phase === 'idle' && s.lastSyncAt! > synced);
    expect(follower.status.value).toMatchObject({ online: true, phase: 'following' });
    // A run the follower would have begun on the event has ended once its stop() resolves; it never showed one.
    await follower.stop();
    expect(seen.end().filter((p) => p !== 'stopped')).toEqual(['following', 'offline', 'following']);
  });

  it('of a leader waiting for a new token is still auth-error', async () => {
    fixture = await startMirrorFixture();
    const net = connectivity();
    const mirror = fixture.mirror({ environment: net.env, token: 'revoked-token' });
    await mirror.start();
    await waitFor(mirror.status, (s) => s.phase === 'auth-error');
    await fixture.sim.idle();
    const asked = fixture.sim.requests.count();
    const seen = phasesOf(mirror);
    net.set(false);
    expect(mirror.status.value).toMatchObject({ online: false, phase: 'auth-error' });
    net.set(true);
    // Nothing resumes sync but setToken(): the status must still say why it waits.
    expect(mirror.status.value).toMatchObject({ online: true, phase: 'auth-error' });
    // A run the event would have begun has ended once stop() resolves (it waits for the schedule's run and the queue):
    // till then the phase said auth-error throughout, and no request went out.
    await mirror.stop();
    await fixture.sim.idle();
    expect(seen.end().filter((p) => p !== 'stopped')).toEqual(['auth-error']);
    expect(fixture.sim.requests.count()).toBe(asked);
  });

  it('of a stopped mirror is still stopped', async () => {
    fixture = await startMirrorFixture();
    const net = connectivity();
    const mirror = fixture.mirror({ environment: net.env });
    await mirror.start();
    await waitFor(mirror.status, (s) => s.leader && s.lastSyncAt !== undefined);
    await mirror.stop();
    net.set(false);
    net.set(true);
    expect(mirror.status.value).toMatchObject({ online: true, phase: 'stopped' });
  });

  it('of a leader started with no network is offline, not idle, and syncs once the network is back', async () => {
    fixture = await startMirrorFixture();
    const net = connectivity();
    net.set(false);
    const mirror = fixture.mirror({ environment: net.env });
    const seen = phasesOf(mirror);
    await mirror.start();
    await waitFor(mirror.status, (s) => s.leader);
    // The first run the schedule would begin as it starts (on leading) is queued once the promise jobs of that turn have
    // run; a sweep of no collection, queued after it, resolves once it has ended. Only then does "nothing ran" hold for good.
    await new Promise((resolve) => setImmediate(resolve));
    await mirror.reconcile({ collections: [] });
    // Nothing has synced and nothing runs until the network is back.
    expect(mirror.status.value).toMatchObject({ online: false, phase: 'offline', lastSyncAt: undefined });
    expect(seen.phases).not.toContain('initial-sync');
    net.set(true);
    await waitFor(mirror.status, (s) => s.phase === 'idle' && s.lastSyncAt !== undefined);
    expect(seen.end()).toContain('initial-sync');
  });

  it('of a leader whose runtime came back online without an event is idle once a run succeeds', async () => {
    // Firefox changes navigator.onLine for a tab loaded while offline without firing `online`.
    fixture = await startMirrorFixture();
    let online = false;
    const mirror = fixture.mirror({ environment: { isOnline: () => online, onConnectivity: () => () => undefined } });
    expect(mirror.status.value).toMatchObject({ online: false, phase: 'offline' });
    online = true;
    await mirror.syncNow();
    expect(mirror.status.value).toMatchObject({ online: true, phase: 'idle' });
  });
});

describe('a status subscriber that throws', () => {
  it('does not stop the schedule; its error is reported apart', async () => {
    const reported: unknown[] = [];
    // Where the runtime has reportError (browsers), subscriber errors go there; Node has none, so the test lends one.
    vi.stubGlobal('reportError', (error: unknown) => reported.push(error));
    fixture = await startMirrorFixture();
    // One collection (and its order lines): a run that fails, retries and all, stays short on a loaded machine.
    const mirror = fixture.mirror({ pollIntervalMs: 200, collections: ['orders'], categories: false });
    // A UI whose error banner has a bug: it throws whenever it renders an error.
    mirror.status.subscribe((s) => {
      if (s.phase === 'error') throw new TypeError('banner is not defined');
    });
    await mirror.start();
    await waitFor(mirror.status, (s) => s.leader && s.lastSyncAt !== undefined);
    // Failed runs (the service answers 500 for a moment).
    fixture.sim.setFaults({ errorRate: 1 });
    await waitFor(mirror.status, (s) => s.phase === 'error', 15_000);
    fixture.sim.setFaults({});
    const sale = fixture.sim.store.sell();
    // The service is fine again: the next runs (after a backoff of a second or two) bring the sale.
    await waitFor(mirror.live(() => mirror.db.orders.get(String(sale.order.id))), (o) => o !== undefined, 15_000);
    expect(reported.length).toBeGreaterThan(0);
    expect(reported[0]).toBeInstanceOf(TypeError);
  });
});
