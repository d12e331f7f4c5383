/**
 * One run's work: pull every collection (each failing alone: `isolated-pulls.ts`, with the
 * collections the server lacks remembered in `collection-availability.ts`), the category tree,
 * push and read back what landed, reconcile sweeps when due (`sync-cycle.ts`, configured from the
 * mirror's settings in `configured-cycle.ts`); what a run did (`sync-report.ts`); and what a
 * failure is and means for the sync (`failures.ts`). When runs happen is the controller's.
 * While the pulls run, how far they are and about how much is left (`progress-tracker.ts`, its
 * estimate from probes of the ids ahead in `progress-estimate.ts`, its shape in `sync-progress.ts`).
 * The order of a first sync, by groups of collections, and when each group is complete (`sync-groups.ts`).
 */
export { forgetUnavailable, readUnavailable, type ListName } from './collection-availability.js';
export { createConfiguredCycle, type CycleHooks, type CycleSettings } from './configured-cycle.js';
export {
  describeError,
  isAbort,
  judgeFailure,
  judgeRunFailure,
  quotaError,
  runErrorFor,
  type FailureContext,
  type FailureEvent,
  type FailureVerdict,
} from './failures.js';
export { pullIsolated } from './isolated-pulls.js';
export { probesPerTraversal, type ProgressEstimate } from './progress-estimate.js';
export { createProgressTracker, withCollection, type ProgressSink, type ProgressTracker, type ProgressTrackerOptions } from './progress-tracker.js';
export type { SyncCycle } from './sync-cycle.js';
export { WINDOWED_COLLECTIONS, windowEdgeOf, type HistoryWindow, type WindowedCollection } from './history-window.js';
export { PRUNE_INTERVAL_MS, pruneHistory } from './prune-history.js';
export { DEFAULT_SYNC_GROUPS, groupStatuses, orderByGroups, pullSteps, type DefaultSyncGroupName, type PullStep, type SyncGroup, type SyncGroupStatus } from './sync-groups.js';
export { emptySyncReport, type SyncReport } from './sync-report.js';
export { initialProgress, type CollectionSyncProgress, type SyncProgress } from './sync-progress.js';
