import type { MirrorDb } from '../db/mirror-db.js';
import { PosCloudError, ValidationError } from '../errors/index.js';
import type { CollectionName } from '../schema/collections.js';
import { createScheduler, type LeaderElector, type SyncEnvironment } from '../sync/coordination/index.js';
import { assertCollection } from '../sync/outbox/index.js';
import type { Puller, ReconcileReport } from '../sync/pull/index.js';
import type { SyncClient } from '../sync/index.js';
import { isAbort } from './failure-kinds.js';
import type { FailurePolicy } from './failure-policy.js';
import { electionDecided } from './leadership.js';
import type { Lifecycle } from './lifecycle.js';
import { createPushSoon } from './push-soon.js';
import { collectionStatusAfter } from './run-status.js';
import { pullIsolated } from './isolated-pulls.js';
import { forgetUnavailable } from './collection-availability.js';
import type { RunQueue } from './run-queue.js';
import type { StatusFeed } from './status-feed.js';
import type { SyncPhase } from './status.js';
import type { SyncCycle } from './sync-cycle.js';
import { emptyReport, type SyncReport } from './sync-report.js';
import type { TokenGenerations } from './token-generations.js';

/** What {@link createSyncControl} drives. */
export interface SyncControlOptions {
  db: MirrorDb;
  env: SyncEnvironment;
  client: SyncClient;
  lifecycle: Lifecycle;
  queue: RunQueue;
  feed: StatusFeed;
  tokens: TokenGenerations;
  failures: FailurePolicy;
  elector: LeaderElector;
  puller: Puller;
  cycle: SyncCycle;
  collections: readonly CollectionName[];
  pollIntervalMs: number;
  /** The phase at rest now. */
  restingPhase(): SyncPhase;
  /** Ends what outlives a stop (pollers, the status feed, the database), last thing in `close()`. */
  release(): void;
}

/** Starting, stopping and running sync: the half of the mirror that talks to the server. */
export interface SyncControl {
  start(): Promise<void>;
  stop(): Promise<void>;
  close(): Promise<void>;
  syncNow(opts?: { collections?: CollectionName[] }): Promise<SyncReport>;
  resync(opts?: { collections?: CollectionName[] }): Promise<void>;
  reconcile(opts?: { collections?: CollectionName[] }): Promise<ReconcileReport[]>;
  setToken(token: string): void;
  /** Asks for a push soon (after a local edit, or when the outbox grew in another tab). */
  nudge(): void;
  /** Told by the elector when this instance becomes or stops being the leader. */
  onLeaderChange(leader: boolean): void;
  /** Throws when the mirror is closed, naming the call. */
  assertOpen(what: string): void;
}

const abort = (message: string) => new DOMException(message, 'AbortError');

/**
 * Creates the {@link SyncControl}. The lifecycle's state decides what each call does (see
 * `lifecycle.ts`); every pull and push goes through the run queue, one at a time.
 */
export function createSyncControl(o: SyncControlOptions): SyncControl {
  const { lifecycle, queue, feed, elector, env, failures } = o;
  let stopping: Promise<void> | undefined;
  let closing: Promise<void> | undefined;

  const scheduler = createScheduler({
    env,
    intervalMs: o.pollIntervalMs,
    onFailure: failures.onFailure,
    run: (signal) => queue.run(() => runCycle(signal)).then(() => undefined),
  });
  const pushSoon = createPushSoon({
    env,
    queue,
    mayPush: () => lifecycle.running && elector.isLeader,
    paused: () => scheduler.paused,
    push: (signal) => o.tokens.track(() => o.cycle.pushPending(signal)),
    // Paused, not stopped, so that `setToken` (through `resume`) brings the schedule back.
    onFailure: (error, signal) => pauseOn(failures.afterRun(error, signal)),
  });

  function pauseOn(action: 'retry' | 'pause'): void {
    if (action === 'pause') scheduler.pause();
  }

  function assertOpen(what: string): void {
    if (lifecycle.closed) throw new PosCloudError(`${what}: the mirror is closed`);
  }

  async function runCycle(signal: AbortSignal, only?: CollectionName[]): Promise<SyncReport> {
    let report: SyncReport;
    try {
      report = await o.tokens.track(() => o.cycle.run(signal, only));
    } catch (error) {
      // A run cut short on purpose: a status still saying it syncs goes back to rest.
      const phase = feed.status.value.phase;
      if ((signal.aborted || isAbort(error)) && (phase === 'syncing' || phase === 'initial-sync')) feed.set({ phase: o.restingPhase() });
      throw error;
    }
    feed.set({ phase: o.restingPhase(), lastSyncAt: report.finishedAt, lastError: undefined, ...collectionStatusAfter(feed.status.value, report) });
    return report;
  }

  /** The lifecycle has just moved to `running`: campaign, and sync once leading. */
  function beginRunning(): void {
    queue.begin();
    feed.set({ phase: o.restingPhase() });
    void env.persistStorage().catch(() => undefined);
    elector.start();
  }

  /** What `stop()` does to a running mirror (and `close()` to one): ends the schedule, the election and the runs under way. */
  function windDown(): Promise<void> {
    pushSoon.cancel();
    // A syncNow(), resync() or reconcile() called after this stop runs, as on a mirror never started.
    queue.renew(abort('mirror stopped'));
    const done = (async () => {
      await scheduler.stop();
      await elector.stop();
      await queue.settled();
      const { to } = lifecycle.send('stopped');
      if (!lifecycle.closed) feed.set({ phase: 'stopped', leader: false });
      // A start() came while this stop wound down, and no stop() after it.
      if (to === 'running') beginRunning();
    })();
    const tracked: Promise<void> = done.finally(() => {
      if (stopping === tracked) stopping = undefined;
    });
    stopping = tracked;
    return tracked;
  }

  /** Runs `fn` in its turn unless the lifetime it was called in has ended (stop, close, step down) by then. */
  function inTurn<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const called = queue.signal;
    return queue.run(async () => {
      called.throwIfAborted();
      return fn(queue.signal);
    });
  }

  /**
   * Reconcile sweeps of `collections`, each failing alone as a run's pulls do (a collection the
   * server lacks is marked unavailable, one failing alone shows in `status.failing`); throws when
   * every one failed on its own, or for a failure that is not about one collection.
   */
  async function sweepIsolated(collections: readonly CollectionName[], signal: AbortSignal): Promise<SyncReport> {
    const report = emptyReport(true, env.now(), collections);
    const isolation = { db: o.db, now: env.now, reconcileIntervalMs: 0, explicit: true, report };
    const { pulled, firstFailure } = await pullIsolated(collections, async (c) => void report.reconciled.push(await o.cycle.reconcile(c, signal)), isolation);
    feed.set(collectionStatusAfter(feed.status.value, report));
    if (pulled.length === 0 && firstFailure) throw firstFailure.error;
    return report;
  }

  function checkedCollections(what: string, only: CollectionName[] | undefined): readonly CollectionName[] {
    const collections = only ?? o.collections;
    collections.forEach((c) => assertCollection(c, what));
    return collections;
  }

  return {
    assertOpen,
    async start() {
      assertOpen('start');
      const { from, to } = lifecycle.send('start');
      // A stop() still winding down finishes first: it would otherwise stop what this start begins.
      if (to === 'restarting') await stopping;
      else if (from !== 'running') beginRunning();
    },
    stop() {
      const { from } = lifecycle.send('stop');
      if (from !== 'running') return stopping ?? Promise.resolve();
      return windDown();
    },
    close() {
      closing ??= (async () => {
        const { from } = lifecycle.send('close');
        await (from === 'running' ? windDown() : stopping);
        // A syncNow(), resync() or reconcile() of a mirror never started is not ended by a stop.
        queue.renew(abort('mirror closed'));
        await queue.drained();
        lifecycle.send('closed');
        o.release();
      })();
      return closing;
    },
    async syncNow(opts = {}) {
      assertOpen('syncNow');
      const only = opts.collections;
      if (only !== undefined) checkedCollections('syncNow', only);
      // Right after start() the election may not be decided yet: an undecided tab is no follower.
      if (lifecycle.running) await electionDecided(elector, env);
      assertOpen('syncNow');
      if (lifecycle.running && !elector.isLeader) return emptyReport(false, env.now(), []);
      // The lifetime the call was made in: a stop(), close() or step-down before its turn comes ends it.
      const called = queue.signal;
      let signal = called;
      try {
        const report = await queue.run(async () => {
          // Checked when its turn comes: a tab that follows another (or stepped down while waiting) does not run.
          if (lifecycle.running && !elector.isLeader) return undefined;
          called.throwIfAborted();
          signal = queue.signal;
          return runCycle(signal, only);
        });
        if (report === undefined) return emptyReport(false, env.now(), []);
        if (scheduler.paused) scheduler.resume();
        return report;
      } catch (error) {
        pauseOn(failures.afterRun(error, signal));
        throw error;
      }
    },
    async resync(opts = {}) {
      assertOpen('resync');
      const only = checkedCollections('resync', opts.collections);
      await inTurn(async (signal) => {
        // A collection the server lacked is asked again.
        await forgetUnavailable(o.db, only);
        for (const collection of only) await o.puller.reset(collection);
        await sweepIsolated(only, signal);
      });
    },
    async reconcile(opts = {}) {
      assertOpen('reconcile');
      const only = checkedCollections('reconcile', opts.collections);
      return inTurn(async (signal) => (await sweepIsolated(only, signal)).reconciled);
    },
    setToken(token) {
      if (typeof token !== 'string' || token.length === 0) {
        throw new ValidationError('setToken: the token must be a non-empty string', { issues: [{ path: ['token'], message: 'empty' }] });
      }
      if (!o.client.setToken) throw new PosCloudError('setToken: the client given to createMirror cannot change its token');
      o.client.setToken(token);
      o.tokens.bump();
      if (feed.status.value.phase === 'auth-error') feed.set({ phase: o.restingPhase(), lastError: undefined });
      scheduler.resume();
    },
    nudge: () => pushSoon.nudge(),
    onLeaderChange(leader) {
      // Another tab leads now: what this one still has under way (a push after an edit, a syncNow) stops too.
      if (!leader && lifecycle.running) queue.renew(abort('another tab or worker leads now'));
      feed.set({ leader, phase: lifecycle.running ? o.restingPhase() : feed.status.value.phase });
      if (leader && lifecycle.running) scheduler.start();
      if (!leader) void scheduler.stop();
    },
  };
}
