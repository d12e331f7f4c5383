/** Options of {@link backoffDelay}. */
export interface BackoffOptions {
  /** First delay after a failure (ms), doubled per consecutive failure. @default 1_000 */
  baseMs?: number;
  /** Longest delay after failures (ms). @default 300_000 */
  maxMs?: number;
  /** @default Math.random */
  random?: () => number;
}

/**
 * The wait before the next try after `failures` consecutive failed runs (at least 1). Full
 * jitter: a random delay up to the exponential bound spreads the retries of many clients.
 */
export function backoffDelay(failures: number, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? 1_000;
  const max = options.maxMs ?? 300_000;
  const bound = Math.min(max, base * 2 ** Math.min(Math.max(failures, 1) - 1, 20));
  return Math.max(base / 2, (options.random ?? Math.random)() * bound);
}
