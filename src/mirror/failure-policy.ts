import type { MirrorDb } from '../db/mirror-db.js';
import { AuthError } from '../errors/index.js';
import type { FailureAction } from '../sync/coordination/index.js';
import { describeError, isAbort, isClosedDatabase, quotaError } from './failure-kinds.js';
import type { SyncEvent } from './sync-state.js';
import type { TokenGenerations } from './token-generations.js';

/** What a failed run means for the sync's state, and whether the schedule carries on. */
export interface FailureVerdict {
  /** The state's event: `run-cut` for a run cut short on purpose or with a token replaced since. */
  event: Extract<SyncEvent, 'run-cut' | 'run-failed' | 'auth-refused' | 'storage-full'>;
  /** What the status shows as `lastError` (none for a run cut short). */
  lastError?: { name: string; message: string };
  /** `'pause'` where only the app can help. */
  action: FailureAction;
}

/** What {@link judgeFailure} needs to know besides the error. */
export interface FailureContext {
  db: MirrorDb;
  tokens: TokenGenerations;
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
 * - a lost IndexedDB connection (Safari drops them) is reopened and the run retried;
 * - anything else shows `error` (or `offline`) and is retried with backoff.
 */
export function judgeFailure(error: unknown, context: FailureContext): FailureVerdict {
  if (isAbort(error) && !context.syncingLeader) return { event: 'run-cut', action: 'retry' };
  if (context.tokens.isStale(error)) return { event: 'run-cut', action: 'retry' };
  if (error instanceof AuthError) return { event: 'auth-refused', lastError: describeError(error), action: 'pause' };
  const quota = quotaError(error);
  if (quota) {
    // Firefox refuses the next write of a connection that went over its quota, whatever space is
    // freed meanwhile ("InvalidStateError: A mutation operation was attempted on a database that
    // did not allow mutations"); a fresh connection does not. Dexie opens it again on next use.
    if (!context.closed) context.db.close({ disableAutoOpen: false });
    // Named the same in every engine, whatever wrapped it (see `quotaError`).
    return { event: 'storage-full', lastError: describeError(quota), action: 'pause' };
  }
  if (isClosedDatabase(error) && !context.closed) void context.db.open().catch(() => undefined);
  return { event: 'run-failed', lastError: describeError(error), action: 'retry' };
}

/** A failure of a `syncNow()` or of the push after an edit (`signal`: the run's): none when the run was cut short on purpose. */
export function judgeRunFailure(error: unknown, signal: AbortSignal, context: FailureContext): FailureVerdict {
  return signal.aborted ? { event: 'run-cut', action: 'retry' } : judgeFailure(error, context);
}
