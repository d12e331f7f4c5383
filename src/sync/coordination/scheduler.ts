import { NetworkError } from '../../errors/index.js';
import type { SyncEnvironment } from './environment.js';

/** How the scheduler should carry on after a failed run. */
export type FailureAction = 'retry' | 'pause';

/** Options of {@link createScheduler}. */
export interface SchedulerOptions {
  env: SyncEnvironment;
  /** One sync run. */
  run: (signal: AbortSignal) => Promise<void>;
  /** Delay between successful runs (ms). */
  intervalMs: number;
  /** First delay after a failure (ms), doubled per consecutive failure. @default 1_000 */
  backoffBaseMs?: number;
  /** Longest delay after failures (ms). @default 300_000 */
  backoffMaxMs?: number;
  /**
   * Decides whether a failure is retried with backoff or pauses the schedule until `resume()`.
   * Not called for a run that `stop()` cut short. When it throws, the failure is retried.
   */
  onFailure: (error: unknown) => FailureAction;
  random?: () => number;
}

/** Runs sync on a schedule: at an interval, at once on demand, with backoff after failures. */
export interface Scheduler {
  /** Starts the schedule with a run now. */
  start(): void;
  /**
   * Stops the schedule and aborts a run in progress; resolves when it has ended. A run cut short
   * this way is not a failure: `onFailure` is not told and the backoff does not grow.
   */
  stop(): Promise<void>;
  /** Runs now (or right after the run in progress) and resolves when that run ends. */
  trigger(): Promise<void>;
  /** Pauses the schedule as a failed run's `'pause'` does: no run until `resume()`. */
  pause(): void;
  /** Leaves a pause (after an auth failure fixed by a new token, say) and runs now. */
  resume(): void;
  readonly running: boolean;
  readonly paused: boolean;
}

/**
 * Creates a {@link Scheduler}. Runs never overlap: a trigger during a run queues one more run.
 * While the environment reports offline, nothing runs; coming back online runs at once. Nothing
 * a callback throws ends the schedule: a throwing `onFailure` counts as `'retry'`.
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
  return new Schedule(options);
}

/** A waiter of {@link Scheduler.trigger}: settled by the run that starts after it asked. */
interface Waiter {
  resolve: () => void;
  reject: (e: unknown) => void;
}

/** The {@link Scheduler}: one run at a time, then the next after the interval or the backoff. */
class Schedule implements Scheduler {
  readonly #options: SchedulerOptions;
  readonly #env: SyncEnvironment;
  #running = false;
  #paused = false;
  /** Consecutive failed runs: the backoff grows with them. */
  #failures = 0;
  #timer: unknown;
  #current: Promise<void> | undefined;
  #controller: AbortController | undefined;
  /** A trigger came during a run: one more run follows it. */
  #again = false;
  #waiters: Waiter[] = [];
  #unsubscribe: (() => void)[] = [];

  constructor(options: SchedulerOptions) {
    this.#options = options;
    this.#env = options.env;
  }

  get running(): boolean {
    return this.#running;
  }

  get paused(): boolean {
    return this.#paused;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#paused = false;
    const kickIfDue = () => {
      if (this.#running && !this.#paused) void this.#kick().catch(() => undefined);
    };
    this.#unsubscribe = [
      this.#env.onConnectivity((online) => {
        if (online) kickIfDue();
      }),
      this.#env.onVisible(kickIfDue),
    ];
    void this.#kick().catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#clearTimer();
    for (const u of this.#unsubscribe) u();
    this.#unsubscribe = [];
    this.#again = false;
    this.#controller?.abort(new DOMException('sync stopped', 'AbortError'));
    await this.#current?.catch(() => undefined);
  }

  trigger(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      if (this.#current) this.#again = true;
      else void this.#kick().catch(() => undefined);
    });
  }

  pause(): void {
    this.#paused = true;
    this.#clearTimer();
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    this.#failures = 0;
    if (this.#running) void this.#kick().catch(() => undefined);
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) this.#env.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(ms: number): void {
    this.#clearTimer();
    if (this.#running && !this.#paused) this.#timer = this.#env.setTimeout(() => void this.#kick().catch(() => undefined), ms);
  }

  /** Runs now, or, while a run is under way, once more right after it. */
  #kick(): Promise<void> {
    if (this.#current) {
      this.#again = true;
      return this.#current;
    }
    this.#clearTimer();
    const settled = this.#waiters;
    this.#waiters = [];
    this.#controller = new AbortController();
    this.#current = this.#runOnce(this.#controller.signal, settled);
    return this.#current;
  }

  async #runOnce(signal: AbortSignal, settled: readonly Waiter[]): Promise<void> {
    // Yield once so that `current` is assigned before anything below can clear it.
    await Promise.resolve();
    let failure: unknown;
    let failed = false;
    try {
      if (!this.#env.isOnline()) throw new OfflineSignal();
      await this.#options.run(signal);
      this.#failures = 0;
    } catch (error) {
      failed = true;
      failure = error;
    }
    this.#current = undefined;
    // A run that stop() cut short is not a failure: no report, no backoff.
    const counted = failed && !(failure instanceof OfflineSignal) && !signal.aborted;
    if (counted) {
      this.#failures++;
      if (this.#decide(failure) === 'pause') this.#paused = true;
    }
    for (const w of settled) {
      if (failed) w.reject(failure);
      else w.resolve();
    }
    if (this.#again) {
      this.#again = false;
      void this.#kick().catch(() => undefined);
    } else if (counted) this.#schedule(this.#backoff());
    else if (!(failure instanceof OfflineSignal)) this.#schedule(this.#options.intervalMs);
  }

  /** Full jitter: a random delay up to the exponential bound spreads retries of many clients. */
  #backoff(): number {
    const base = this.#options.backoffBaseMs ?? 1_000;
    const max = this.#options.backoffMaxMs ?? 300_000;
    const bound = Math.min(max, base * 2 ** Math.min(this.#failures - 1, 20));
    return Math.max(base / 2, (this.#options.random ?? Math.random)() * bound);
  }

  /** `onFailure`'s answer; a callback that throws (a status observer, say) must not end the schedule. */
  #decide(failure: unknown): FailureAction {
    try {
      return this.#options.onFailure(failure);
    } catch {
      return 'retry';
    }
  }
}

/** A run skipped because the runtime is offline: no backoff, the `online` event resumes. */
class OfflineSignal extends NetworkError {
  constructor() {
    super('offline: the runtime reports no network, sync resumes when it comes back');
  }
}
