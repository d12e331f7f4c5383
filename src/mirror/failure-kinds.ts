import { Dexie } from 'dexie';
import { type HttpError, isAuthError, isHttpError, isNetworkError, isPosCloudError, isRateLimitError, isTimeoutError } from '../errors/index.js';

/** A failure as the status shows it: name and message, nothing else (no secrets, no stack). */
export function describeError(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** A run cut short on purpose (stop, close). */
export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** IndexedDB refused a write for lack of space; Dexie may wrap the DOMException as `inner`. */
export function isQuotaError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = (e as { inner?: unknown; cause?: unknown }).inner ?? e.cause, depth++) {
    if (e.name === 'QuotaExceededError' || (e as { code?: number }).code === 22) return true;
  }
  return false;
}

/** The IndexedDB connection went away under the mirror (Safari closes them). */
export function isClosedDatabase(error: unknown): boolean {
  return (
    error instanceof Dexie.DatabaseClosedError ||
    (error instanceof Error && error.name === 'InvalidStateError' && /closing|closed/i.test(error.message))
  );
}

/**
 * How far a failed pull of one collection reaches:
 * - `unavailable`: the server lacks the collection's list (404 at every path form the spec
 *   gives): the collection is marked unavailable and asked again later;
 * - `collection`: the collection fails alone (a 5xx after the client's retries, a body that is not
 *   JSON or not a list, a refused cursor): the other collections and the push go on;
 * - `run`: the run stops (aborted, auth refused, rate limited, the network or storage failing,
 *   or a bug): none of these is about one collection.
 */
export function pullFailureScope(error: unknown): 'unavailable' | 'collection' | 'run' {
  if (isAbort(error) || isQuotaError(error) || isClosedDatabase(error)) return 'run';
  if (!isPosCloudError(error) || isAuthError(error) || isRateLimitError(error) || isNetworkError(error) || isTimeoutError(error)) return 'run';
  const status = isHttpError(error) ? (error as HttpError).status : undefined;
  return status === 404 ? 'unavailable' : 'collection';
}
