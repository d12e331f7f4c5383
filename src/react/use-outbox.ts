import { useCallback } from 'react';
import type { Conflict, PendingEdit } from '../mirror/typed-rows.js';
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
