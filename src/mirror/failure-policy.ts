import type { MirrorDb } from '../db/mirror-db.js';
import { AuthError } from '../errors/index.js';
import type { FailureAction } from '../sync/coordination/index.js';
import { describeError, isAbort, isClosedDatabase, quotaError } from './failure-kinds.js';
import type { Lifecycle } from './lifecycle.js';
import type { SyncPhase, SyncStatus } from './status.js';
import type { TokenGenerations } from './token-generations.js';

/** What {@link createFailurePolicy} reads and moves. */
export interface FailurePolicyOptions {
  db: MirrorDb;
  lifecycle: Lifecycle;
  tokens: TokenGenerations;
  isLeader(): boolean;
  isOnline(): boolean;
  restingPhase(): SyncPhase;
  setStatus: (patch: Partial<SyncStatus>) => void;
}

/** How a failed run is shown and whether the schedule carries on. */
export interface FailurePolicy {
  /** A failure of a scheduled run: the status it shows, and `'pause'` where only the app can help. */
  onFailure: (error: unknown) => FailureAction;
  /** A failure of a `syncNow()` or of the push after an edit (`signal`: the run's): none when the run was cut short on purpose. */
  afterRun(error: unknown, signal: AbortSignal): FailureAction;
}

/**
 * Creates a {@link FailurePolicy}:
 * - a run cut short by `stop()`, `close()` or a step down is no failure;
 * - an auth failure pauses sync (`auth-error`) until `setToken()`, unless the token it was
 *   refused for has been replaced since;
 * - a quota error pauses it (`storage-error`, the error shown as the engine's `QuotaExceededError`),
 *   and the database connection is opened afresh for the next run;
 * - a lost IndexedDB connection (Safari drops them) is reopened and the run retried;
 * - anything else shows `error` (or `offline`) and is retried with backoff.
 */
export function createFailurePolicy(options: FailurePolicyOptions): FailurePolicy {
  const { lifecycle, setStatus } = options;

  function onFailure(error: unknown): FailureAction {
    if (isAbort(error) && (!lifecycle.running || !options.isLeader())) return 'retry';
    const lastError = describeError(error);
    if (options.tokens.isStale(error)) {
      setStatus({ phase: options.restingPhase() });
      return 'retry';
    }
    if (error instanceof AuthError) {
      setStatus({ phase: 'auth-error', lastError });
      return 'pause';
    }
    const quota = quotaError(error);
    if (quota) {
      // Named the same in every engine, whatever wrapped it (see `quotaError`).
      setStatus({ phase: 'storage-error', lastError: describeError(quota) });
      // Firefox refuses the next write of a connection that went over its quota, whatever space is
      // freed meanwhile ("InvalidStateError: A mutation operation was attempted on a database that
      // did not allow mutations"); a fresh connection does not. Dexie opens it again on next use.
      if (!lifecycle.closed) options.db.close({ disableAutoOpen: false });
      return 'pause';
    }
    if (isClosedDatabase(error) && !lifecycle.closed) void options.db.open().catch(() => undefined);
    const online = options.isOnline();
    setStatus({ phase: online ? 'error' : 'offline', lastError, online });
    return 'retry';
  }

  return {
    onFailure,
    afterRun: (error, signal) => (signal.aborted ? 'retry' : onFailure(error)),
  };
}
