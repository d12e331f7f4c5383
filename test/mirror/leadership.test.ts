import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MirrorDb } from '../../src/db/mirror-db.js';
import { createClient } from '../../src/client/index.js';
import { clientThrough, isGet, isPost, queuedWorkEnded, startMirrorFixture, waitFor, type MirrorFixture } from './fixture.js';
import type { Mirror } from '../../src/mirror/create-mirror.js';

let fixture: MirrorFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** What another tab's elector writes when it takes the lease (leader.ts). */
const anotherTabTakesTheLease = (db: MirrorDb) =>
  db._sync_meta.put({ key: 'leader', value: { owner: 'another-tab', expiresAt: Date.now() + 60_000 } });

/** A started mirror that leads and has made its first sync, and its simulator; `options` may be made from the fixture. */
async function leadingMirror(options: Parameters<MirrorFixture['mirror']>[0] | ((f: MirrorFixture) => Parameters<MirrorFixture['mirror']>[0])) {
  fixture = await startMirrorFixture();
  const mirror = fixture.mirror(typeof options === 'function' ? options(fixture) : options);
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

/** Timers whose firing a test can wait for: those the mirror set for soon (a push's gathering pause, a lease renewal). */
function trackedTimers() {
  const soon = new Map<unknown, { done: Promise<void>; settle: () => void }>();
  return {
    env: {
      setTimeout(fn: () => void, ms: number): unknown {
        let settle!: () => void;
        const done = new Promise<void>((resolve) => (settle = resolve));
        const handle = setTimeout(() => {
          soon.delete(handle);
          try {
            fn();
          } finally {
            settle();
          }
        }, ms);
        // A poll an hour away is not waited for.
        if (ms <= 1_000) soon.set(handle, { done, settle });
        return handle;
      },
      clearTimeout(handle: unknown) {
        clearTimeout(handle as ReturnType<typeof setTimeout>);
        soon.get(handle)?.settle();
        soon.delete(handle);
      },
    },
    /** Resolves once every timer (of a second or less) set so far has fired or been cleared. */
    async settled(): Promise<void> {
      await Promise.all([...soon.values()].map((t) => t.done));
    },
  };
}

describe('a tab that lost the leader lease (no Web Locks)', () => {
  it('does not POST the push that follows an edit once another tab leads', async () => {
    let mirror: Mirror | undefined;
    let pushing = false;
    // Another tab takes the lease as the push that follows the edit sends its pull (then ~400 ms on the wire, then the POST).
    const { mirror: leader, sim } = await leadingMirror((f) => ({
      client: clientThrough(f.sim, async (request) => {
        if (!pushing || !isGet(request, 'customers')) return;
        pushing = false;
        await anotherTabTakesTheLease(mirror!.db);
      }),
      pollIntervalMs: 3_600_000,
      leaderLeaseMs: 300,
    }));
    mirror = leader;
    sim.setFaults({ latencyMs: 400 });
    pushing = true;
    const id = await mirror.save('customers', { company: 'Truhlářství Novák', email: 'novak@example.com' });
    await waitFor(mirror.status, (s) => !s.leader && s.phase === 'following', 5_000);
    // The push has ended by then, and the server has handled whatever it sent.
    await queuedWorkEnded(mirror, sim);
    // The other tab pushes for every tab: this one must not POST as well.
    expect(pushing).toBe(false);
    expect(sim.requests.timesPosted('customers', id)).toBe(0);
    expect(mirror.status.value).toMatchObject({ leader: false, phase: 'following', lastError: undefined });
  });

  it('does not POST from a syncNow() under way once another tab leads; the syncNow rejects with an AbortError', async () => {
    let mirror: Mirror | undefined;
    let syncing = false;
    let saved!: () => void;
    const wasSaved = new Promise<void>((resolve) => (saved = resolve));
    const timers = trackedTimers();
    // The syncNow's pull waits for the edit to be saved; then another tab takes the lease, and the pull goes out (~400 ms on the wire).
    const { mirror: leader, sim } = await leadingMirror((f) => ({
      client: clientThrough(f.sim, async (request) => {
        if (!syncing || !isGet(request, 'customers')) return;
        syncing = false;
        await wasSaved;
        await anotherTabTakesTheLease(mirror!.db);
      }),
      environment: timers.env,
      pollIntervalMs: 3_600_000,
      leaderLeaseMs: 300,
    }));
    mirror = leader;
    sim.setFaults({ latencyMs: 400 });
    syncing = true;
    const run = mirror.syncNow({ collections: ['customers'] }).then(
      () => 'resolved',
      (e: Error) => e.name,
    );
    // Saved while the syncNow() is under way: both its push and the push that follows the edit (behind it) would carry it.
    const id = await mirror.save('customers', { company: 'Pila Dvořák', email: 'pila@example.com' });
    saved();
    await waitFor(mirror.status, (s) => !s.leader, 5_000);
    expect(await run).toBe('AbortError');
    // The push that follows the edit is queued once its gathering pause has passed; then it has ended before the reconcile behind it.
    await timers.settled();
    await queuedWorkEnded(mirror, sim);
    expect(sim.requests.timesPosted('customers', id)).toBe(0);
    expect(mirror.status.value).toMatchObject({ leader: false, phase: 'following', lastError: undefined });
  });

  it('shows following, not a sync error, when it loses the lease while its scheduled run is under way', async () => {
    let mirror: Mirror | undefined;
    let armed = false;
    // Another tab takes the lease as the next scheduled run sends a request (then ~300 ms on the wire).
    const { mirror: leader, sim } = await leadingMirror((f) => ({
      client: clientThrough(f.sim, async (request) => {
        if (!armed || request.method !== 'GET') return;
        armed = false;
        await anotherTabTakesTheLease(mirror!.db);
      }),
      pollIntervalMs: 100,
      leaderLeaseMs: 300,
    }));
    mirror = leader;
    sim.setFaults({ latencyMs: 300 });
    armed = true;
    await waitFor(mirror.status, (s) => s.phase === 'syncing');
    await waitFor(mirror.status, (s) => !s.leader, 5_000);
    // The run cut short has ended, and told the status what it tells, before the reconcile behind it runs.
    await queuedWorkEnded(mirror, sim);
    expect(armed).toBe(false);
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
    let leaseTaken!: () => void;
    const tookLease = new Promise<void>((resolve) => (leaseTaken = resolve));
    const fetching: typeof fetch = async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const response = await fetch(request);
      if (isPost(request, 'customers') && ++posts === 1) {
        await anotherTabTakesTheLease(mirror!.db);
        leaseTaken();
      }
      return response;
    };
    const client = createClient({ baseUrl: f.sim.baseUrl, token: f.sim.token, userAgent: 'pos-cloud-mirror tests (mirror)', timeoutMs: 5_000, fetch: fetching });
    mirror = f.mirror({ client, collections: ['customers'], categories: false, pollIntervalMs: 3_600_000, leaderLeaseMs: 60_000, batch: { maxRecords: 2 } });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await mirror.save('customers', { company: `Firma ${i}`, email: `firma${i}@example.com` }));
    await mirror.start();
    // (`following` alone also shows before the election is decided: the lease taken is what the wait is for.)
    await tookLease;
    await waitFor(mirror.status, (s) => !s.leader && s.phase === 'following', 5_000);
    // The push has ended (its next POST sent or not) before the reconcile queued behind it runs.
    await queuedWorkEnded(mirror, f.sim);
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
    // B's first campaign has an outcome once its syncNow() answers: it follows.
    expect((await b.syncNow()).ran).toBe(false);
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
    // A, awake, has ended its push that follows the edit (queued when its timers woke) before the reconcile behind it.
    await queuedWorkEnded(a, fixture.sim);
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
    expect((await b.syncNow()).ran).toBe(false);
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
    // A's push that follows the edit waits for its held timers; what else A had queued has ended before the reconcile behind it.
    await queuedWorkEnded(a, fixture.sim);
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
    let posting!: () => void;
    const isPosting = new Promise<void>((resolve) => (posting = resolve));
    let edited!: () => void;
    const wasEdited = new Promise<void>((resolve) => (edited = resolve));
    // The leader's POST of the customer waits until the follower has made its edit.
    const client = clientThrough(fixture.sim, async (request) => {
      if (!isPost(request, 'customers')) return;
      posting();
      await wasEdited;
    });
    const leader = fixture.mirror({ ...options, client });
    const follower = fixture.mirror(options);
    await leader.start();
    await waitFor(leader.status, (s) => s.leader && s.lastSyncAt !== undefined);
    await follower.start();
    fixture.sim.setFaults({ latencyMs: 300 });
    const id = await follower.save('customers', { company: 'Cukrárna Hájek', email: 'hajek@example.com' });
    await isPosting;
    await edit(follower, id);
    edited();
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
