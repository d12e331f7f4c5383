import { backoffDelay, type BackoffOptions } from '../coordination/index.js';
import { isSyncingLeader, type SyncState } from './sync-state.js';

/**
 * The schedule runs: this instance is started and leads, sync is not paused, and the runtime is
 * online. Entering this condition runs at once; leaving it clears the timer.
 */
export const isScheduled = (s: SyncState): boolean => isSyncingLeader(s) && s.pause === undefined && s.online;

/**
 * How long after a scheduled run ends the next one is due (ms): after a run that `failed` (not
 * cut short on purpose), the backoff of the consecutive failures; else the poll interval; none
 * while the schedule does not run.
 */
export function nextRunIn(s: SyncState, intervalMs: number, failed: boolean, backoff?: BackoffOptions): number | undefined {
  if (!isScheduled(s)) return undefined;
  return failed ? backoffDelay(s.failures, backoff) : intervalMs;
}
