import { afterEach, describe, expect, it } from 'vitest';
import { AuthError, NetworkError } from '../../../src/errors/index.js';
import { CONNECTIVITY_RECHECK_MS } from '../../../src/sync/controller/next-run.js';
import { emptySyncReport, type SyncReport } from '../../../src/sync/cycle/index.js';
import type { PullReport } from '../../../src/sync/pull/index.js';
import type { LockManagerLike } from '../../../src/sync/coordination/environment.js';
import { fakeController, fakeEnvironment, flush, quotaExceeded } from './fake-controller.js';

let made: ReturnType<typeof fakeController> | undefined;
const controllerWith = (opts?: Parameters<typeof fakeController>[0]) => (made = fakeController(opts));
afterEach(async () => {
  await made?.controller.close();
  made = undefined;
});

/** The phases the controller writes to `feed` from now on, in order. */
function phasesSet(feed: ReturnType<typeof fakeController>['feed']): string[] {
  const phases: string[] = [];
  const set = feed.set.bind(feed);
  feed.set = (patch) => {
    if (patch.phase !== undefined) phases.push(patch.phase);
    set(patch);
  };
  return phases;
}

describe('createSyncController, with a fake cycle', () => {
  describe('a storage-error pause', () => {
    // Regression: setToken() resumed the schedule whatever paused it, so a mirror paused for
    // storage-error synced again on its schedule while its state still said storage-error.
    it('is not resumed by setToken(): no run on the schedule, and the phase stays storage-error', async () => {
      const { controller, clock, cycle, feed } = controllerWith({ pollIntervalMs: 1_000 });
      cycle.runs(() => {
        throw quotaExceeded();
      });
      await controller.start();
      await flush();
      expect(cycle.calls.run).toBe(1);
      expect(feed.status.value.phase).toBe('storage-error');
      cycle.runs(() => undefined);
      controller.setToken('a new token');
      await flush();
      await clock.advance(600_000);
      expect(cycle.calls.run).toBe(1);
      expect(feed.status.value.phase).toBe('storage-error');
    });
  });
  describe('start() of a leader', () => {
    it('runs at once, leads, and runs again once per poll interval', async () => {
      const { controller, clock, cycle, feed } = controllerWith({ pollIntervalMs: 1_000 });
      await controller.start();
      await flush();
      expect(cycle.calls.run).toBe(1);
      expect(feed.status.value).toMatchObject({ phase: 'idle', leader: true });
      expect(controller.pushesHere).toBe(true);
      await clock.advance(1_000);
      expect(cycle.calls.run).toBe(2);
    });

    it('shows the phase of a run under way, and idle with lastSyncAt once it ends', async () => {
      const { controller, cycle, feed } = controllerWith();
      let finish!: () => void;
      cycle.runs(() => new Promise<undefined>((resolve) => (finish = () => resolve(undefined))));
      await controller.start();
      await flush();
      expect(feed.status.value.phase).toBe('syncing');
      finish();
      await flush();
      expect(feed.status.value).toMatchObject({ phase: 'idle', lastError: undefined });
      expect(feed.status.value.lastSyncAt).toBeTypeOf('number');
    });
  });

  describe('a second instance on the same lock', () => {
    it('follows: no run of its own, and syncNow() reports a run skipped', async () => {
      const leader = controllerWith();
      await leader.controller.start();
      await flush();
      const other = fakeController({ clock: leader.clock });
      await other.controller.start();
      await flush();
      expect(other.feed.status.value).toMatchObject({ phase: 'following', leader: false });
      expect(other.controller.pushesHere).toBe(false);
      const report = await other.controller.syncNow();
      expect(report.ran).toBe(false);
      expect(other.cycle.calls.run).toBe(0);
      await other.controller.close();
    });

    it('is not following before its election has answered: idle and not leading until another tab is known to lead', async () => {
      const leader = controllerWith();
      await leader.controller.start();
      await flush();
      // Web Locks that have not answered yet (the runtime is busy): the campaign is under way.
      let answer: () => void = () => undefined;
      const slowLocks: LockManagerLike = {
        request: (name, options, callback) => new Promise<void>((resolve) => (answer = resolve)).then(() => leader.clock.env.locks!.request(name, options, callback)),
      };
      const other = fakeController({ clock: { ...leader.clock, env: { ...leader.clock.env, locks: slowLocks } } });
      const phases = phasesSet(other.feed);
      await other.controller.start();
      await flush();
      expect(other.feed.status.value).toMatchObject({ phase: 'idle', leader: false });
      answer();
      await flush();
      expect(other.feed.status.value).toMatchObject({ phase: 'following', leader: false });
      expect(phases).toEqual(['following']);
      await other.controller.close();
    });

    it('a tab about to lead never shows following: idle until its election answers, then its first run', async () => {
      const clock = fakeEnvironment();
      const locks = clock.env.locks!;
      let answer: () => void = () => undefined;
      const slowLocks: LockManagerLike = { request: (name, options, callback) => new Promise<void>((resolve) => (answer = resolve)).then(() => locks.request(name, options, callback)) };
      const { controller, feed } = controllerWith({ clock: { ...clock, env: { ...clock.env, locks: slowLocks } } });
      const phases = phasesSet(feed);
      await controller.start();
      await flush();
      expect(feed.status.value).toMatchObject({ phase: 'idle', leader: false });
      answer();
      await flush();
      expect(feed.status.value).toMatchObject({ phase: 'idle', leader: true });
      expect(phases).toEqual(['syncing', 'idle']);
    });

    it('takes the lead when the leader stops, and runs', async () => {
      const leader = controllerWith();
      await leader.controller.start();
      await flush();
      const other = fakeController({ clock: leader.clock });
      await other.controller.start();
      await flush();
      await leader.controller.stop();
      await flush();
      expect(leader.feed.status.value).toMatchObject({ phase: 'stopped', leader: false });
      expect(other.feed.status.value).toMatchObject({ phase: 'idle', leader: true });
      expect(other.cycle.calls.run).toBe(1);
      await other.controller.close();
    });
  });

  describe('failures', () => {
    it('an auth failure pauses the schedule until setToken(), which runs at once', async () => {
      const { controller, clock, cycle, feed, tokens } = controllerWith({ pollIntervalMs: 1_000 });
      cycle.runs(() => {
        throw new AuthError('GET /customers: refused', { status: 401, request: { method: 'GET', path: '/customers' } });
      });
      await controller.start();
      await flush();
      expect(feed.status.value.phase).toBe('auth-error');
      expect(feed.status.value.lastError).toMatchObject({ name: 'AuthError' });
      await clock.advance(600_000);
      expect(cycle.calls.run).toBe(1);
      cycle.runs(() => undefined);
      controller.setToken('new');
      expect(tokens).toEqual(['new']);
      expect(feed.status.value.lastError).toBeUndefined();
      await flush();
      expect(cycle.calls.run).toBe(2);
      expect(feed.status.value.phase).toBe('idle');
    });

    it('another failure shows error and is retried with backoff, not at the poll interval', async () => {
      const { controller, clock, cycle, feed } = controllerWith({ pollIntervalMs: 60_000 });
      cycle.runs(() => {
        throw new Error('boom');
      });
      await controller.start();
      await flush();
      expect(feed.status.value).toMatchObject({ phase: 'error', lastError: { name: 'Error', message: 'boom' } });
      const [delay] = clock.pendingDelays();
      expect(delay).toBeLessThanOrEqual(1_000);
      cycle.runs(() => undefined);
      await clock.advance(1_000);
      expect(cycle.calls.run).toBe(2);
      expect(feed.status.value).toMatchObject({ phase: 'idle', lastError: undefined });
    });

    it('a syncNow() that succeeds ends a storage-error pause, and the schedule carries on', async () => {
      const { controller, clock, cycle, feed } = controllerWith({ pollIntervalMs: 1_000 });
      cycle.runs(() => {
        throw quotaExceeded();
      });
      await controller.start();
      await flush();
      expect(feed.status.value.phase).toBe('storage-error');
      cycle.runs(() => undefined);
      await controller.syncNow();
      await flush();
      expect(feed.status.value.phase).toBe('idle');
      const runs = cycle.calls.run;
      await clock.advance(1_000);
      expect(cycle.calls.run).toBeGreaterThan(runs);
    });

    it('a syncNow() that fails rejects with the failure and shows it', async () => {
      const { controller, cycle, feed } = controllerWith();
      cycle.runs(() => {
        throw new Error('boom');
      });
      await expect(controller.syncNow()).rejects.toThrow('boom');
      expect(feed.status.value).toMatchObject({ phase: 'error', lastError: { message: 'boom' } });
    });
  });

  describe('connectivity', () => {
    it('shows offline and runs nothing while offline; coming back online runs at once', async () => {
      const { controller, clock, cycle, feed } = controllerWith({ pollIntervalMs: 1_000 });
      await controller.start();
      await flush();
      clock.setOnline(false);
      expect(feed.status.value).toMatchObject({ phase: 'offline', online: false });
      await clock.advance(10_000);
      const runs = cycle.calls.run;
      await clock.advance(10_000);
      expect(cycle.calls.run).toBe(runs);
      clock.setOnline(true);
      await flush();
      expect(cycle.calls.run).toBe(runs + 1);
      expect(feed.status.value).toMatchObject({ phase: 'idle', online: true });
    });

    // Firefox changes navigator.onLine of a tab loaded while offline without an `online` event: the
    // schedule must look again on its own, or a booked edit waits forever ("Waiting to send").
    it('notices the network back without an event, within CONNECTIVITY_RECHECK_MS, and runs', async () => {
      const { controller, clock, cycle, feed } = controllerWith({ pollIntervalMs: 60_000 });
      clock.setOnlineSilently(false);
      await controller.start();
      await flush();
      expect(feed.status.value).toMatchObject({ phase: 'offline', online: false });
      const runs = cycle.calls.run;
      clock.setOnlineSilently(true);
      await clock.advance(CONNECTIVITY_RECHECK_MS);
      expect(cycle.calls.run).toBe(runs + 1);
      expect(feed.status.value).toMatchObject({ phase: 'idle', online: true });
    });

    it('notices the network gone without an event when a run fails, and then back without one', async () => {
      const { controller, clock, cycle, feed } = controllerWith({ pollIntervalMs: 60_000 });
      await controller.start();
      await flush();
      cycle.runs(() => {
        throw new NetworkError('fetch failed');
      });
      clock.setOnlineSilently(false);
      await clock.advance(60_000);
      expect(feed.status.value).toMatchObject({ phase: 'offline', online: false });
      const runs = cycle.calls.run;
      cycle.runs(() => undefined);
      clock.setOnlineSilently(true);
      await clock.advance(CONNECTIVITY_RECHECK_MS);
      expect(cycle.calls.run).toBe(runs + 1);
      expect(feed.status.value).toMatchObject({ phase: 'idle', online: true });
    });

    it('runs at once on an `online` event while failing with a backoff, though the state said online', async () => {
      const { controller, clock, cycle } = controllerWith({ pollIntervalMs: 60_000 });
      cycle.runs(() => {
        throw new NetworkError('fetch failed');
      });
      await controller.start();
      await flush();
      // Failures in a row: the backoff grows to minutes.
      for (let i = 0; i < 8; i++) await clock.advance(300_000);
      const runs = cycle.calls.run;
      cycle.runs(() => undefined);
      clock.announceOnline();
      await flush();
      expect(cycle.calls.run).toBe(runs + 1);
    });
  });

  describe('the queue', () => {
    it('runs syncNow() calls one at a time, in the order called', async () => {
      const { controller, cycle } = controllerWith();
      const order: string[] = [];
      let active = 0;
      cycle.runs(async () => {
        active++;
        expect(active).toBe(1);
        order.push(`run ${cycle.calls.run}`);
        await new Promise((r) => setTimeout(r, 5));
        active--;
        return undefined;
      });
      await Promise.all([controller.syncNow(), controller.syncNow(), controller.syncNow()]);
      expect(order).toEqual(['run 1', 'run 2', 'run 3']);
    });
  });

  describe('the push after an edit', () => {
    it('is made by a started leader, once for a burst of edits', async () => {
      const { controller, clock, cycle } = controllerWith();
      await controller.start();
      await flush();
      controller.outboxGrew();
      controller.outboxGrew();
      await clock.advance(50);
      expect(cycle.calls.pushPending).toBe(1);
    });

    it('is not made by a mirror never started', async () => {
      const { controller, clock, cycle } = controllerWith();
      controller.outboxGrew();
      await clock.advance(50);
      expect(cycle.calls.pushPending).toBe(0);
    });
  });

  describe('stop() and close()', () => {
    it('stop() aborts the run under way without counting it as a failure, and start() runs again', async () => {
      const { controller, cycle, feed } = controllerWith();
      let seen: AbortSignal | undefined;
      cycle.runs((signal) => {
        seen = signal;
        return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      });
      await controller.start();
      await flush();
      await controller.stop();
      expect(seen?.aborted).toBe(true);
      expect(feed.status.value).toMatchObject({ phase: 'stopped', leader: false });
      expect(feed.status.value.lastError).toBeUndefined();
      cycle.runs(() => undefined);
      await controller.start();
      await flush();
      expect(feed.status.value).toMatchObject({ phase: 'idle', leader: true });
    });

    it('close() ends everything: the phase is closed, calls are refused, connectivity is no longer listened to', async () => {
      const { controller, clock, feed } = controllerWith();
      await controller.start();
      await flush();
      await controller.close();
      expect(feed.status.value).toMatchObject({ phase: 'closed', leader: false });
      expect(clock.connectivityListeners()).toBe(0);
      expect(clock.pendingDelays()).toEqual([]);
      await expect(controller.syncNow()).rejects.toThrow('syncNow: the mirror is closed');
      expect(() => controller.assertOpen('save')).toThrow('save: the mirror is closed');
    });
  });
  describe('one owner', () => {
    it('listens to connectivity once, whether it leads or not', async () => {
      const { controller, clock } = controllerWith();
      expect(clock.connectivityListeners()).toBe(1);
      await controller.start();
      await flush();
      expect(clock.connectivityListeners()).toBe(1);
    });

    it('keeps the schedule stopped while following: no timer waits', async () => {
      const leader = controllerWith({ pollIntervalMs: 1_000 });
      await leader.controller.start();
      await flush();
      await leader.controller.stop();
      expect(leader.clock.pendingDelays()).toEqual([]);
    });

    it('grows the backoff with the failures in a row, and a success brings back the interval', async () => {
      const { controller, clock, cycle } = controllerWith({ pollIntervalMs: 60_000 });
      cycle.runs(() => {
        throw new Error('boom');
      });
      await controller.start();
      await flush();
      for (let i = 0; i < 5; i++) await clock.advance(clock.pendingDelays()[0]!);
      // Six failures in a row: the bound is 32 s, the jitter at least half the base.
      expect(clock.pendingDelays()[0]).toBeGreaterThanOrEqual(500);
      expect(clock.pendingDelays()[0]).toBeLessThanOrEqual(32_000);
      cycle.runs(() => undefined);
      await clock.advance(clock.pendingDelays()[0]!);
      // (Rounded: the clock stands at a jittered, fractional time.)
      expect(clock.pendingDelays().map(Math.round)).toEqual([60_000]);
    });
  });
  describe('the collections health', () => {
    it('is the controller state: a collection failing alone shows in failing until a run pulls it again, without reading the status', async () => {
      const { controller, cycle, feed } = controllerWith({ collections: ['customers', 'products'] });
      const report = (over: Partial<SyncReport>): SyncReport => ({ ...emptySyncReport(true, 0, ['customers', 'products']), ...over });
      const pulled = (collection: 'customers' | 'products', mostlyRefused = false) => ({ collection, received: 10, mostlyRefused }) as unknown as PullReport;
      cycle.runs(() => report({ pulls: [pulled('customers', true)], failed: [{ collection: 'products', error: { name: 'HttpError', message: '500' } }] }));
      await controller.syncNow();
      expect(feed.status.value).toMatchObject({ failing: { products: { name: 'HttpError', message: '500' } }, refusing: ['customers'] });
      // Whatever the status shows now, the next run's patch comes from the controller's own health.
      feed.status.value.failing = {};
      feed.status.value.refusing = [];
      cycle.runs(() => report({ pulls: [pulled('customers')] }));
      await controller.syncNow();
      expect(feed.status.value).toMatchObject({ failing: { products: { name: 'HttpError', message: '500' } }, refusing: [] });
      cycle.runs(() => report({ pulls: [pulled('products')] }));
      await controller.syncNow();
      expect(feed.status.value).toMatchObject({ failing: {}, refusing: [] });
    });
  });
  describe('inQueue()', () => {
    it('runs a write between runs: after the run queued before it, before the run queued after it, and not ended by stop()', async () => {
      const { controller, cycle } = controllerWith();
      const order: string[] = [];
      cycle.runs(async () => {
        order.push(`run ${cycle.calls.run}`);
        await new Promise((r) => setTimeout(r, 5));
        return undefined;
      });
      const first = controller.syncNow();
      const write = controller.inQueue(async () => void order.push('write'));
      const second = controller.syncNow();
      await Promise.all([first, write, second]);
      expect(order).toEqual(['run 1', 'write', 'run 2']);
      await controller.start();
      const during = controller.inQueue(async () => 'moved');
      await controller.stop();
      await expect(during).resolves.toBe('moved');
    });
  });
});
