import type { PosCloudErrorCode } from './pos-cloud-error.js';
import { HttpError } from './http-error.js';

/** The service refused an `id_start` (400): the cursor is neither a valid id nor 0. */
export class InvalidCursorError extends HttpError {
  override name = 'InvalidCursorError';
  override readonly code: PosCloudErrorCode = 'invalid-cursor';
}

/** True for an {@link InvalidCursorError}. */
export function isInvalidCursorError(error: unknown): error is InvalidCursorError {
  return error instanceof InvalidCursorError;
}
