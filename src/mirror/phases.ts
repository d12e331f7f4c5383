import type { SyncPhase, SyncStatus } from './status.js';

/** What the phase at rest depends on. */
export interface RestingFacts {
  /** `start()` holds (the lifecycle is `running`). */
  running: boolean;
  /** A `stop()` has taken effect and no `start()` has since. */
  halted: boolean;
  /** The runtime's idea of connectivity. */
  online: boolean;
  /** This instance leads. */
  leader: boolean;
}

/**
 * The phase when nothing runs: what the status shows between runs, on a change of leader and
 * when the network comes back. A stopped mirror says so first; then no network; then whether
 * another tab does the syncing.
 */
export function restingPhase(facts: RestingFacts): SyncPhase {
  if (!facts.running && facts.halted) return 'stopped';
  if (!facts.online) return 'offline';
  return facts.running && !facts.leader ? 'following' : 'idle';
}

/**
 * The status change when connectivity changes. A mirror waiting for a token or for storage,
 * stopped or closed says why it does not sync, and the network does not change that; otherwise
 * going offline shows `offline`, and coming back leaves `offline` for the phase at rest.
 */
export function connectivityChange(phase: SyncPhase, online: boolean, resting: () => SyncPhase): Partial<SyncStatus> {
  if (phase === 'auth-error' || phase === 'storage-error' || phase === 'stopped' || phase === 'closed') return { online };
  if (!online) return { online, phase: 'offline' };
  return phase === 'offline' ? { online, phase: resting() } : { online };
}
