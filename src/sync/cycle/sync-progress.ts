import type { CollectionName } from '../../schema/collections.js';
import type { CollectionProgress } from '../pull/index.js';
import type { ProgressEstimate } from './progress-estimate.js';

/** One collection's progress: its pull's figures, and what its traversal is estimated to have left. */
export interface CollectionSyncProgress extends CollectionProgress {
  /**
   * What the traversal under way is estimated to have left (see {@link ProgressEstimate}); once
   * it is done, nothing. Absent until the traversal has applied two pages and the server has told
   * its newest id (asked once per traversal that reaches a second page), or when it did not.
   */
  estimate?: ProgressEstimate | undefined;
}

/**
 * Progress of the sync: per collection, records so far, pages, done and an estimate of what is
 * left; and the same for every collection together, which a long first sync shows a person.
 */
export interface SyncProgress {
  collections: Partial<Record<CollectionName, CollectionSyncProgress>>;
  /** Records applied so far in each collection's current (or last) traversal, together. */
  records: number;
  /**
   * Records the traversals under way are estimated to have left, together: the sum of their
   * estimates. Undefined when no traversal under way has one yet. Collections the run has not
   * reached yet are not in it (the service gives no count).
   */
  remaining: number | undefined;
}

/** The progress before anything was pulled. */
export function initialProgress(): SyncProgress {
  return { collections: {}, records: 0, remaining: undefined };
}
