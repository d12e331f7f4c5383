import { PosCloudError, type PosCloudErrorCode } from './pos-cloud-error.js';

/** The request took longer than its timeout. */
export class TimeoutError extends PosCloudError {
  override name = 'TimeoutError';
  override readonly code: PosCloudErrorCode = 'timeout';
}

/** True for a {@link TimeoutError}. */
export function isTimeoutError(error: unknown): error is TimeoutError {
  return error instanceof TimeoutError;
}
