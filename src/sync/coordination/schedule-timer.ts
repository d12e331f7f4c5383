import type { SyncEnvironment } from './environment.js';

/**
 * The schedule's one pending wake-up. It holds the timer and nothing else: when the next run is
 * due (the interval, a backoff, or never while paused, offline or following) is the sync state
 * owner's to say, and what a wake-up does is its too.
 */
export interface ScheduleTimer {
  /** Wakes up after `ms`, replacing a wake-up set before; `undefined` clears it. */
  set(ms: number | undefined): void;
  clear(): void;
}

/** Creates a {@link ScheduleTimer} over the environment's timers that calls `wake` when it is due. */
export function createScheduleTimer(env: Pick<SyncEnvironment, 'setTimeout' | 'clearTimeout'>, wake: () => void): ScheduleTimer {
  let handle: unknown;
  const clear = () => {
    if (handle !== undefined) env.clearTimeout(handle);
    handle = undefined;
  };
  return {
    set(ms) {
      clear();
      if (ms === undefined) return;
      handle = env.setTimeout(() => {
        handle = undefined;
        wake();
      }, ms);
    },
    clear,
  };
}
