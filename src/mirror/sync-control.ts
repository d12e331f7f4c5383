import { PosCloudError } from '../errors/index.js';
import type { CollectionName } from '../schema/collections.js';
import { createScheduler, type Scheduler } from '../sync/coordination/index.js';
import type { ReconcileReport } from '../sync/pull/index.js';
import { createPushSoon, type PushSoon } from './push-soon.js';
import type { SyncReport } from './sync-report.js';
import { createSyncRuns, type MirrorParts, type SyncRuns } from './sync-runs.js';

/** What {@link createSyncControl} drives: the mirror's parts (as the runs use them), the schedule's interval, and what `close()` ends. */
export interface SyncControlOptions extends MirrorParts {
  pollIntervalMs: number;
  /** Ends what outlives a stop (pollers, the status feed, the database and its storage), last thing in `close()`. */
  release(): Promise<void>;
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
 * `lifecycle.ts`); every pull and push goes through the run queue, one at a time (the runs
 * themselves are in `sync-runs.ts`).
 */
export function createSyncControl(options: SyncControlOptions): SyncControl {
  return new Control(options);
}

/** The {@link SyncControl} of one mirror. */
class Control implements SyncControl {
  readonly #o: SyncControlOptions;
  readonly #scheduler: Scheduler;
  readonly #runs: SyncRuns;
  readonly #pushSoon: PushSoon;
  /** The stop winding down, if one is. */
  #stopping: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(o: SyncControlOptions) {
    this.#o = o;
    const { env, queue, lifecycle, elector, failures } = o;
    this.#scheduler = createScheduler({
      env,
      intervalMs: o.pollIntervalMs,
      onFailure: failures.onFailure,
      run: (signal) => queue.run(() => this.#runs.run(signal)).then(() => undefined),
    });
    this.#runs = createSyncRuns({ ...o, schedule: this.#scheduler, assertOpen: (what) => this.assertOpen(what) });
    this.#pushSoon = createPushSoon({
      env,
      queue,
      mayPush: () => lifecycle.running && elector.isLeader,
      paused: () => this.#scheduler.paused,
      push: (signal) => o.tokens.track(() => o.cycle.pushPending(signal)),
      // Paused, not stopped, so that `setToken` (through `resume`) brings the schedule back.
      onFailure: (error, signal) => this.#runs.pauseOn(failures.afterRun(error, signal)),
    });
  }

  assertOpen(what: string): void {
    if (this.#o.lifecycle.closed) throw new PosCloudError(`${what}: the mirror is closed`);
  }

  syncNow(opts?: { collections?: CollectionName[] }): Promise<SyncReport> {
    return this.#runs.syncNow(opts);
  }

  resync(opts?: { collections?: CollectionName[] }): Promise<void> {
    return this.#runs.resync(opts);
  }

  reconcile(opts?: { collections?: CollectionName[] }): Promise<ReconcileReport[]> {
    return this.#runs.reconcile(opts);
  }

  setToken(token: string): void {
    this.#runs.setToken(token);
  }

  nudge(): void {
    this.#pushSoon.nudge();
  }

  async start(): Promise<void> {
    this.assertOpen('start');
    const { from, to } = this.#o.lifecycle.send('start');
    // A stop() still winding down finishes first: it would otherwise stop what this start begins.
    if (to === 'restarting') await this.#stopping;
    else if (from !== 'running') this.#beginRunning();
  }

  stop(): Promise<void> {
    const { from } = this.#o.lifecycle.send('stop');
    if (from !== 'running') return this.#stopping ?? Promise.resolve();
    return this.#windDown();
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      const { lifecycle, queue } = this.#o;
      const { from } = lifecycle.send('close');
      await (from === 'running' ? this.#windDown() : this.#stopping);
      // A syncNow(), resync() or reconcile() of a mirror never started is not ended by a stop.
      queue.renew(abort('mirror closed'));
      await queue.drained();
      lifecycle.send('closed');
      await this.#o.release();
    })();
    return this.#closing;
  }

  onLeaderChange(leader: boolean): void {
    const { lifecycle, queue, feed } = this.#o;
    // Another tab leads now: what this one still has under way (a push after an edit, a syncNow) stops too.
    if (!leader && lifecycle.running) queue.renew(abort('another tab or worker leads now'));
    feed.set({ leader, phase: lifecycle.running ? this.#o.restingPhase() : feed.status.value.phase });
    if (leader && lifecycle.running) this.#scheduler.start();
    if (!leader) void this.#scheduler.stop();
  }

  /** The lifecycle has just moved to `running`: campaign, and sync once leading. */
  #beginRunning(): void {
    this.#o.queue.begin();
    this.#o.feed.set({ phase: this.#o.restingPhase() });
    void this.#o.env.persistStorage().catch(() => undefined);
    this.#o.elector.start();
  }

  /** What `stop()` does to a running mirror (and `close()` to one): ends the schedule, the election and the runs under way. */
  #windDown(): Promise<void> {
    const { lifecycle, queue, feed, elector } = this.#o;
    this.#pushSoon.cancel();
    // A syncNow(), resync() or reconcile() called after this stop runs, as on a mirror never started.
    queue.renew(abort('mirror stopped'));
    const done = (async () => {
      await this.#scheduler.stop();
      await elector.stop();
      await queue.settled();
      const { to } = lifecycle.send('stopped');
      if (!lifecycle.closed) feed.set({ phase: 'stopped', leader: false });
      // A start() came while this stop wound down, and no stop() after it.
      if (to === 'running') this.#beginRunning();
    })();
    const tracked: Promise<void> = done.finally(() => {
      if (this.#stopping === tracked) this.#stopping = undefined;
    });
    this.#stopping = tracked;
    return tracked;
  }
}
