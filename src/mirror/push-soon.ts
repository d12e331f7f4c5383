import type { SyncEnvironment } from '../sync/coordination/index.js';
import type { RunQueue } from './run-queue.js';

/** A short pause that gathers a burst of edits into one push (ms). */
const GATHER_MS = 50;

/** Options of {@link createPushSoon}. */
export interface PushSoonOptions {
  env: SyncEnvironment;
  queue: RunQueue;
  /** This instance may push now: started and leading. Asked when nudged and again when the push's turn comes. */
  mayPush(): boolean;
  /** The schedule is paused (an auth or storage failure): no push until it resumes. */
  paused(): boolean;
  /** The push: pending edits out, and what landed read back. */
  push(signal: AbortSignal): Promise<void>;
  /** Told of a failed push, with the signal it ran with. */
  onFailure(error: unknown, signal: AbortSignal): void;
}

/** After a local edit, a started leader pushes soon instead of waiting for the next poll. */
export interface PushSoon {
  /** Asks for a push soon; a burst of calls makes one push. */
  nudge(): void;
  /** Forgets a push asked for and not begun (on `stop()`). */
  cancel(): void;
}

/** Creates a {@link PushSoon}: the push runs through the run queue, after what is under way. */
export function createPushSoon(options: PushSoonOptions): PushSoon {
  const { env, queue } = options;
  let timer: unknown;

  return {
    nudge() {
      if (!options.mayPush() || options.paused() || timer !== undefined) return;
      timer = env.setTimeout(() => {
        timer = undefined;
        void queue.run(async () => {
          // Asked again when its turn comes: this tab may have stopped or stepped down meanwhile.
          if (!options.mayPush()) return;
          const signal = queue.signal;
          try {
            await options.push(signal);
          } catch (error) {
            options.onFailure(error, signal);
          }
        });
      }, GATHER_MS);
    },
    cancel() {
      if (timer !== undefined) env.clearTimeout(timer);
      timer = undefined;
    },
  };
}
