import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SyncEnvironment } from '../../src/sync/coordination/environment.js';
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

describe('the status phase after the network goes away and comes back', () => {
  it('of a follower tab is following again, not offline', async () => {
    fixture = await startMirrorFixture();
    const net = connectivity();
    const leader = fixture.mirror({ environment: net.env });
    const follower = fixture.mirror({ environment: net.env });
    await leader.start();
    await waitFor(leader.status, (s) => s.leader && s.lastSyncAt !== undefined);
    await follower.start();
    await new Promise((r) => setTimeout(r, 300));
    expect(follower.status.value).toMatchObject({ leader: false, phase: 'following' });
    net.set(false);
    expect(follower.status.value).toMatchObject({ online: false, phase: 'offline' });
    net.set(true);
    await waitFor(leader.status, (s) => s.phase === 'idle');
    await new Promise((r) => setTimeout(r, 300));
    expect(follower.status.value).toMatchObject({ online: true, phase: 'following' });
  });

  it('of a leader waiting for a new token is still auth-error', async () => {
    fixture = await startMirrorFixture();
    const net = connectivity();
    const mirror = fixture.mirror({ environment: net.env, token: 'revoked-token' });
    await mirror.start();
    await waitFor(mirror.status, (s) => s.phase === 'auth-error');
    net.set(false);
    expect(mirror.status.value).toMatchObject({ online: false, phase: 'auth-error' });
    net.set(true);
    await new Promise((r) => setTimeout(r, 300));
    // Nothing resumes sync but setToken(): the status must still say why it waits.
    expect(mirror.status.value).toMatchObject({ online: true, phase: 'auth-error' });
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
    await mirror.start();
    await waitFor(mirror.status, (s) => s.leader);
    await new Promise((r) => setTimeout(r, 200));
    // Nothing has synced and nothing runs until the network is back.
    expect(mirror.status.value).toMatchObject({ online: false, phase: 'offline', lastSyncAt: undefined });
    net.set(true);
    await waitFor(mirror.status, (s) => s.phase === 'idle' && s.lastSyncAt !== undefined);
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
    const mirror = fixture.mirror({ pollIntervalMs: 200 });
    // A UI whose error banner has a bug: it throws whenever it renders an error.
    mirror.status.subscribe((s) => {
      if (s.phase === 'error') throw new TypeError('banner is not defined');
    });
    await mirror.start();
    await waitFor(mirror.status, (s) => s.leader && s.lastSyncAt !== undefined);
    // Failed runs (the service answers 500 for a moment).
    fixture.sim.setFaults({ errorRate: 1 });
    await waitFor(mirror.status, (s) => s.phase === 'error');
    fixture.sim.setFaults({});
    const sale = fixture.sim.store.sell();
    // The service is fine again: the next runs (after a backoff of a second or two) bring the sale.
    await waitFor(mirror.live(() => mirror.db.orders.get(String(sale.order.id))), (o) => o !== undefined, 10_000);
    expect(reported.length).toBeGreaterThan(0);
    expect(reported[0]).toBeInstanceOf(TypeError);
  });
});
