/**
 * The mirror's lifecycle: one state, and the events that move it (the README's "Lifecycle"
 * rules, as a table a reader can check them against).
 *
 * - `new`: made, never started. `syncNow()`, `resync()` and `reconcile()` work; nothing runs on
 *   its own.
 * - `running`: `start()` was called: the mirror campaigns for leadership and, as leader, syncs
 *   on its schedule.
 * - `stopping`: `stop()` is winding down what runs (the schedule, the election, the run queue).
 * - `restarting`: a `start()` came while a `stop()` was winding down (a UI effect cleaned up and
 *   run again, as React StrictMode does): the stop finishes, then the mirror runs again. A
 *   `stop()` called meanwhile wins: back to `stopping`.
 * - `stopped`: the stop has finished; `start()` carries on where it left.
 * - `closing`, `closed`: `close()` was called; nothing starts again.
 */

/** Where the mirror is in its life. */
export type LifecycleState = 'new' | 'running' | 'stopping' | 'restarting' | 'stopped' | 'closing' | 'closed';

/**
 * What moves it: the app's `start()`, `stop()` and `close()`, and the two endings the mirror
 * reports itself (`stopped`: a stop's winding down finished; `closed`: the database is closed).
 */
export type LifecycleEvent = 'start' | 'stop' | 'stopped' | 'close' | 'closed';

/**
 * The transitions. An event a state does not list leaves the state as it is (a `start()` of a
 * running mirror, a `stop()` of one never started). `start` is refused before it gets here once
 * the mirror is closing or closed (`close()` is for good).
 */
const TRANSITIONS: { readonly [S in LifecycleState]: { readonly [E in LifecycleEvent]?: LifecycleState } } = {
  new: { start: 'running', close: 'closing' },
  running: { stop: 'stopping', close: 'closing' },
  stopping: { start: 'restarting', stopped: 'stopped', close: 'closing' },
  restarting: { stop: 'stopping', stopped: 'running', close: 'closing' },
  stopped: { start: 'running', close: 'closing' },
  closing: { closed: 'closed' },
  closed: {},
};

/** The state `event` moves `state` to (the same state when the table lists no move). */
export function nextState(state: LifecycleState, event: LifecycleEvent): LifecycleState {
  return TRANSITIONS[state][event] ?? state;
}

/** One move of the lifecycle: where it was, where it is. */
export interface Transition {
  from: LifecycleState;
  to: LifecycleState;
}

/** The lifecycle of one mirror: its state, moved only through {@link nextState}. */
export class Lifecycle {
  #state: LifecycleState = 'new';

  /** The current state. */
  get state(): LifecycleState {
    return this.#state;
  }

  /** Moves the state by `event` and says how it moved. */
  send(event: LifecycleEvent): Transition {
    const from = this.#state;
    this.#state = nextState(from, event);
    return { from, to: this.#state };
  }

  /** `start()` holds: the mirror campaigns and, as leader, syncs on its schedule. */
  get running(): boolean {
    return this.#state === 'running';
  }

  /** A `stop()` has taken effect and no `start()` has since: the status rests at `stopped`. */
  get halted(): boolean {
    return this.#state === 'stopping' || this.#state === 'restarting' || this.#state === 'stopped';
  }

  /** `close()` was called: nothing may start any more. */
  get closed(): boolean {
    return this.#state === 'closing' || this.#state === 'closed';
  }
}
