import { backoffDelay, type BackoffOptions } from '../coordination/index.js';
import { isSyncingLeader, type SyncState } from './sync-state.js';

/**
 * How often a leader that believes it is offline reads the runtime's connectivity again (ms). An
 * engine may change `navigator.onLine` without an event (Firefox, for a tab loaded while offline):
 * without a second look, edits made there would wait for a reload.
 */
export const CONNECTIVITY_RECHECK_MS = 5_000;

/**
 * The schedule runs: this instance is started and leads, sync is not paused, and the runtime is
 * online. Entering this condition runs at once; leaving it clears the timer.
 */
export const isScheduled = (s: SyncState): boolean => isSyncingLeader(s) && s.pause === undefined && s.online;

/** The schedule would run but for the network: its timer then only looks at connectivity again. */
export const awaitsNetwork = (s: SyncState): boolean => isSyncingLeader(s) && s.pause === undefined && !s.online;

/**
 * How long until the schedule's next wake-up (ms): after a scheduled run that `failed` (not cut
 * short on purpose), the backoff of the consecutive failures; else the poll interval; while offline,
 * {@link CONNECTIVITY_RECHECK_MS}; none while the schedule does not run.
 */
export function nextRunIn(s: SyncState, intervalMs: number, failed: boolean, backoff?: BackoffOptions): number | undefined {
  if (awaitsNetwork(s)) return CONNECTIVITY_RECHECK_MS;
  if (!isScheduled(s)) return undefined;
  return failed ? backoffDelay(s.failures, backoff) : intervalMs;
}
