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
  const { env } = options;
  const base = options.backoffBaseMs ?? 1_000;
  const max = options.backoffMaxMs ?? 300_000;
  const random = options.random ?? Math.random;
  let running = false;
  let paused = false;
  let failures = 0;
  let timer: unknown;
  let current: Promise<void> | undefined;
  let controller: AbortController | undefined;
  let again = false;
  let waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  let unsubscribe: (() => void)[] = [];

  function schedule(ms: number): void {
    if (timer !== undefined) env.clearTimeout(timer);
    timer = running && !paused ? env.setTimeout(() => void kick().catch(() => undefined), ms) : undefined;
  }

  async function kick(): Promise<void> {
    if (current) {
      again = true;
      return current;
    }
    if (timer !== undefined) env.clearTimeout(timer);
    timer = undefined;
    const settled = waiters;
    waiters = [];
    controller = new AbortController();
    const signal = controller.signal;
    current = (async () => {
      // Yield once so that `current` is assigned before anything below can clear it.
      await null;
      let failure: unknown;
      let failed = false;
      try {
        if (!env.isOnline()) throw new OfflineSignal();
        await options.run(signal);
        failures = 0;
      } catch (error) {
        failed = true;
        failure = error;
      }
      current = undefined;
      // A run that stop() cut short is not a failure: no report, no backoff.
      const counted = failed && !(failure instanceof OfflineSignal) && !signal.aborted;
      if (counted) {
        failures++;
        if (decide(failure) === 'pause') paused = true;
      }
      for (const w of settled) failed ? w.reject(failure) : w.resolve();
      if (again) {
        again = false;
        void kick().catch(() => undefined);
        return;
      }
      if (counted) {
        // Full jitter: a random delay up to the exponential bound spreads retries of many clients.
        const bound = Math.min(max, base * 2 ** Math.min(failures - 1, 20));
        schedule(Math.max(base / 2, random() * bound));
      } else if (!(failure instanceof OfflineSignal)) schedule(options.intervalMs);
    })();
    return current;
  }

  /** `onFailure`'s answer; a callback that throws (a status observer, say) must not end the schedule. */
  function decide(failure: unknown): FailureAction {
    try {
      return options.onFailure(failure);
    } catch {
      return 'retry';
    }
  }

  return {
    get running() {
      return running;
    },
    get paused() {
      return paused;
    },
    start() {
      if (running) return;
      running = true;
      paused = false;
      unsubscribe = [
        env.onConnectivity((online) => {
          if (online && running && !paused) void kick().catch(() => undefined);
        }),
        env.onVisible(() => {
          if (running && !paused) void kick().catch(() => undefined);
        }),
      ];
      void kick().catch(() => undefined);
    },
    async stop() {
      running = false;
      if (timer !== undefined) env.clearTimeout(timer);
      timer = undefined;
      for (const u of unsubscribe) u();
      unsubscribe = [];
      again = false;
      controller?.abort(new DOMException('sync stopped', 'AbortError'));
      await current?.catch(() => undefined);
    },
    trigger() {
      return new Promise<void>((resolve, reject) => {
        waiters.push({ resolve, reject });
        if (current) again = true;
        else void kick().catch(() => undefined);
      });
    },
    pause() {
      paused = true;
      if (timer !== undefined) env.clearTimeout(timer);
      timer = undefined;
    },
    resume() {
      if (!paused) return;
      paused = false;
      failures = 0;
      if (running) void kick().catch(() => undefined);
    },
  };
}

/** A run skipped because the runtime is offline: no backoff, the `online` event resumes. */
class OfflineSignal extends NetworkError {
  constructor() {
    super('offline: the runtime reports no network, sync resumes when it comes back');
  }
}
