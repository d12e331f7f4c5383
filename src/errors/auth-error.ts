import type { PosCloudErrorCode } from './pos-cloud-error.js';
import { HttpError } from './http-error.js';

/** The token was missing, wrong or refused (401/403). Never retried; sync stops until `setToken`. */
export class AuthError extends HttpError {
  override name = 'AuthError';
  override readonly code: PosCloudErrorCode = 'auth';
}

/** True for an {@link AuthError}. */
export function isAuthError(error: unknown): error is AuthError {
  return error instanceof AuthError;
}
