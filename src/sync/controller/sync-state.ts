import type { FailureEvent } from '../cycle/index.js';

/**
 * What the sync engine is doing.
 * - `idle`: not started, waiting for the next poll, or started and the election not answered yet.
 * - `initial-sync`: the first full traversal of at least one collection is under way.
 * - `syncing`: a delta pull and push is under way.
 * - `following`: the election found another tab or worker leading; this one follows through live queries.
 * - `offline`: the runtime reports no network; sync resumes when it comes back.
 * - `auth-error`: the token was refused; sync waits for `setToken()`.
 * - `storage-error`: IndexedDB refused a write (quota); the schedule waits until a `syncNow()`
 *   succeeds, or `stop()` then `start()` (a new token does not free storage).
 * - `error`: the last run failed and will be retried with backoff.
 * - `stopped`: `stop()` has finished, until `start()` (a `syncNow()` that succeeds meanwhile comes
 *   back to it); `closed`: after `close()`, for good.
 */
export type SyncPhase =
  | 'idle'
  | 'initial-sync'
  | 'syncing'
  | 'following'
  | 'offline'
  | 'auth-error'
  | 'storage-error'
  | 'error'
  | 'stopped'
  | 'closed';

/**
 * The sync's one state, as the "Lifecycle" tables of docs/status.md show it: where the mirror is in its
 * life, whether this instance leads, why sync waits for the app, what the last run left behind
 * and how many runs failed in a row, and connectivity. The schedule, the election and the
 * connectivity events keep no copy of it: they report events, and the schedule's timer is set
 * from it. `status.phase` and `status.leader` are derived from it ({@link phaseOf}).
 *
 * Lifecycle (what `start()`, `stop()` and `close()` did):
 * - `new`: made, never started. `syncNow()`, `resync()` and `reconcile()` work; nothing runs on
 *   its own.
 * - `running`: `start()` was called: the mirror campaigns for leadership and, as leader, syncs
 *   on its schedule.
 * - `stopping`: `stop()` is winding down what runs (the schedule, the election, the runs).
 * - `restarting`: a `start()` came while a `stop()` was winding down (a UI effect cleaned up and
 *   run again, as React StrictMode does): the stop finishes, then the mirror runs again. A
 *   `stop()` called meanwhile wins: back to `stopping`.
 * - `stopped`: the stop has finished; `start()` carries on where it left.
 * - `closing`, `closed`: `close()` was called; nothing starts again.
 */
export type LifecycleState = 'new' | 'running' | 'stopping' | 'restarting' | 'stopped' | 'closing' | 'closed';

/**
 * What moves the lifecycle: the app's `start()`, `stop()` and `close()`, and the two endings the
 * mirror reports itself (`stopped`: a stop's winding down finished; `closed`: the database is closed).
 */
export type LifecycleEvent = 'start' | 'stop' | 'stopped' | 'close' | 'closed';

/** Why sync waits for the app: a refused token (until `setToken()`), or full storage. */
export type PauseReason = 'auth-error' | 'storage-error';

/** What the last run left: nothing under way (`resting`), a run under way, or a failure retried with backoff. */
export type RunState = 'resting' | 'syncing' | 'initial-sync' | 'failed';

/**
 * What this instance knows of the election: nothing yet (`undecided`: not campaigning, or its
 * campaign has not answered since `start()`), that it leads (`leader`), or that another tab or
 * worker does (`follower`).
 */
export type ElectionState = 'undecided' | 'leader' | 'follower';

/** Everything else that moves the state: leadership, the runs' outcomes, the token, connectivity. */
export type SyncEvent =
  | LifecycleEvent
  /** The election made this instance the leader, or found another one leading. */
  | 'lead'
  | 'follow'
  /** A stop gives the lead back before its election ends: nothing is known of who leads from then on. */
  | 'resign'
  /** A run began (a collection still needs its first full traversal: `initial-sync`). */
  | 'run-began'
  | 'initial-run-began'
  /** A run finished. */
  | 'run-succeeded'
  /** A run failed: retried with backoff (`run-failed`); the token refused (`auth-refused`); storage full (`storage-full`). */
  | FailureEvent
  /** `setToken()`: a new token, so a pause waits no longer. */
  | 'token'
  | 'online'
  | 'offline';

/** The sync's state. */
export interface SyncState {
  readonly lifecycle: LifecycleState;
  /** Whether this instance leads (holds the lock or the lease), another does, or the election has not said yet. */
  readonly election: ElectionState;
  readonly pause: PauseReason | undefined;
  readonly run: RunState;
  /** Consecutive failed runs (`run-failed`): the backoff before the next try grows with them. */
  readonly failures: number;
  /** The runtime's idea of connectivity. */
  readonly online: boolean;
}

/**
 * The lifecycle's transitions. An event a state does not list leaves the state as it is (a
 * `start()` of a running mirror, a `stop()` of one never started). `start` is refused before it
 * gets here once the mirror is closing or closed (`close()` is for good).
 */
const LIFECYCLE: { readonly [S in LifecycleState]: { readonly [E in LifecycleEvent]?: LifecycleState } } = {
  new: { start: 'running', close: 'closing' },
  running: { stop: 'stopping', close: 'closing' },
  stopping: { start: 'restarting', stopped: 'stopped', close: 'closing' },
  restarting: { stop: 'stopping', stopped: 'running', close: 'closing' },
  stopped: { start: 'running', close: 'closing' },
  closing: { closed: 'closed' },
  closed: {},
};

/** The lifecycle state `event` moves `state` to (the same state when the table lists no move). */
export function nextState(state: LifecycleState, event: LifecycleEvent): LifecycleState {
  return LIFECYCLE[state][event] ?? state;
}

const LIFECYCLE_EVENTS: ReadonlySet<SyncEvent> = new Set<LifecycleEvent>(['start', 'stop', 'stopped', 'close', 'closed']);
const isLifecycleEvent = (event: SyncEvent): event is LifecycleEvent => LIFECYCLE_EVENTS.has(event);

/**
 * What each event does beside the lifecycle (the second table of docs/status.md). A pause and a failure
 * are cleared by whatever makes a run worth trying again: the election's outcome only in
 * `running`, since outside it no schedule follows. The lead is what the election says, whatever
 * the lifecycle: a campaign can still be won while a stop winds down, before the election ends.
 */
function afterEvent(s: SyncState, event: SyncEvent, lifecycle: LifecycleState): SyncState {
  const began = lifecycle === 'running' && s.lifecycle !== 'running';
  switch (event) {
    case 'start':
      return began ? { ...s, lifecycle, pause: undefined, run: 'resting', failures: 0 } : { ...s, lifecycle };
    case 'stopped':
      // The wind-down ended the election and the runs; a restart begins afresh.
      return { ...s, lifecycle, election: 'undecided', pause: undefined, run: 'resting', failures: 0 };
    case 'closed':
    case 'resign':
      return { ...s, lifecycle, election: 'undecided' };
    case 'lead':
    case 'follow': {
      const election = event === 'lead' ? 'leader' : 'follower';
      return s.lifecycle === 'running' ? { ...s, election, pause: undefined, run: 'resting', failures: 0 } : { ...s, election };
    }
    case 'run-began':
      return { ...s, run: 'syncing' };
    case 'initial-run-began':
      return { ...s, run: 'initial-sync' };
    case 'run-succeeded':
      return { ...s, run: 'resting', pause: undefined, failures: 0 };
    case 'run-cut':
      return { ...s, run: s.run === 'syncing' || s.run === 'initial-sync' ? 'resting' : s.run };
    case 'run-failed':
      return { ...s, run: 'failed', failures: s.failures + 1 };
    case 'auth-refused':
      return { ...s, run: 'resting', pause: 'auth-error' };
    case 'storage-full':
      return { ...s, run: 'resting', pause: 'storage-error' };
    case 'token':
      return s.pause === 'auth-error' ? { ...s, pause: undefined, failures: 0 } : s;
    case 'online':
      // Back online: a failure shown as `offline` was about the network.
      return { ...s, online: true, run: s.run === 'failed' ? 'resting' : s.run };
    case 'offline':
      return { ...s, online: false, run: 'resting' };
    default:
      return { ...s, lifecycle };
  }
}

/** The state `event` moves `state` to. */
export function transition(state: SyncState, event: SyncEvent): SyncState {
  const lifecycle = isLifecycleEvent(event) ? nextState(state.lifecycle, event) : state.lifecycle;
  return afterEvent(state, event, lifecycle);
}

/** A state's lifecycle is `running`: `start()` holds. */
export const isRunning = (s: SyncState): boolean => s.lifecycle === 'running';

/** A `stop()` has taken effect and no `start()` has since, or one waits for that stop to end (what the status calls `stopped`, once the lead is given back). */
export const isStoppedByApp = (s: SyncState): boolean => s.lifecycle === 'stopping' || s.lifecycle === 'restarting' || s.lifecycle === 'stopped';

/** `close()` was called: nothing may start any more. */
export const isClosed = (s: SyncState): boolean => s.lifecycle === 'closing' || s.lifecycle === 'closed';

/** A started instance that leads: the one that syncs on a schedule and pushes after edits. */
export const isSyncingLeader = (s: SyncState): boolean => isRunning(s) && s.election === 'leader';

/** This instance leads (what `status.leader` says). */
export const isLeader = (s: SyncState): boolean => s.election === 'leader';

/**
 * The phase `status.phase` shows for a state, first rule that holds: closed; a run under way; the
 * pause; stopped by the app (once the lead is given back: the status says `stopped` and
 * `leader: false` together); no network; the last run failed; another tab is known to lead; idle.
 * A running instance whose election has not answered yet is `idle`: it may be about to lead.
 */
export function phaseOf(s: SyncState): SyncPhase {
  if (s.lifecycle === 'closed') return 'closed';
  if (s.run === 'syncing' || s.run === 'initial-sync') return s.run;
  if (s.pause) return s.pause;
  if (isStoppedByApp(s) && !isLeader(s)) return 'stopped';
  if (!s.online) return 'offline';
  if (s.run === 'failed') return 'error';
  return isRunning(s) && s.election === 'follower' ? 'following' : 'idle';
}

/** The state of a mirror just made. */
export const initialState = (online: boolean): SyncState => ({ lifecycle: 'new', election: 'undecided', pause: undefined, run: 'resting', failures: 0, online });
