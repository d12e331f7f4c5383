/**
 * The one owner of the sync's state (`sync-controller.ts`): one state combining the lifecycle,
 * the leadership, the pause, the last run and the failures in a row, and connectivity, moved by
 * one table (`sync-state.ts`, docs/status.md, "Lifecycle"); `status.phase` derived from it; one
 * queue of runs and one abort (the term). The schedule's timer is set from that state
 * (`next-run.ts`), the election tells it lead and follow (`coordination/`); it drives the push after an edit
 * (`push-soon.ts`) and the cycle (`cycle/`); the sweeps the app asks for (`sweeps.ts`), the
 * collections' health a run or a sweep changes (`collection-health.ts`), and the token generations that
 * tell a stale auth failure (`token-generations.ts`) are its parts.
 */
export { createSyncController, ELECTION_WAIT_MS, type SyncController, type SyncControllerOptions } from './sync-controller.js';
export type { StatusPatch, StatusPort } from './status-port.js';
export { phaseOf, type ElectionState, type LifecycleEvent, type LifecycleState, type PauseReason, type RunState, type SyncEvent, type SyncPhase, type SyncState } from './sync-state.js';
