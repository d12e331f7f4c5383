import type { CollectionHealth } from './collection-health.js';
import type { SyncPhase } from './sync-state.js';

/** What the controller writes in the mirror's status: projections of its state (never read back) and what runs found. */
export interface StatusPatch extends Partial<CollectionHealth> {
  phase?: SyncPhase;
  leader?: boolean;
  online?: boolean;
  lastError?: { name: string; message: string } | undefined;
  lastSyncAt?: number | undefined;
}

/** The mirror's status as the controller sees it: a place to write to, never to read from. */
export interface StatusPort {
  set(patch: StatusPatch): void;
}
