import type { CollectionName } from '../schema/collections.js';
import type { PullReport, ReconcileReport } from '../sync/pull/index.js';
import type { PushReport } from '../sync/push/index.js';

/** What one sync run did. */
export interface SyncReport {
  /** False when the run was skipped: another tab or worker is the leader. */
  ran: boolean;
  startedAt: number;
  finishedAt: number;
  /** One entry per pulled collection (a collection pulled again after its push appears twice). */
  pulls: PullReport[];
  /** What the push sent, when it ran. */
  push: PushReport | undefined;
  /** Category nodes read, when categories were pulled. */
  categories: number | undefined;
  /** Reconcile sweeps that ran. */
  reconciled: ReconcileReport[];
  /** Collections of this run. */
  collections: CollectionName[];
}

/** A report of a run that has done nothing yet (or, with `ran` false, of a run skipped): no pulls, no push, no sweep. */
export function emptyReport(ran: boolean, startedAt: number, collections: readonly CollectionName[]): SyncReport {
  return {
    ran,
    startedAt,
    finishedAt: startedAt,
    pulls: [],
    push: undefined,
    categories: undefined,
    reconciled: [],
    collections: [...collections],
  };
}
