import type { OrphanedCreate } from '../../db/sync-rows.js';
import type { CollectionName } from '../../schema/collections.js';
import type { PullReport, ReconcileReport } from '../pull/index.js';
import type { PushReport } from '../push/index.js';

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
  /**
   * Local creates this run found with no outbox entry and no copy on the server, and queued
   * again (see `status.orphanedCreates`); the reconcile sweeps report their own.
   */
  orphanedCreates: OrphanedCreate[];
  /** Reconcile sweeps that ran. */
  reconciled: ReconcileReport[];
  /** Collections of this run. */
  collections: CollectionName[];
  /**
   * Collections (and the category tree) whose pull failed on its own in this run: a 5xx after
   * the client's retries, a body that is not JSON or not a list. The others were pulled and
   * pushed; the next run asks these again. Their edits wait in the outbox.
   */
  failed: CollectionFailure[];
  /**
   * Collections (and the category tree) the server lacks (404 at every path form), whether found
   * so in this run or skipped because they were (asked again once per reconcile interval, on
   * `resync()`, and when `syncNow({ collections })` names them). Their edits wait in the outbox.
   */
  unavailable: (CollectionName | 'categories')[];
}

/** A collection whose pull failed, and why (name and message, no secrets). */
export interface CollectionFailure {
  collection: CollectionName | 'categories';
  error: { name: string; message: string };
}

/** A report of a run that has done nothing yet (or, with `ran` false, of a run skipped): no pulls, no push, no sweep. */
export function emptySyncReport(ran: boolean, startedAt: number, collections: readonly CollectionName[]): SyncReport {
  return {
    ran,
    startedAt,
    finishedAt: startedAt,
    pulls: [],
    push: undefined,
    categories: undefined,
    orphanedCreates: [],
    reconciled: [],
    collections: [...collections],
    failed: [],
    unavailable: [],
  };
}
