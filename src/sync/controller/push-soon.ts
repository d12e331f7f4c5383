import type { SyncEnvironment } from '../coordination/index.js';

/** A short pause that gathers a burst of edits into one push (ms). */
const GATHER_MS = 50;

/** Options of {@link createPushSoon}. */
export interface PushSoonOptions {
  env: SyncEnvironment;
  /** A push is wanted now: this instance is started, leads, and sync is not paused. */
  wanted(): boolean;
  /** Queues the push (the sync controller runs it in its turn, and asks again whether it may). */
  push(): void;
}

/** After a local edit, a started leader pushes soon instead of waiting for the next poll. */
export interface PushSoon {
  /** Asks for a push soon; a burst of calls makes one push. */
  request(): void;
  /** Forgets a push asked for and not begun (on `stop()`). */
  cancel(): void;
}

/** Creates a {@link PushSoon}: the timer that gathers a burst of edits; the push itself is the controller's. */
export function createPushSoon(options: PushSoonOptions): PushSoon {
  const { env } = options;
  let timer: unknown;

  return {
    request() {
      if (!options.wanted() || timer !== undefined) return;
      timer = env.setTimeout(() => {
        timer = undefined;
        options.push();
      }, GATHER_MS);
    },
    cancel() {
      if (timer !== undefined) env.clearTimeout(timer);
      timer = undefined;
    },
  };
}
