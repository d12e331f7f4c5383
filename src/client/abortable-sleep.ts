import type { Sleep } from './client-options.js';

/**
 * The default {@link Sleep}: a timer that an `AbortSignal` cuts short, rejecting with the
 * signal's reason; the timer and the listener never outlive the wait.
 */
export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
