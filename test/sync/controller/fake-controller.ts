import type { MirrorDb } from '../../../src/db/mirror-db.js';
import { createSyncController, type SyncController, type StatusPatch } from '../../../src/sync/controller/index.js';
import type { LockManagerLike, SyncEnvironment } from '../../../src/sync/coordination/environment.js';
import { emptySyncReport, type CycleHooks, type SyncCycle, type SyncReport } from '../../../src/sync/cycle/index.js';
import type { CollectionName } from '../../../src/schema/collections.js';
import type { ReconcileReport } from '../../../src/sync/pull/index.js';

/** One exclusive lock per name, granted in the order asked, as Web Locks do in one origin. */
export function fakeLocks(): LockManagerLike {
  const held = new Set<string>();
  const waiting = new Map<string, (() => void)[]>();
  const release = (name: string) => {
    held.delete(name);
    waiting.get(name)?.shift()?.();
  };
  return {
    async request(name, options, callback) {
      if (held.has(name)) {
        if (options.ifAvailable) return callback(null);
        await new Promise<void>((resolve, reject) => {
          const queue = waiting.get(name) ?? [];
          queue.push(resolve);
          waiting.set(name, queue);
          options.signal?.addEventListener('abort', () => {
            queue.splice(queue.indexOf(resolve), 1);
            reject(options.signal?.reason);
          });
        });
      }
      held.add(name);
      try {
        return await callback({ name });
      } finally {
        release(name);
      }
    },
  };
}

/** A hand-driven clock, connectivity and locks, so no test waits for real time. */
export function fakeEnvironment(locks: LockManagerLike = fakeLocks()) {
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
    locks,
    storage: undefined,
  };
  return {
    env,
    /** Listeners of connectivity still subscribed. */
    connectivityListeners: () => connectivity.size,
    pendingDelays: () => [...timers.values()].map((t) => t.at - now).sort((a, b) => a - b),
    async advance(ms: number) {
      now += ms;
      for (const [id, t] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at <= now && timers.has(id)) {
          timers.delete(id);
          t.fn();
        }
      }
      await flush();
    },
    setOnline(value: boolean) {
      online = value;
      for (const fn of [...connectivity]) fn(value);
    },
    /** Changes what `isOnline()` says without an event, as Firefox does for a tab loaded while offline. */
    setOnlineSilently(value: boolean) {
      online = value;
    },
    /** Sends a connectivity event whatever `isOnline()` said before (an engine may repeat one). */
    announceOnline() {
      online = true;
      for (const fn of [...connectivity]) fn(true);
    },
  };
}

/** Lets every settled promise's callbacks and a macrotask run. */
export const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
};

/** What a fake cycle's run does: resolve with a report, or throw. */
export type RunBehaviour = (signal: AbortSignal, only?: readonly CollectionName[]) => Promise<SyncReport | undefined> | SyncReport | undefined;

/** A cycle that counts its calls and does what the test says. */
export function fakeCycle(now: () => number) {
  let hooks!: CycleHooks;
  const calls = { run: 0, pushPending: 0, reconcile: 0, reset: 0 };
  let behaviour: RunBehaviour = () => undefined;
  let pushBehaviour: (signal: AbortSignal) => Promise<void> | void = () => undefined;
  const cycle: SyncCycle = {
    async run(signal, only) {
      calls.run++;
      signal.throwIfAborted();
      hooks.onRunStart(false);
      const report = await behaviour(signal, only);
      return report ?? { ...emptySyncReport(true, now(), only ?? []), finishedAt: now() };
    },
    async pushPending(signal) {
      calls.pushPending++;
      signal.throwIfAborted();
      await hooks.requireLead(signal);
      await pushBehaviour(signal);
    },
    async reconcile(collection): Promise<ReconcileReport> {
      calls.reconcile++;
      return { collection, repaired: 0, vanished: 0, quarantined: 0, seen: 0, neverSent: [] };
    },
    async reset() {
      calls.reset++;
    },
  };
  return {
    build: (h: CycleHooks) => ((hooks = h), cycle),
    calls,
    /** What the next runs do. */
    runs(fn: RunBehaviour) {
      behaviour = fn;
    },
    pushes(fn: (signal: AbortSignal) => Promise<void> | void) {
      pushBehaviour = fn;
    },
  };
}

/** A status port that keeps what it is told (the controller never reads it). */
export function fakeFeed() {
  const value: StatusPatch = {};
  const patches: StatusPatch[] = [];
  return {
    status: { value },
    patches,
    set(patch: StatusPatch) {
      patches.push(patch);
      Object.assign(value, patch);
    },
  };
}

/** A database as far as the controller touches it with locks present: a quota error closes it for the next run. */
export function fakeDb(): MirrorDb & { closed: number } {
  const db = {
    closed: 0,
    close() {
      db.closed++;
    },
    open: async () => db,
  };
  return db as unknown as MirrorDb & { closed: number };
}

/** A controller over a fake cycle, environment, feed and client (its database is never opened: the fake environment has locks). */
export function fakeController(opts: { pollIntervalMs?: number; collections?: CollectionName[]; clock?: ReturnType<typeof fakeEnvironment> } = {}) {
  // Another instance's clock: the same time, connectivity and locks, as two tabs of one browser.
  const clock = opts.clock ?? fakeEnvironment();
  const cycle = fakeCycle(() => clock.env.now());
  const feed = fakeFeed();
  const db = fakeDb();
  const tokens: string[] = [];
  const client = { setToken: (t: string) => void tokens.push(t) } as never;
  const controller: SyncController = createSyncController({
    db,
    env: clock.env,
    client,
    collections: opts.collections ?? ['customers'],
    feed,
    pollIntervalMs: opts.pollIntervalMs ?? 60_000,
    leaderLockName: 'test-lock',
    leaseMs: 10_000,
    cycle: cycle.build,
  });
  return { controller, clock, cycle, feed, db, tokens };
}

/** An error as IndexedDB reports storage full. */
export const quotaExceeded = () => new DOMException('full', 'QuotaExceededError');
