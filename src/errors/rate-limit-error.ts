import type { PosCloudErrorCode } from './pos-cloud-error.js';
import { HttpError, type HttpErrorOptions } from './http-error.js';

/** The service answered 429 more often than the retry budget allows. */
export class RateLimitError extends HttpError {
  override name = 'RateLimitError';
  override readonly code: PosCloudErrorCode = 'rate-limit';
  /** What the last `Retry-After` asked for, in ms, when it was sent. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: HttpErrorOptions & { retryAfterMs?: number | undefined }) {
    super(message, options);
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** True for a {@link RateLimitError}. */
export function isRateLimitError(error: unknown): error is RateLimitError {
  return error instanceof RateLimitError;
}
