import type { MirrorDb } from '../db/mirror-db.js';
import { PosCloudError, ValidationError } from '../errors/index.js';
import type { CollectionName } from '../schema/collections.js';
import type { LeaderElector, Scheduler, SyncEnvironment } from '../sync/coordination/index.js';
import { assertCollection } from '../sync/outbox/index.js';
import type { Puller, ReconcileReport } from '../sync/pull/index.js';
import type { SyncClient } from '../sync/index.js';
import { forgetUnavailable } from './collection-availability.js';
import { isAbort, quotaError } from './failure-kinds.js';
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
  const pauseOn = (action: 'retry' | 'pause') => {
    if (action === 'pause') o.schedule.pause();
  };
  return {
    run: (signal, only) => runOnce(o, signal, only),
    syncNow: (opts = {}) => syncNow(o, opts, pauseOn),
    pauseOn,
    async resync(opts = {}) {
      o.assertOpen('resync');
      const only = checkedCollections(o, 'resync', opts.collections);
      await inTurn(o.queue, async (signal) => {
        // A collection the server lacked is asked again.
        await forgetUnavailable(o.db, only);
        for (const collection of only) await o.puller.reset(collection);
        await sweepIsolated(o, only, signal);
      });
    },
    async reconcile(opts = {}) {
      o.assertOpen('reconcile');
      const only = checkedCollections(o, 'reconcile', opts.collections);
      return inTurn(o.queue, async (signal) => (await sweepIsolated(o, only, signal)).reconciled);
    },
    setToken: (token) => setToken(o, token),
  };
}

/** One full run, reflected in the status: back to rest after it, or after it was cut short on purpose. */
async function runOnce(o: SyncRunsOptions, signal: AbortSignal, only?: CollectionName[]): Promise<SyncReport> {
  const { feed } = o;
  let report: SyncReport;
  try {
    report = await o.tokens.track(() => o.cycle.run(signal, only));
  } catch (error) {
    // A run cut short on purpose: a status still saying it syncs goes back to rest.
    const phase = feed.status.value.phase;
    if ((signal.aborted || isAbort(error)) && (phase === 'syncing' || phase === 'initial-sync')) feed.set({ phase: o.restingPhase() });
    // Storage full: the engine's QuotaExceededError, the same in every engine (see `quotaError`).
    throw quotaError(error) ?? error;
  }
  feed.set({ phase: o.restingPhase(), lastSyncAt: report.finishedAt, lastError: undefined, ...collectionStatusAfter(feed.status.value, report) });
  return report;
}

/** Runs `fn` in its turn unless the lifetime it was called in has ended (stop, close, step down) by then. */
function inTurn<T>(queue: RunQueue, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
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
async function sweepIsolated(o: SyncRunsOptions, collections: readonly CollectionName[], signal: AbortSignal): Promise<SyncReport> {
  const report = emptyReport(true, o.env.now(), collections);
  const isolation = { db: o.db, now: () => o.env.now(), reconcileIntervalMs: 0, explicit: true, report };
  const { pulled, firstFailure } = await pullIsolated(collections, async (c) => void report.reconciled.push(await o.cycle.reconcile(c, signal)), isolation);
  o.feed.set(collectionStatusAfter(o.feed.status.value, report));
  if (pulled.length === 0 && firstFailure) throw firstFailure.error;
  return report;
}

/** The collections a call names (else every mirrored one), each checked. */
function checkedCollections(o: SyncRunsOptions, what: string, only: CollectionName[] | undefined): readonly CollectionName[] {
  const collections = only ?? o.collections;
  collections.forEach((c) => assertCollection(c, what));
  return collections;
}

/** `mirror.syncNow()`: a run in its turn, in the leading tab or a mirror not started. */
async function syncNow(o: SyncRunsOptions, opts: { collections?: CollectionName[] }, pauseOn: (action: 'retry' | 'pause') => void): Promise<SyncReport> {
  const { lifecycle, queue, elector, env, schedule } = o;
  o.assertOpen('syncNow');
  const only = opts.collections;
  if (only !== undefined) checkedCollections(o, 'syncNow', only);
  // Right after start() the election may not be decided yet: an undecided tab is no follower.
  if (lifecycle.running) await electionDecided(elector, env);
  o.assertOpen('syncNow');
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
      return runOnce(o, signal, only);
    });
    if (report === undefined) return emptyReport(false, env.now(), []);
    if (schedule.paused) schedule.resume();
    return report;
  } catch (error) {
    pauseOn(o.failures.afterRun(error, signal));
    throw error;
  }
}

/** `mirror.setToken()`: the client's new token, a new token generation, and a paused schedule resumed. */
function setToken(o: SyncRunsOptions, token: string): void {
  if (typeof token !== 'string' || token.length === 0) {
    throw new ValidationError('setToken: the token must be a non-empty string', { issues: [{ path: ['token'], message: 'empty' }] });
  }
  if (!o.client.setToken) throw new PosCloudError('setToken: the client given to createMirror cannot change its token');
  o.client.setToken(token);
  o.tokens.bump();
  if (o.feed.status.value.phase === 'auth-error') o.feed.set({ phase: o.restingPhase(), lastError: undefined });
  o.schedule.resume();
}
