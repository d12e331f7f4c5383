import { Dexie } from 'dexie';
import { isConnectionLost } from '../../db/connection-lost.js';
import { isErrorLike } from '../../db/error-shape.js';
import type { MirrorDb } from '../../db/mirror-db.js';
import { reopenDatabase } from '../../db/reopen.js';
import { AuthError, type HttpError, isAuthError, isHttpError, isNetworkError, isPosCloudError, isRateLimitError, isStorageError, isTimeoutError, StorageError } from '../../errors/index.js';

/** What a quota error says when the engine gave it no message (Chromium gives none). */
const QUOTA_MESSAGE = 'the storage of this origin is full (quota exceeded)';

/** A failure as the status shows it: name and message, nothing else (no secrets, no stack). */
export function describeError(error: unknown): { name: string; message: string } {
  if (isErrorLike(error)) {
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
    if (!isErrorLike(e) || depth > 5 || seen.has(e)) return undefined;
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

/** The IndexedDB connection went away under the mirror (see `isConnectionLost`). */
export function isClosedDatabase(error: unknown): boolean {
  return isConnectionLost(error);
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

/** What a failed run does to the sync's state (the events of `sync-state.ts` that a failure sends). */
export type FailureEvent = 'run-cut' | 'run-failed' | 'auth-refused' | 'storage-full';

/** What a failed run means for the sync's state (a pause there stops the schedule). */
export interface FailureVerdict {
  /** The sync state's event: `run-cut` for a run cut short on purpose or with a token replaced since. */
  event: FailureEvent;
  /** What the status shows as `lastError` (none for a run cut short). */
  lastError?: { name: string; message: string };
}

/** What {@link judgeFailure} needs to know besides the error. */
export interface FailureContext {
  db: MirrorDb;
  /** True for an auth failure met after the token the run began with was replaced. */
  isStale(error: unknown): boolean;
  /** This instance is started and leads: an `AbortError` is then a real failure, not a stop or a step down. */
  syncingLeader: boolean;
  /** `close()` was called: the connection is not reopened. */
  closed: boolean;
}

/**
 * What a failed run means:
 * - a run cut short by `stop()`, `close()` or a step down is no failure;
 * - an auth failure pauses sync (`auth-error`) until `setToken()`, unless the token it was
 *   refused for has been replaced since;
 * - a quota error pauses it (`storage-error`, the error shown as the engine's `QuotaExceededError`),
 *   and the database connection is opened afresh for the next run;
 * - a lost IndexedDB connection (WebKit loses them when its storage process dies) is opened again
 *   (`reopenDatabase`) and the run retried; `lastError` says the connection was lost;
 * - anything else shows `error` (or `offline`) and is retried with backoff.
 */
export function judgeFailure(error: unknown, context: FailureContext): FailureVerdict {
  if (isAbort(error) && !context.syncingLeader) return { event: 'run-cut' };
  if (context.isStale(error)) return { event: 'run-cut' };
  if (error instanceof AuthError) return { event: 'auth-refused', lastError: describeError(error) };
  const quota = quotaError(error);
  if (quota) {
    // Firefox refuses the next write of a connection that went over its quota, whatever space is
    // freed meanwhile ("InvalidStateError: A mutation operation was attempted on a database that
    // did not allow mutations"); a fresh connection does not. Dexie opens it again on next use.
    if (!context.closed) context.db.close({ disableAutoOpen: false });
    // Named the same in every engine, whatever wrapped it (see `quotaError`).
    return { event: 'storage-full', lastError: describeError(quota) };
  }
  if (isClosedDatabase(error) && !context.closed) {
    // A failed reopen is met again by the next run, which tries again.
    void reopenDatabase(context.db).catch(() => undefined);
    return { event: 'run-failed', lastError: { name: 'StorageError', message: `the connection to the database was lost; opening it again (${describeError(error).message})` } };
  }
  return { event: 'run-failed', lastError: describeError(error) };
}

/** A failure of a `syncNow()` or of the push after an edit (`signal`: the run's): none when the run was cut short on purpose. */
export function judgeRunFailure(error: unknown, signal: AbortSignal, context: FailureContext): FailureVerdict {
  return signal.aborted ? { event: 'run-cut' } : judgeFailure(error, context);
}

/**
 * What a `syncNow()` that failed with `error` rejects with: the error itself, except a lost
 * IndexedDB connection, whatever each engine and Dexie wrapped it in (WebKit's `UnknownError`, a
 * Dexie `OpenFailedError` or `DatabaseClosedError`), which becomes the `StorageError`
 * (`connection-lost`) a `save()` meeting it rejects with, the engine's error as its `cause`.
 */
export function runErrorFor(error: unknown, db: MirrorDb): unknown {
  if (isStorageError(error) || isAbort(error) || !isClosedDatabase(error)) return error;
  return new StorageError(`sync: the connection to database "${db.name}" was lost during the run; it is being opened again, and the run is retried (${describeError(error).message})`, {
    path: db.name,
    problem: 'connection-lost',
    cause: error,
  });
}
