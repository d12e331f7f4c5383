import type { CheckpointRow } from '../../db/sync-rows.js';
import type { CollectionName } from '../../schema/collections.js';
import { startStopwatch } from './checkpoint.js';
import type { SyncClient } from '../sync-client.js';
import { openTraversal, type OpenTraversal } from './traverse.js';
import { savedCursor } from './traversal-direction.js';

/** The query of the traversal that starts from a checkpoint row (its saved cursor, else its checkpoint). */
export type TraversalQueryOf = (collection: CollectionName, row: CheckpointRow) => Parameters<typeof openTraversal>[2];

/** A traversal whose first page was requested ahead of its pull, for that pull to take. */
export interface EarlyTraversal {
  traversal: OpenTraversal;
  /** Time since just before its first request. */
  elapsed: () => number;
}

/**
 * The first page of the collection pulled next, requested while the last page of the one before
 * is written (see `PullOptions.next`). One at a time: starting one, a pull of another collection,
 * or a reset drops the one before.
 */
export interface ReadAhead {
  /** Requests the first page of the traversal of `collection` that would start from `row` now; `signal` aborting cancels it. */
  start(collection: CollectionName, row: CheckpointRow, signal: AbortSignal | undefined): void;
  /**
   * The read-ahead, if it is of `collection`, still starts where its traversal would start now
   * (`row`), and its first page came: it is then the pull's. Any other is cancelled.
   */
  take(collection: CollectionName, row: CheckpointRow): Promise<EarlyTraversal | undefined>;
  /** Cancels the read-ahead, if any. */
  drop(): void;
}

/** A read-ahead in flight. */
interface Ahead extends EarlyTraversal {
  collection: CollectionName;
  /** The checkpoint row it starts from. */
  row: CheckpointRow;
  /** Stops listening to the signal of the pull that started it. */
  release: () => void;
}

/** Creates the {@link ReadAhead} of one puller. */
export function createReadAhead(client: SyncClient, now: () => number, queryOf: TraversalQueryOf): ReadAhead {
  let ahead: Ahead | undefined;

  function drop(): void {
    const dropped = ahead;
    ahead = undefined;
    dropped?.release();
    void dropped?.traversal.cancel();
  }

  return {
    start(collection, row, signal) {
      drop();
      if (signal?.aborted) return;
      // Started before its request: the traversal's start is then taken earlier, on the safe side.
      const elapsed = startStopwatch(now);
      const traversal = openTraversal(client, collection, queryOf(collection, row));
      const cancel = (): void => void traversal.cancel(signal?.reason);
      signal?.addEventListener('abort', cancel, { once: true });
      ahead = { collection, row, traversal, elapsed, release: () => signal?.removeEventListener('abort', cancel) };
    },
    async take(collection, row) {
      const taken = ahead;
      if (!taken || taken.collection !== collection || !sameStart(taken.row, row)) {
        drop();
        return undefined;
      }
      ahead = undefined;
      taken.release();
      // A read-ahead that failed (or was cancelled with the pull that started it) is asked again.
      const came = await taken.traversal.first.then(() => !taken.traversal.controller.signal.aborted, () => false);
      if (came) return taken;
      await taken.traversal.cancel();
      return undefined;
    },
    drop,
  };
}

/** Two checkpoint rows start the same traversal: same checkpoint, same saved cursor. */
function sameStart(a: CheckpointRow, b: CheckpointRow): boolean {
  return a.checkpoint === b.checkpoint && JSON.stringify(savedCursor(a) ?? null) === JSON.stringify(savedCursor(b) ?? null);
}
