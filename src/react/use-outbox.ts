import { useCallback } from 'react';
import type { Conflict, PendingEdit } from '../mirror/typed-rows.js';
import type { RecordSyncState } from '../mirror/record-sync-state.js';
import type { Id } from '../ids/id.js';
import type { CollectionName } from '../schema/collections.js';
import type { ConflictChoice } from '../sync/conflicts/index.js';
import { requireMirror, useMirror } from './mirror-context.js';
import { useLiveQuery } from './use-live-query.js';

const NONE: never[] = [];

/**
 * The local edits the server has not acknowledged yet (`mirror.pending()`: pending, rejected and in
 * conflict), live. Empty with no mirror yet.
 */
export function usePending(): PendingEdit[] {
  return useLiveQuery((mirror) => mirror.pending(), [], NONE as PendingEdit[]);
}

/** What {@link useConflicts} returns. */
export interface ConflictsState {
  /** The unresolved conflicts, live. */
  conflicts: Conflict[];
  /**
   * Resolves the conflict `key` (`${collection}:${id}`, as in the row) with the local edit, the
   * server's record, or a merged record, and pushes the outcome (`mirror.resolveConflict`).
   * Rejects with a `PosCloudError` with no mirror yet.
   */
  resolve(key: string, choice: ConflictChoice): Promise<void>;
}

/** The unresolved conflicts, live, with a `resolve` helper (see {@link ConflictsState}). */
export function useConflicts(): ConflictsState {
  const mirror = useMirror();
  const conflicts = useLiveQuery((m) => m.conflicts(), [], NONE as Conflict[]);
  const resolve = useCallback(
    async (key: string, choice: ConflictChoice) => {
      await requireMirror(mirror, 'useConflicts().resolve').resolveConflict(key, choice);
    },
    [mirror],
  );
  return { conflicts, resolve };
}

/**
 * Where one record stands between this device and the server (`mirror.syncStateOf`), live: a
 * badge beside a record shows "waiting", "sent", "refused: <reason>" or "conflict" from it.
 * `undefined` until the mirror and the first answer are there.
 *
 * ```tsx
 * const sync = useRecordSyncState('customers', customer.id);
 * {sync?.state === 'rejected' && <span title={sync.reason}>refused</span>}
 * ```
 */
export function useRecordSyncState(collection: CollectionName, id: Id): RecordSyncState | undefined {
  return useLiveQuery((mirror) => mirror.syncStateOf(collection, id), [collection, id]);
}
