import { describe, expect, it } from 'vitest';
import { createScheduler } from '../../../src/sync/coordination/scheduler.js';
import type { SyncEnvironment } from '../../../src/sync/coordination/environment.js';

/** A hand-driven clock and connectivity, so no test waits for real time. */
function fakeEnvironment() {
  let now = 0;
  let online = true;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const connectivity = new Set<(online: boolean) => void>();
  let seq = 0;
  const env: SyncEnvironment = {
    now: () => now,
    setTimeout(fn, ms) {
      const id = ++seq;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    isOnline: () => online,
    onConnectivity(fn) {
      connectivity.add(fn);
      return () => connectivity.delete(fn);
    },
    onVisible: () => () => undefined,
    locks: undefined,
    persistStorage: async () => undefined,
  };
  return {
    env,
    pendingDelays: () => [...timers.values()].map((t) => t.at - now),
    async advance(ms: number) {
      now += ms;
      for (const [id, t] of [...timers]) {
        if (t.at <= now) {
          timers.delete(id);
          t.fn();
        }
      }
      await flush();
    },
    setOnline(value: boolean) {
      online = value;
      for (const fn of connectivity) fn(value);
    },
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('createScheduler', () => {
  it('runs at start and then once per interval', async () => {
    const clock = fakeEnvironment();
    let runs = 0;
    const s = createScheduler({ env: clock.env, intervalMs: 1_000, onFailure: () => 'retry', run: async () => void runs++ });
    s.start();
    await flush();
    expect(runs).toBe(1);
    await clock.advance(999);
    expect(runs).toBe(1);
    await clock.advance(1);
    expect(runs).toBe(2);
    await s.stop();
    await clock.advance(5_000);
    expect(runs).toBe(2);
  });

  it('backs off exponentially with jitter after failures and resets after a success', async () => {
    const clock = fakeEnvironment();
    let fail = 3;
    const s = createScheduler({
      env: clock.env,
      intervalMs: 60_000,
      backoffBaseMs: 1_000,
      random: () => 1,
      onFailure: () => 'retry',
      run: async () => {
        if (fail-- > 0) throw new Error('boom');
      },
    });
    s.start();
    await flush();
    expect(clock.pendingDelays()).toEqual([1_000]);
    await clock.advance(1_000);
    expect(clock.pendingDelays()).toEqual([2_000]);
    await clock.advance(2_000);
    expect(clock.pendingDelays()).toEqual([4_000]);
    await clock.advance(4_000);
    expect(clock.pendingDelays()).toEqual([60_000]);
    await s.stop();
  });

  it('pauses on a failure that asks for it and resumes on resume()', async () => {
    const clock = fakeEnvironment();
    let runs = 0;
    const s = createScheduler({
      env: clock.env,
      intervalMs: 1_000,
      onFailure: () => 'pause',
      run: async () => {
        runs++;
        if (runs === 1) throw new Error('auth');
      },
    });
    s.start();
    await flush();
    expect(s.paused).toBe(true);
    await clock.advance(100_000);
    expect(runs).toBe(1);
    s.resume();
    await flush();
    expect(runs).toBe(2);
    expect(s.paused).toBe(false);
    await s.stop();
  });

  it('pauses on pause(), as a failed run asking for it would, and resumes on resume()', async () => {
    const clock = fakeEnvironment();
    let runs = 0;
    const s = createScheduler({ env: clock.env, intervalMs: 1_000, onFailure: () => 'retry', run: async () => void runs++ });
    s.start();
    await flush();
    s.pause();
    expect(s.paused).toBe(true);
    await clock.advance(10_000);
    expect(runs).toBe(1);
    s.resume();
    await flush();
    expect(runs).toBe(2);
    await clock.advance(1_000);
    expect(runs).toBe(3);
  });

  it('does not run while offline and runs as soon as the network is back', async () => {
    const clock = fakeEnvironment();
    clock.setOnline(false);
    let runs = 0;
    const s = createScheduler({ env: clock.env, intervalMs: 1_000, onFailure: () => 'retry', run: async () => void runs++ });
    s.start();
    await flush();
    expect(runs).toBe(0);
    clock.setOnline(true);
    await flush();
    expect(runs).toBe(1);
    await s.stop();
  });

  it('never overlaps runs: a trigger during a run queues exactly one more', async () => {
    const clock = fakeEnvironment();
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    let release!: () => void;
    const s = createScheduler({
      env: clock.env,
      intervalMs: 1_000_000,
      onFailure: () => 'retry',
      run: async () => {
        active++;
        runs++;
        maxActive = Math.max(maxActive, active);
        if (runs === 1) await new Promise<void>((r) => (release = r));
        active--;
      },
    });
    s.start();
    await flush();
    const a = s.trigger();
    const b = s.trigger();
    release();
    await Promise.all([a, b]);
    expect(maxActive).toBe(1);
    expect(runs).toBe(2);
    await s.stop();
  });

  it('keeps the schedule when onFailure throws: the failure is retried with backoff', async () => {
    const clock = fakeEnvironment();
    let runs = 0;
    const s = createScheduler({
      env: clock.env,
      intervalMs: 60_000,
      backoffBaseMs: 1_000,
      random: () => 1,
      onFailure: () => {
        throw new TypeError('a status observer is broken');
      },
      run: async () => {
        if (++runs === 1) throw new Error('boom');
      },
    });
    s.start();
    await flush();
    expect(s.paused).toBe(false);
    expect(clock.pendingDelays()).toEqual([1_000]);
    await clock.advance(1_000);
    expect(runs).toBe(2);
    expect(clock.pendingDelays()).toEqual([60_000]);
    await s.stop();
  });

  it('does not count a run that stop() cut short as a failure', async () => {
    const clock = fakeEnvironment();
    const failures: unknown[] = [];
    const s = createScheduler({
      env: clock.env,
      intervalMs: 1_000,
      onFailure: (error) => {
        failures.push(error);
        return 'pause';
      },
      run: (signal) => new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    });
    s.start();
    await flush();
    await s.stop();
    expect(failures).toEqual([]);
    expect(s.paused).toBe(false);
  });

  it('aborts the run in progress on stop()', async () => {
    const clock = fakeEnvironment();
    let aborted = false;
    const s = createScheduler({
      env: clock.env,
      intervalMs: 1_000,
      onFailure: () => 'retry',
      run: (signal) =>
        new Promise<void>((_, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason);
          });
        }),
    });
    s.start();
    await flush();
    await s.stop();
    expect(aborted).toBe(true);
  });
});
