import type { MirrorDb } from '../../db/mirror-db.js';
import { PosCloudError, ValidationError } from '../../errors/index.js';
import type { CollectionName } from '../../schema/collections.js';
import { createLeaderElector, createScheduleTimer, type LeaderElector, type ScheduleTimer, type SyncEnvironment } from '../coordination/index.js';
import {
  emptySyncReport,
  forgetUnavailable,
  isAbort,
  judgeFailure,
  judgeRunFailure,
  quotaError,
  runErrorFor,
  type CycleHooks,
  type FailureVerdict,
  type SyncCycle,
  type SyncReport,
} from '../cycle/index.js';
import type { ReconcileReport } from '../pull/index.js';
import type { SyncClient } from '../sync-client.js';
import { joinSignals, untilAborted, type CallerSignal } from '../caller-signal.js';
import { awaitsNetwork, CONNECTIVITY_RECHECK_MS, isScheduled, nextRunIn } from './next-run.js';
import { createPushSoon, type PushSoon } from './push-soon.js';
import { healthAfter, initialHealth, type CollectionHealth } from './collection-health.js';
import type { StatusPatch, StatusPort } from './status-port.js';
import { checkedCollections, sweepEach, type SweepParts } from './sweeps.js';
import { initialState, isClosed, isLeader, isRunning, isSyncingLeader, phaseOf, transition, type SyncEvent, type SyncState } from './sync-state.js';
import { TokenGenerations } from './token-generations.js';

/** How long `syncNow()` after `start()` waits for the election to be decided (ms). */
export const ELECTION_WAIT_MS = 5_000;

/** What {@link createSyncController} is built from. */
export interface SyncControllerOptions {
  db: MirrorDb;
  env: SyncEnvironment;
  client: SyncClient;
  collections: readonly CollectionName[];
  /** The mirror's status: the controller writes the phase, the leader and connectivity, derived from its state, and the collections' health; it never reads it. */
  feed: StatusPort;
  pollIntervalMs: number;
  /** The election's lock (one per database) and, where Web Locks are missing, its lease (ms). */
  leaderLockName: string;
  leaseMs: number;
  /** Builds the cycle the runs run, given the hooks through which it tells the controller and asks it. */
  cycle: (hooks: CycleHooks) => SyncCycle;
}

/** The one owner of the sync's state: starting, stopping, leading, pausing, and every run. */
export interface SyncController {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Ends the schedule, the election and every run; the status says `closed`. What outlives a stop is the caller's to end. */
  close(): Promise<void>;
  /** A run in its turn; the caller's `signal` ends it (see {@link CallerSignal}). */
  syncNow(opts?: { collections?: CollectionName[] } & CallerSignal): Promise<SyncReport>;
  resync(opts?: { collections?: CollectionName[] } & CallerSignal): Promise<void>;
  reconcile(opts?: { collections?: CollectionName[] } & CallerSignal): Promise<ReconcileReport[]>;
  setToken(token: string): void;
  /** The outbox has new pending entries (a local edit, or another tab's): the leader pushes soon. */
  outboxGrew(): void;
  /**
   * Runs `work`, a write to the mirror's outbox that is not a run (a take-over of another copy's
   * edits), in the queue: after the runs queued before it and before those queued after, so that
   * no push reads the outbox while it changes. Not ended by `stop()`: it is no sync.
   */
  inQueue<T>(work: () => Promise<T>, caller?: AbortSignal): Promise<T>;
  /** This instance is started and leads: it pushes what the outbox holds. */
  readonly pushesHere: boolean;
  /** Throws when the mirror is closed, naming the call. */
  assertOpen(what: string): void;
}

const abort = (message: string) => new DOMException(message, 'AbortError');

/**
 * Creates the {@link SyncController}. It owns one {@link SyncState} (lifecycle, leadership, pause,
 * the last run, connectivity) moved only by {@link transition}, and publishes `status.phase` and
 * `status.leader` derived from it; one queue, through which every pull and push runs one at a
 * time; and one abort mechanism, the term: `stop()`, `close()` and the loss of the lead end it,
 * aborting what it has under way, and what is called afterwards belongs to the next. The
 * schedule, the election and the push after an edit are collaborators it drives.
 */
export function createSyncController(options: SyncControllerOptions): SyncController {
  return new Controller(options);
}

/** The {@link SyncController} of one mirror. */
class Controller implements SyncController {
  readonly #o: SyncControllerOptions;
  #state: SyncState;
  /** The collections' health, as the runs and sweeps found it (`status.failing`, `status.refusing`). */
  #health: CollectionHealth = initialHealth();
  /** The queue's last run: the next one starts after it. */
  #tail: Promise<unknown> = Promise.resolve();
  /** The current term: aborted by `stop()`, `close()` and the loss of the lead. */
  #term = new AbortController();
  /** The wind-down of `stopping` (what a second `stop()` and a `start()` in `restarting` wait for). */
  #windingDown: Promise<void> | undefined;
  /** The work of `closing` (what a second `close()` returns). */
  #closing: Promise<void> | undefined;
  readonly #tokens = new TokenGenerations();
  readonly #elector: LeaderElector;
  /** The schedule's wake-up: set and cleared as the state says, it keeps no state of its own. */
  readonly #timer: ScheduleTimer;
  /** A scheduled run waits in the queue: a wake-up meanwhile adds no second one. */
  #scheduledRunQueued = false;
  readonly #pushSoon: PushSoon;
  readonly #cycle: SyncCycle;
  /** The one subscription to connectivity and the one to visibility. */
  readonly #unsubscribe: (() => void)[];

  constructor(o: SyncControllerOptions) {
    this.#o = o;
    const { env } = o;
    this.#state = initialState(env.isOnline());
    this.#cycle = o.cycle({
      onRunStart: (initial) => this.#send(initial ? 'initial-run-began' : 'run-began', { lastError: undefined }),
      requireLead: (signal) => this.#requireLead(signal),
    });
    this.#elector = createLeaderElector({ db: o.db, name: o.leaderLockName, env, leaseMs: o.leaseMs, onOutcome: (leader) => this.#electionSaid(leader) });
    this.#timer = createScheduleTimer(env, () => this.#wake());
    this.#pushSoon = createPushSoon({
      env,
      wanted: () => isSyncingLeader(this.#state) && this.#state.pause === undefined,
      push: () => void this.#pushPending(),
    });
    this.#unsubscribe = [
      env.onConnectivity((online) => {
        const { before } = this.#send(online ? 'online' : 'offline');
        // Back online runs at once, also when the state already said online (a run failing on the
        // network with a long backoff, in an engine that changed `navigator.onLine` without an event).
        if (online && isScheduled(before)) this.#runScheduled();
      }),
      // A page shown again runs at once: its timers may have been throttled while hidden.
      env.onVisible(() => {
        if (isScheduled(this.#state)) this.#runScheduled();
      }),
    ];
    o.feed.set({ phase: phaseOf(this.#state), online: this.#state.online, leader: false });
  }

  get pushesHere(): boolean {
    return isSyncingLeader(this.#state);
  }

  assertOpen(what: string): void {
    if (isClosed(this.#state)) throw new PosCloudError(`${what}: the mirror is closed`);
  }

  async start(): Promise<void> {
    this.assertOpen('start');
    const { before, after } = this.#send('start');
    // A stop() still winding down finishes first: it would otherwise stop what this start begins.
    if (after.lifecycle === 'restarting') await this.#windingDown;
    else if (before.lifecycle !== 'running') this.#beginRunning();
  }

  stop(): Promise<void> {
    const { before } = this.#send('stop');
    if (before.lifecycle !== 'running') return this.#windingDown ?? Promise.resolve();
    return this.#windDown();
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      const { before } = this.#send('close');
      await (before.lifecycle === 'running' ? this.#windDown() : this.#windingDown);
      // A syncNow(), resync() or reconcile() of a mirror never started is not ended by a stop.
      this.#endTerm('mirror closed');
      await this.#drained();
      for (const unsubscribe of this.#unsubscribe) unsubscribe();
      this.#send('closed');
    })();
    return this.#closing;
  }

  outboxGrew(): void {
    this.#pushSoon.request();
  }

  inQueue<T>(work: () => Promise<T>, caller?: AbortSignal): Promise<T> {
    caller?.throwIfAborted();
    let begun = false;
    const turn = this.#enqueue(() => {
      begun = true;
      return work();
    });
    return untilAborted(turn, caller, () => begun);
  }

  /** `mirror.syncNow()`: a run in its turn, in the leading tab or a mirror not started. */
  async syncNow(opts: { collections?: CollectionName[] } & CallerSignal = {}): Promise<SyncReport> {
    this.assertOpen('syncNow');
    const { signal: caller } = opts;
    caller?.throwIfAborted();
    const only = opts.collections;
    if (only !== undefined) checkedCollections(this.#sweepParts(), 'syncNow', only);
    // The term the call was made in: a stop(), close() or step-down before its turn comes ends it,
    // also one that comes while the call waits for the election below.
    const called = this.#term.signal;
    // Right after start() the election may not be decided yet: an undecided tab is no follower.
    if (isRunning(this.#state)) await untilAborted(this.#electionDecided(), caller);
    this.assertOpen('syncNow');
    const follows = () => isRunning(this.#state) && !isLeader(this.#state);
    if (follows()) return emptySyncReport(false, this.#o.env.now(), []);
    let signal = called;
    let begun = false;
    try {
      const run = this.#enqueue(async () => {
        // Checked when its turn comes: a tab that follows another (or stepped down while waiting) does not run.
        if (follows()) return undefined;
        called.throwIfAborted();
        caller?.throwIfAborted();
        begun = true;
        const joined = joinSignals(this.#term.signal, caller);
        signal = joined.signal;
        try {
          return await this.#runOnce(signal, only);
        } finally {
          joined.release();
        }
      });
      const report = await untilAborted(run, caller, () => begun);
      return report ?? emptySyncReport(false, this.#o.env.now(), []);
    } catch (error) {
      // A call its caller aborted is cut short on purpose, and ends with the caller's reason.
      this.#failed(caller?.aborted ? { event: 'run-cut' } : judgeRunFailure(error, signal, this.#failureContext()));
      caller?.throwIfAborted();
      throw runErrorFor(error, this.#o.db);
    }
  }

  async resync(opts: { collections?: CollectionName[] } & CallerSignal = {}): Promise<void> {
    this.assertOpen('resync');
    const parts = this.#sweepParts();
    const only = checkedCollections(parts, 'resync', opts.collections);
    await this.#inTurn(async (signal) => {
      // A collection the server lacked is asked again.
      await forgetUnavailable(this.#o.db, only);
      for (const collection of only) await this.#cycle.reset(collection);
      await sweepEach(parts, only, signal);
    }, opts.signal);
  }

  async reconcile(opts: { collections?: CollectionName[] } & CallerSignal = {}): Promise<ReconcileReport[]> {
    this.assertOpen('reconcile');
    const parts = this.#sweepParts();
    const only = checkedCollections(parts, 'reconcile', opts.collections);
    return this.#inTurn(async (signal) => (await sweepEach(parts, only, signal)).reconciled, opts.signal);
  }

  /** `mirror.setToken()`: the client's new token, a new token generation, and an auth-error pause ended. */
  setToken(token: string): void {
    if (typeof token !== 'string' || token.length === 0) {
      throw new ValidationError('setToken: the token must be a non-empty string', { issues: [{ path: ['token'], message: 'empty' }] });
    }
    const { client } = this.#o;
    if (!client.setToken) throw new PosCloudError('setToken: the client given to createMirror cannot change its token');
    client.setToken(token);
    this.#tokens.bump();
    // A new token ends an auth-error pause only (the schedule resumes with it): full storage waits for a run that succeeds.
    this.#send('token', this.#state.pause === 'auth-error' ? { lastError: undefined } : {});
  }

  /**
   * Moves the state by `event` and publishes what changed: the phase and the leader derived from
   * the new state, with `patch` (the run's facts: its error, its time, its collections). The
   * schedule follows the state: it runs at once when it begins to run (the lead won, a pause
   * ended, the network back), and its timer is cleared when it stops (following, paused, offline,
   * stopped).
   */
  #send(event: SyncEvent, patch: StatusPatch = {}): { before: SyncState; after: SyncState } {
    const before = this.#state;
    const after = transition(before, event);
    this.#state = after;
    const out: StatusPatch = { ...patch };
    if (phaseOf(after) !== phaseOf(before)) out.phase = phaseOf(after);
    if (isLeader(after) !== isLeader(before)) out.leader = isLeader(after);
    if (after.online !== before.online) out.online = after.online;
    if (awaitsNetwork(after)) {
      if (!awaitsNetwork(before)) this.#timer.set(CONNECTIVITY_RECHECK_MS);
    } else if (!isScheduled(after)) this.#timer.clear();
    if (Object.keys(out).length > 0) this.#o.feed.set(out);
    if (isScheduled(after) && !isScheduled(before)) this.#runScheduled();
    return { before, after };
  }

  /** Runs `fn` after every run queued before it; its failure does not stop the queue. */
  #enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(fn, fn);
    this.#tail = result.catch(() => undefined);
    return result;
  }

  /**
   * Runs `fn` in its turn, with the term's signal joined to the caller's, unless the term it was
   * called in (or the caller) has ended by then; a caller's abort ends it with the caller's reason:
   * at once while it waits, else once `fn` has stopped.
   */
  async #inTurn<T>(fn: (signal: AbortSignal) => Promise<T>, caller: AbortSignal | undefined): Promise<T> {
    caller?.throwIfAborted();
    const called = this.#term.signal;
    let begun = false;
    const turn = this.#enqueue(async () => {
      called.throwIfAborted();
      caller?.throwIfAborted();
      begun = true;
      const joined = joinSignals(this.#term.signal, caller);
      try {
        return await fn(joined.signal);
      } finally {
        joined.release();
      }
    });
    try {
      return await untilAborted(turn, caller, () => begun);
    } catch (error) {
      caller?.throwIfAborted();
      throw error;
    }
  }

  /** Aborts what the current term has under way (with a reason that says why) and begins the next. */
  #endTerm(why: string): void {
    this.#term.abort(abort(why));
    this.#term = new AbortController();
  }

  /** Resolves once the queue is empty, runs queued while waiting included. */
  async #drained(): Promise<void> {
    for (let last: unknown; last !== this.#tail; ) {
      last = this.#tail;
      await last;
    }
  }

  /** One full run, reflected in the state: back to rest after it, or after it was cut short on purpose. */
  async #runOnce(signal: AbortSignal, only?: CollectionName[]): Promise<SyncReport> {
    let report: SyncReport;
    try {
      report = await this.#tokens.track(() => this.#cycle.run(signal, only));
    } catch (error) {
      if (signal.aborted || isAbort(error)) this.#send('run-cut');
      // Storage full: the engine's QuotaExceededError, the same in every engine (see `quotaError`).
      throw quotaError(error) ?? error;
    }
    // The runtime's connectivity is read again as a run ends, as after a failure: an engine may
    // change `navigator.onLine` without an event (Firefox, for a tab loaded while offline).
    this.#followConnectivity();
    // A run that succeeds ends a pause: the schedule carries on.
    this.#send('run-succeeded', { lastSyncAt: report.finishedAt, lastError: undefined, ...this.#found(report) });
    return report;
  }

  /** The push after an edit, in its turn: asked again then, since this tab may have stopped or stepped down meanwhile. */
  #pushPending(): Promise<void> {
    return this.#enqueue(async () => {
      if (!isSyncingLeader(this.#state)) return;
      const signal = this.#term.signal;
      try {
        await this.#tokens.track(() => this.#cycle.pushPending(signal));
      } catch (error) {
        // Paused, not stopped, so that `setToken` brings the schedule back.
        this.#failed(judgeRunFailure(error, signal, this.#failureContext()));
      }
    });
  }

  /** Applies a failed run's verdict to the state (a pause there stops the schedule). */
  #failed(verdict: FailureVerdict): void {
    if (verdict.event === 'run-failed') this.#followConnectivity();
    this.#send(verdict.event, verdict.lastError ? { lastError: verdict.lastError } : {});
  }

  /** The schedule's timer is due: a run, or, while the state says offline, a second look at connectivity. */
  #wake(): void {
    if (isScheduled(this.#state)) return this.#runScheduled();
    this.#followConnectivity();
    // Still offline: look again later. Back online, the state's move has queued the run.
    if (awaitsNetwork(this.#state)) this.#timer.set(CONNECTIVITY_RECHECK_MS);
  }

  /**
   * A scheduled run, queued now (right after the run under way, if one is): one at a time, and
   * one waiting at most. In its turn it runs only if the schedule still runs then.
   */
  #runScheduled(): void {
    this.#timer.clear();
    if (this.#scheduledRunQueued) return;
    this.#scheduledRunQueued = true;
    const called = this.#term.signal;
    void this.#enqueue(async () => {
      this.#scheduledRunQueued = false;
      if (called.aborted || !isScheduled(this.#state)) return;
      const signal = this.#term.signal;
      let failed = false;
      try {
        // An engine may go offline without an event: skipped, and shown, until the `online` event runs again.
        if (!this.#o.env.isOnline()) return this.#followConnectivity();
        await this.#runOnce(signal);
      } catch (error) {
        // A run cut short on purpose is no failure and does not grow the backoff; nothing a status observer throws ends the schedule.
        if (!signal.aborted) {
          failed = true;
          try {
            this.#failed(judgeFailure(error, this.#failureContext()));
          } catch {
            // The failure is in the state by now: the schedule carries on with its backoff.
          }
        }
      }
      this.#timer.set(nextRunIn(this.#state, this.#o.pollIntervalMs, failed));
    });
  }

  /** Moves the state to the runtime's connectivity when they differ. */
  #followConnectivity(): void {
    const online = this.#o.env.isOnline();
    if (online !== this.#state.online) this.#send(online ? 'online' : 'offline');
  }

  #failureContext() {
    return { db: this.#o.db, isStale: (error: unknown) => this.#tokens.isStale(error), syncingLeader: isSyncingLeader(this.#state), closed: isClosed(this.#state) };
  }

  #sweepParts(): SweepParts {
    const { db, env, feed, collections } = this.#o;
    return { db, now: () => env.now(), found: (report) => feed.set(this.#found(report)), collections, reconcile: (c, signal) => this.#cycle.reconcile(c, signal) };
  }

  /** Moves the collections' health by what a run or a sweep found; returns it, for the status. */
  #found(report: SyncReport): CollectionHealth {
    this.#health = healthAfter(this.#health, report);
    return this.#health;
  }

  /** Told by the election each outcome of its campaign (outcomes repeat: the lease's renewals); the state says whether it changed anything. */
  #electionSaid(leader: boolean): void {
    if ((leader ? 'leader' : 'follower') === this.#state.election) return;
    // Another tab leads now: what this one still has under way (a push after an edit, a syncNow) stops too.
    if (!leader && isRunning(this.#state) && isLeader(this.#state)) this.#endTerm('another tab or worker leads now');
    this.#send(leader ? 'lead' : 'follow');
  }

  /**
   * Only the leader pushes. Checked right before each push and each batch POST of it: a started
   * tab that lost the lease (throttled, say) steps down here instead of posting what the new
   * leader posts too; a mirror not started (or stopped) pushes only when no other tab leads,
   * since that one pushes the same outbox.
   */
  async #requireLead(signal: AbortSignal | undefined): Promise<void> {
    const elector = this.#elector;
    if (isRunning(this.#state)) {
      if (!isLeader(this.#state) || !(await elector.confirm())) throw signal?.aborted ? signal.reason : abort('not the leader any more');
    } else if (!isLeader(this.#state) && (await elector.heldByAnother())) throw abort('another tab or worker leads and pushes');
  }

  /** Waits, at most {@link ELECTION_WAIT_MS}, until the first campaign since `start()` has an outcome. */
  async #electionDecided(): Promise<void> {
    const { env } = this.#o;
    let timer: unknown;
    await Promise.race([this.#elector.decided(), new Promise<void>((resolve) => (timer = env.setTimeout(resolve, ELECTION_WAIT_MS)))]);
    env.clearTimeout(timer);
  }

  /** The lifecycle has just moved to `running`: a new term; campaign, and sync once leading. */
  #beginRunning(): void {
    this.#term = new AbortController();
    this.#elector.start();
  }

  /** What `stop()` does to a running mirror (and `close()` to one): ends the schedule, the election and the runs under way. */
  #windDown(): Promise<void> {
    this.#pushSoon.cancel();
    // A syncNow(), resync() or reconcile() called after this stop runs, as on a mirror never started.
    this.#endTerm('mirror stopped');
    const done = (async () => {
      // The lead is given back once what runs has ended: another tab must not push beside it.
      await this.#tail;
      this.#send('resign');
      await this.#elector.stop();
      await this.#tail;
      const { after } = this.#send('stopped');
      // A start() came while this stop wound down, and no stop() after it.
      if (after.lifecycle === 'running') this.#beginRunning();
    })();
    const tracked: Promise<void> = done.finally(() => {
      if (this.#windingDown === tracked) this.#windingDown = undefined;
    });
    this.#windingDown = tracked;
    return tracked;
  }
}
