import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MirrorDb } from '../../src/db/mirror-db.js';
import { createClient } from '../../src/client/index.js';
import { startMirrorFixture, waitFor, type MirrorFixture } from './fixture.js';
import type { Mirror } from '../../src/mirror/create-mirror.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** What another tab's elector writes when it takes the lease (leader.ts). */
const anotherTabTakesTheLease = (db: MirrorDb) =>
  db._sync_meta.put({ key: 'leader', value: { owner: 'another-tab', expiresAt: Date.now() + 60_000 } });

/** A started mirror that leads and has made its first sync, and its simulator. */
async function leadingMirror(options: Parameters<MirrorFixture['mirror']>[0]) {
  fixture = await startMirrorFixture();
  const mirror = fixture.mirror(options);
  await mirror.start();
  await waitFor(mirror.status, (s) => s.leader && s.lastSyncAt !== undefined);
  return { mirror, sim: fixture.sim };
}

/** Timers that can be held back, as a browser throttles the timers of a background tab. */
function throttledTimers() {
  let held: (() => void)[] | undefined;
  return {
    env: {
      setTimeout: (fn: () => void, ms: number) => setTimeout(() => (held ? held.push(fn) : fn()), ms),
      clearTimeout: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>),
    },
    hold() {
      held = [];
    },
    wake() {
      const due = held ?? [];
      held = undefined;
      for (const fn of due) fn();
    },
  };
}

describe('a tab that lost the leader lease (no Web Locks)', () => {
  it('does not POST the push that follows an edit once another tab leads', async () => {
    const { mirror, sim } = await leadingMirror({ pollIntervalMs: 3_600_000, leaderLeaseMs: 300 });
    sim.setFaults({ latencyMs: 400 });
    const id = await mirror.save('customers', { company: 'Truhlářství Novák', email: 'novak@example.com' });
    // The push that follows the edit starts 50 ms later (its pull takes ~400 ms, then the POST).
    await new Promise((r) => setTimeout(r, 80));
    await anotherTabTakesTheLease(mirror.db);
    await waitFor(mirror.status, (s) => !s.leader && s.phase === 'following', 2_000);
    await new Promise((r) => setTimeout(r, 1_500));
    // The other tab pushes for every tab: this one must not POST as well.
    expect(sim.requests.timesPosted('customers', id)).toBe(0);
    expect(mirror.status.value).toMatchObject({ leader: false, phase: 'following', lastError: undefined });
  });

  it('does not POST from a syncNow() under way once another tab leads; the syncNow rejects with an AbortError', async () => {
    const { mirror, sim } = await leadingMirror({ pollIntervalMs: 3_600_000, leaderLeaseMs: 300 });
    sim.setFaults({ latencyMs: 400 });
    const run = mirror.syncNow({ collections: ['customers'] }).then(
      () => 'resolved',
      (e: Error) => e.name,
    );
    // Saved while the push that follows it waits behind the syncNow() (long latency).
    const id = await mirror.save('customers', { company: 'Pila Dvořák', email: 'pila@example.com' });
    await new Promise((r) => setTimeout(r, 50));
    await anotherTabTakesTheLease(mirror.db);
    await waitFor(mirror.status, (s) => !s.leader, 2_000);
    expect(await run).toBe('AbortError');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(sim.requests.timesPosted('customers', id)).toBe(0);
    expect(mirror.status.value).toMatchObject({ leader: false, phase: 'following', lastError: undefined });
  });

  it('shows following, not a sync error, when it loses the lease while its scheduled run is under way', async () => {
    const { mirror, sim } = await leadingMirror({ pollIntervalMs: 100, leaderLeaseMs: 300 });
    // Slow requests: the next scheduled run lasts a while.
    sim.setFaults({ latencyMs: 300 });
    await waitFor(mirror.status, (s) => s.phase === 'syncing');
    await anotherTabTakesTheLease(mirror.db);
    await waitFor(mirror.status, (s) => !s.leader, 5_000);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(mirror.status.value).toMatchObject({ leader: false, phase: 'following', lastError: undefined });
  });
});

describe('a tab that loses the lease between two batches of its push (no Web Locks)', () => {
  it('stops before its next POST: the first batch is acknowledged, the rest stays pending for the new leader', async () => {
    fixture = await startMirrorFixture();
    const f = fixture;
    let mirror: ReturnType<MirrorFixture['mirror']> | undefined;
    let posts = 0;
    // Another tab takes the lease as soon as the server has answered the first customers POST.
    const fetching: typeof fetch = async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const response = await fetch(request);
      if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/customers') && ++posts === 1) await anotherTabTakesTheLease(mirror!.db);
      return response;
    };
    const client = createClient({ baseUrl: f.sim.baseUrl, token: f.sim.token, userAgent: 'pos-cloud-mirror tests (mirror)', timeoutMs: 5_000, fetch: fetching });
    mirror = f.mirror({ client, collections: ['customers'], categories: false, pollIntervalMs: 3_600_000, leaderLeaseMs: 60_000, batch: { maxRecords: 2 } });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await mirror.save('customers', { company: `Firma ${i}`, email: `firma${i}@example.com` }));
    await mirror.start();
    await waitFor(mirror.status, (s) => !s.leader && s.phase === 'following', 5_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(posts).toBe(1);
    expect(ids.map((id) => f.sim.requests.timesPosted('customers', id))).toEqual([1, 1, 0, 0, 0, 0]);
    const left = await mirror.db._sync_outbox.toArray();
    expect(left.map((e) => [e.id, e.state, e.attempts])).toEqual(ids.slice(2).map((id) => [id, 'pending', 0]));
    expect(await mirror.db._sync_inflight.count()).toBe(0);
    expect(mirror.status.value).toMatchObject({ leader: false, phase: 'following', lastError: undefined });
  });
});

describe('two tabs (no Web Locks) when the leader was throttled and another tab took over', () => {
  const options = { collections: ['customers' as const], categories: false, pollIntervalMs: 3_600_000, leaderLeaseMs: 300 };

  it('push a pending edit once, not once from each tab', async () => {
    fixture = await startMirrorFixture();
    const timers = throttledTimers();
    const a = fixture.mirror({ ...options, environment: timers.env });
    const b = fixture.mirror(options);
    await a.start();
    await waitFor(a.status, (s) => s.leader && s.lastSyncAt !== undefined);
    await b.start();
    await new Promise((r) => setTimeout(r, 400));
    expect(b.status.value.leader).toBe(false);
    const id = await a.save('customers', { company: 'Sklenářství Malý', email: 'maly@example.com' });
    fixture.sim.setFaults({ latencyMs: 1_000 });
    const runA = a.syncNow({ collections: ['customers'] }).catch((e: Error) => e.name);
    // A is throttled: it stops renewing its lease, and B takes over.
    timers.hold();
    await waitFor(b.status, (s) => s.leader, 3_000);
    // A wakes up and learns that B leads.
    timers.wake();
    await waitFor(a.status, (s) => !s.leader, 3_000);
    await runA;
    // B, the leader now, syncs at once (pull, then push of the pending edit).
    await waitFor(b.status, (s) => s.pendingPushes === 0 && s.lastSyncAt !== undefined, 10_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(fixture.sim.requests.timesPosted('customers', id)).toBe(1);
  });

  it('push it once even when the throttled tab never wakes: it reads the lease again right before its push', async () => {
    fixture = await startMirrorFixture();
    const timers = throttledTimers();
    const a = fixture.mirror({ ...options, environment: timers.env });
    const b = fixture.mirror(options);
    await a.start();
    await waitFor(a.status, (s) => s.leader && s.lastSyncAt !== undefined);
    await b.start();
    await new Promise((r) => setTimeout(r, 400));
    const id = await a.save('customers', { company: 'Kovárna Veselý', email: 'kovarna@example.com' });
    fixture.sim.setFaults({ latencyMs: 1_000 });
    timers.hold();
    const runA = a.syncNow({ collections: ['customers'] }).then(
      () => 'resolved',
      (e: Error) => e.name,
    );
    await waitFor(b.status, (s) => s.leader, 3_000);
    // A's timers stay held: only the check before its push tells it that B leads.
    expect(await runA).toBe('AbortError');
    expect(a.status.value.leader).toBe(false);
    await waitFor(b.status, (s) => s.pendingPushes === 0 && s.lastSyncAt !== undefined, 10_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(fixture.sim.requests.timesPosted('customers', id)).toBe(1);
    timers.wake();
  });
});

describe('an edit saved in a follower tab', () => {
  /**
   * A follower tab saves a customer, then, while the leader's push of it is under way (its pull,
   * then the POST), an edit that folds into the entry (the count of pending edits stays 1), made
   * by `edit`; the leader must push that edit too, at once.
   */
  async function foldedWhilePushing(edit: (follower: Mirror, id: string) => Promise<unknown>): Promise<void> {
    fixture = await startMirrorFixture();
    const options = { collections: ['customers' as const], categories: false, pollIntervalMs: 3_600_000 };
    const leader = fixture.mirror(options);
    const follower = fixture.mirror(options);
    await leader.start();
    await waitFor(leader.status, (s) => s.leader && s.lastSyncAt !== undefined);
    await follower.start();
    fixture.sim.setFaults({ latencyMs: 300 });
    const id = await follower.save('customers', { company: 'Cukrárna Hájek', email: 'hajek@example.com' });
    await new Promise((r) => setTimeout(r, 500));
    await edit(follower, id);
    expect(follower.status.value.pendingPushes).toBe(1);
    await vi.waitFor(() => expect(fixture!.sim.store.get('customers', id)?.email).toBe('objednavky@example.com'), { timeout: 8_000 });
    await waitFor(follower.status, (s) => s.pendingPushes === 0);
  }

  it('is pushed by the leader at once even when it folds into an entry the leader is already pushing', async () => {
    await foldedWhilePushing((follower, id) => follower.save('customers', { id, email: 'objednavky@example.com' }));
  });

  it("is pushed at once also when the app saves it inside its own transaction (one without the mirror's meta table)", async () => {
    // The app's transaction over the tables the edit writes (a record with its children would add theirs).
    await foldedWhilePushing((follower, id) => {
      const { db } = follower;
      return db.transaction('rw', [db.customers, db._sync_outbox, db._sync_conflicts], () => follower.save('customers', { id, email: 'objednavky@example.com' }));
    });
  });
});
