import type { CollectionStatus } from './run-status.js';
import type { SyncPhase } from './sync-state.js';

/** What the controller and its runs write in the mirror's status. */
export interface StatusPatch extends Partial<CollectionStatus> {
  /** Derived from the sync's state, never read back. */
  phase?: SyncPhase;
  leader?: boolean;
  online?: boolean;
  lastError?: { name: string; message: string } | undefined;
  lastSyncAt?: number | undefined;
}

/** The mirror's status as the controller sees it: what it writes, and the per-collection parts a run updates. */
export interface StatusPort {
  readonly status: { readonly value: CollectionStatus };
  set(patch: StatusPatch): void;
}
