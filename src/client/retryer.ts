import type { Sleep } from './client-options.js';

/** What a {@link createRetryer} needs to know; it knows nothing of what it retries. */
export interface RetryerConfig {
  /** Tries at most, the first included. */
  tries: number;
  /** Whether `error`, the `failures`-th failure, may be tried again. Unknown errors must answer false. */
  shouldRetry(error: unknown, failures: number): boolean;
  /** How long to wait before the next try. */
  delayFor(error: unknown, failures: number): number;
  /** Waits; must reject with the signal's reason when it aborts. */
  sleep: Sleep;
  /** Told before each wait (logging, metrics, tests). */
  onRetry?(error: unknown, failures: number, delayMs: number): void;
}

/** Runs one operation under a {@link RetryerConfig}. */
export type Retryer = <T>(attempt: (tryNumber: number) => Promise<T>, signal?: AbortSignal) => Promise<T>;

/**
 * Creates a retryer: runs `attempt` until it resolves, fails with an error `shouldRetry` refuses,
 * or the tries run out; then rejects with that last error, unchanged. An aborted signal ends the
 * loop at once with its reason, during a try's aftermath or a wait alike.
 */
export function createRetryer(config: RetryerConfig): Retryer {
  return async function run<T>(attempt: (tryNumber: number) => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let tryNumber = 1; ; tryNumber++) {
      if (signal?.aborted) throw signal.reason;
      try {
        return await attempt(tryNumber);
      } catch (error) {
        // An abort is the caller's decision, never a failure to retry.
        if (signal?.aborted) throw signal.reason;
        if (tryNumber >= config.tries || !config.shouldRetry(error, tryNumber)) throw error;
        const delay = Math.max(0, config.delayFor(error, tryNumber));
        config.onRetry?.(error, tryNumber, delay);
        await config.sleep(delay, signal);
      }
    }
  };
}
