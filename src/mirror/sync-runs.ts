import type { MirrorDb } from '../db/mirror-db.js';
import { PosCloudError, ValidationError } from '../errors/index.js';
import type { CollectionName } from '../schema/collections.js';
import type { LeaderElector, Scheduler, SyncEnvironment } from '../sync/coordination/index.js';
import { assertCollection } from '../sync/outbox/index.js';
import type { Puller, ReconcileReport } from '../sync/pull/index.js';
import type { SyncClient } from '../sync/index.js';
import { forgetUnavailable } from './collection-availability.js';
import { isAbort } from './failure-kinds.js';
import type { FailurePolicy } from './failure-policy.js';
import { pullIsolated } from './isolated-pulls.js';
import { electionDecided } from './leadership.js';
import type { Lifecycle } from './lifecycle.js';
import type { RunQueue } from './run-queue.js';
import { collectionStatusAfter } from './run-status.js';
import type { StatusFeed } from './status-feed.js';
import type { SyncPhase } from './status.js';
import type { SyncCycle } from './sync-cycle.js';
import { emptyReport, type SyncReport } from './sync-report.js';
import type { TokenGenerations } from './token-generations.js';

/** The parts of a mirror the runs and the sync control work with. */
export interface MirrorParts {
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
  /** The phase at rest now. */
  restingPhase(): SyncPhase;
}

/** What {@link createSyncRuns} works with: the mirror's parts, its schedule, and the check that it is open. */
export interface SyncRunsOptions extends MirrorParts {
  /** The schedule, paused by a failure only the app can fix and resumed by a run that succeeds or a new token. */
  schedule: Pick<Scheduler, 'paused' | 'pause' | 'resume'>;
  /** Throws when the mirror is closed, naming the call. */
  assertOpen(what: string): void;
}

/** The runs of a mirror: the scheduled one, and those the app asks for. */
export interface SyncRuns {
  /** One full run (pull, push, read back, sweeps when due), reflected in the status. */
  run(signal: AbortSignal, only?: CollectionName[]): Promise<SyncReport>;
  syncNow(opts?: { collections?: CollectionName[] }): Promise<SyncReport>;
  resync(opts?: { collections?: CollectionName[] }): Promise<void>;
  reconcile(opts?: { collections?: CollectionName[] }): Promise<ReconcileReport[]>;
  setToken(token: string): void;
  /** Pauses the schedule when a failed run's action says so. */
  pauseOn(action: 'retry' | 'pause'): void;
}

/** Creates the {@link SyncRuns}: each goes through the run queue, after what is under way. */
export function createSyncRuns(o: SyncRunsOptions): SyncRuns {
  const { lifecycle, queue, feed, elector, env, schedule, assertOpen } = o;

  const pauseOn = (action: 'retry' | 'pause') => {
    if (action === 'pause') schedule.pause();
  };

  async function run(signal: AbortSignal, only?: CollectionName[]): Promise<SyncReport> {
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

  async function syncNow(opts: { collections?: CollectionName[] } = {}): Promise<SyncReport> {
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
        return run(signal, only);
      });
      if (report === undefined) return emptyReport(false, env.now(), []);
      if (schedule.paused) schedule.resume();
      return report;
    } catch (error) {
      pauseOn(o.failures.afterRun(error, signal));
      throw error;
    }
  }

  return {
    run,
    syncNow,
    pauseOn,
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
      schedule.resume();
    },
  };
}
