import { Dexie } from 'dexie';
import { type HttpError, isAuthError, isHttpError, isNetworkError, isPosCloudError, isRateLimitError, isTimeoutError } from '../errors/index.js';

/** What a quota error says when the engine gave it no message (Chromium gives none). */
const QUOTA_MESSAGE = 'the storage of this origin is full (quota exceeded)';

/** A failure as the status shows it: name and message, nothing else (no secrets, no stack). */
export function describeError(error: unknown): { name: string; message: string } {
  if (error instanceof Error || error instanceof DOMException) {
    return { name: error.name, message: error.message === '' && error.name === 'QuotaExceededError' ? QUOTA_MESSAGE : error.message };
  }
  return { name: 'Error', message: String(error) };
}

/**
 * A run cut short on purpose (stop, close, the lead lost): the runtime's `AbortError`. A Dexie
 * `AbortError` is not one: it is a transaction the engine aborted (for lack of space, say).
 */
export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError' && !(error instanceof Dexie.DexieError);
}

/**
 * The quota error behind `error`, if IndexedDB refused to store something for lack of space. The
 * engines report it differently, and Dexie wraps each: Chromium and Firefox abort the transaction
 * as it commits (a Dexie `AbortError` whose `inner` is the `QuotaExceededError`), WebKit refuses the
 * write itself (among the `failures` of a Dexie `BulkError` for a bulk write), and a database that
 * cannot be created or upgraded fails to open (a `DatabaseClosedError` or `OpenFailedError`).
 */
export function quotaError(error: unknown): Error | undefined {
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number): Error | undefined => {
    if (!(e instanceof Error || e instanceof DOMException) || depth > 5 || seen.has(e)) return undefined;
    seen.add(e);
    if (e.name === 'QuotaExceededError' || (e as { code?: number }).code === 22) return e;
    const { inner, cause, failures } = e as { inner?: unknown; cause?: unknown; failures?: unknown };
    for (const next of [inner, cause, ...(Array.isArray(failures) ? (failures as unknown[]) : [])]) {
      const found = visit(next, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return visit(error, 0);
}

/** IndexedDB refused a write for lack of space (see {@link quotaError}). */
export function isQuotaError(error: unknown): boolean {
  return quotaError(error) !== undefined;
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
