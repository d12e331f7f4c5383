import { PosCloudError, type PosCloudErrorCode } from './pos-cloud-error.js';

/** The request never got a complete response: connection refused, reset or dropped. */
export class NetworkError extends PosCloudError {
  override name = 'NetworkError';
  override readonly code: PosCloudErrorCode = 'network';
}

/** True for a {@link NetworkError}. */
export function isNetworkError(error: unknown): error is NetworkError {
  return error instanceof NetworkError;
}
