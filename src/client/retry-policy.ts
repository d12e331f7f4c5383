import { HttpError, JsonParseError, NetworkError, RateLimitError, TimeoutError } from '../errors/index.js';
import { fullJitterDelay, type BackoffOptions } from './backoff.js';

/** Statuses that say "try again later" without saying the request was wrong. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** What {@link shouldRetryRequest} weighs besides the error. */
export interface RetryContext {
  /**
   * True when sending the request twice has the effect of sending it once: every GET, the report
   * POSTs (they only read), and POSTs whose every record carries its own non-zero id.
   */
  idempotent: boolean;
  /** Longest `Retry-After` worth waiting for here. */
  maxRetryAfterMs: number;
}

/**
 * Whether a failed try may be repeated. Only what the network or the server's load explains is
 * retried: 429, 500/502/503/504, timeouts, dropped connections, and a success body that is not
 * valid JSON (a body cut or garbled on its way: a dropped connection in disguise). Auth failures,
 * bad cursors, other statuses, bodies that fail their schema and unknown errors (bugs) are not.
 *
 * A non-idempotent POST is retried only on 429: a rate-limited request was refused before it was
 * applied, so repeating it cannot create a record twice; after a 5xx, timeout or dropped connection
 * nobody knows whether the server applied it.
 */
export function shouldRetryRequest(error: unknown, context: RetryContext): boolean {
  if (error instanceof RateLimitError) {
    return error.retryAfterMs === undefined || error.retryAfterMs <= context.maxRetryAfterMs;
  }
  if (!context.idempotent) return false;
  if (error instanceof HttpError) return error.constructor === HttpError && RETRYABLE_STATUSES.has(error.status);
  return error instanceof TimeoutError || error instanceof NetworkError || error instanceof JsonParseError;
}

/**
 * The wait before the next try: what the server's `Retry-After` asked for when it sent one
 * (honoured as is, no jitter), else exponential backoff with full jitter.
 */
export function retryDelayFor(error: unknown, failures: number, backoff: BackoffOptions): number {
  if (error instanceof RateLimitError && error.retryAfterMs !== undefined) return error.retryAfterMs;
  return fullJitterDelay(failures, backoff);
}
