/** Settings of {@link fullJitterDelay}. */
export interface BackoffOptions {
  /** First step in ms. */
  baseDelayMs: number;
  /** Ceiling of one step in ms, before jitter. */
  maxDelayMs: number;
  /** Uniform source in [0, 1). */
  random: () => number;
}

/**
 * Exponential backoff with full jitter: a uniform wait in `[0, min(max, base * 2^(failures-1)))`.
 * Full jitter spreads the clients that failed together (a 429 wave, a restart) so they do not
 * return together.
 *
 * @param failures - failed tries so far, 1 for the first retry.
 */
export function fullJitterDelay(failures: number, options: BackoffOptions): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** exponent);
  const r = options.random();
  const unit = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0;
  return Math.floor(unit * ceiling);
}
