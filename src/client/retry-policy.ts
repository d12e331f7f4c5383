import { HttpError, JsonParseError, NetworkError, RateLimitError, TimeoutError } from '../errors/index.js';

/** What {@link shouldRetryRequest} weighs besides the error. */
export interface RetryContext {
  /**
   * True when sending the request twice has the effect of sending it once: every GET, the report
   * POSTs (they only read), and POSTs whose every record carries its own non-zero id.
   */
  idempotent: boolean;
  /** Statuses that may be retried (`retry.statusCodes`). */
  statusCodes: readonly number[];
  /** Longest `Retry-After` worth waiting for here (`retry.maxRetryAfter`). */
  maxRetryAfter: number;
}

/**
 * Whether a failed try may be repeated. Only what the network or the server's load explains is
 * retried: the `statusCodes` (429, 5xx...), timeouts, dropped connections, and a success body that
 * is not valid JSON (a body cut or garbled on its way: a dropped connection in disguise). Auth
 * failures, bad cursors, other statuses, bodies that fail their schema and unknown errors (bugs)
 * are not.
 *
 * A non-idempotent POST is retried only on 429: a rate-limited request was refused before it was
 * applied, so repeating it cannot create a record twice; after a 5xx, timeout or dropped connection
 * nobody knows whether the server applied it. A 429 asking to wait longer than `maxRetryAfter` is
 * not retried: the caller is told at once.
 */
export function shouldRetryRequest(error: unknown, context: RetryContext): boolean {
  if (error instanceof RateLimitError) {
    if (!context.statusCodes.includes(429)) return false;
    return error.retryAfterMs === undefined || error.retryAfterMs <= context.maxRetryAfter;
  }
  if (!context.idempotent) return false;
  if (error instanceof HttpError) return error.constructor === HttpError && context.statusCodes.includes(error.status);
  return error instanceof TimeoutError || error instanceof NetworkError || error instanceof JsonParseError;
}
