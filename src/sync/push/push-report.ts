import type { MovedCreate } from '../../db/sync-rows.js';
import type { CollectionName } from '../../schema/collections.js';

/** What a push did, for one collection or in total. */
export interface PushCounts {
  /** Records the server acknowledged in a POST. */
  pushed: number;
  /** Records the server refused (400 or 422, or 413 for a record sent alone); their entries are `rejected` with the server's reason. */
  rejected: number;
  /** Records left as unresolved conflicts. */
  conflicts: number;
  /** Entries settled without a POST: the server already had their values (an earlier push whose answer was lost, or the strategy kept the server's). */
  acknowledged: number;
  /** POST requests made (retries inside the client not counted; bisecting a refused batch counted). */
  requests: number;
  /** Batches planned by count and bytes: the fewest requests the push could have made. */
  batches: number;
  /**
   * Entries not sent because their record references a parent (an `id_*` field naming a record
   * of a collection pushed before this one) that is still only created locally: the parent's
   * outbox entry is a create the server has not acknowledged (rejected, in conflict, or not
   * pushed this time). They stay pending and go out with the first push after their parent.
   */
  awaitingParent: number;
  /**
   * Local creates moved to a fresh id before they were sent: the server held another record under
   * the id this mirror had generated (another device drew the same id). See {@link PushReport.moved}.
   */
  moved: number;
}

/** What one push did: the totals, and the counts of each collection that had something to push. */
export interface PushReport extends Omit<PushCounts, 'moved'> {
  byCollection: Partial<Record<CollectionName, PushCounts>>;
  /** Each create moved to a fresh id in this push (collection, old and new id), with every pending edit that pointed at it. */
  moved: MovedCreate[];
}

/** Counts that are all zero. */
export function emptyCounts(): PushCounts {
  return { pushed: 0, rejected: 0, conflicts: 0, acknowledged: 0, requests: 0, batches: 0, awaitingParent: 0, moved: 0 };
}

/** A report with nothing in it yet. */
export function emptyPushReport(): PushReport {
  const { moved: _moved, ...counts } = emptyCounts();
  return { ...counts, byCollection: {}, moved: [] };
}

/** Adds one collection's counts to the report. */
export function addCounts(report: PushReport, collection: CollectionName, counts: PushCounts): void {
  report.byCollection[collection] = counts;
  report.pushed += counts.pushed;
  report.rejected += counts.rejected;
  report.conflicts += counts.conflicts;
  report.acknowledged += counts.acknowledged;
  report.requests += counts.requests;
  report.batches += counts.batches;
  report.awaitingParent += counts.awaitingParent;
}
