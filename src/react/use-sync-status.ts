import { useCallback, useSyncExternalStore } from 'react';
import type { ReadonlyObservableValue } from '../mirror/observable-value.js';
import { initialProgress, initialStatus, type SyncProgress, type SyncStatus } from '../mirror/status.js';
import { useMirror } from './mirror-context.js';

/** What the status hooks show with no mirror yet (and on a server): idle, nothing pending. */
const NO_STATUS: SyncStatus = initialStatus(true);
const NO_PROGRESS: SyncProgress = initialProgress();

/** Reads an observable value of the mirror through `useSyncExternalStore`, so a render never tears. */
function useObservableValue<T>(value: ReadonlyObservableValue<T> | undefined, empty: T): T {
  const subscribe = useCallback(
    (changed: () => void) => {
      if (!value) return () => {};
      const subscription = value.subscribe({ next: changed });
      return () => subscription.unsubscribe();
    },
    [value],
  );
  const read = useCallback(() => (value ? value.value : empty), [value, empty]);
  return useSyncExternalStore(subscribe, read, () => empty);
}

/**
 * The mirror's sync status (`mirror.status`): phase, online, leader, pending pushes, conflicts,
 * quarantined records, last sync and last error. Re-renders when it changes; with no mirror yet,
 * and on a server, an idle status with nothing pending.
 */
export function useMirrorStatus(): SyncStatus {
  return useObservableValue(useMirror()?.status, NO_STATUS);
}

/**
 * The sync's progress per collection (`mirror.progress`: records so far, pages, done), for a
 * first-sync screen. With no mirror yet, and on a server, no collection.
 */
export function useSyncProgress(): SyncProgress {
  return useObservableValue(useMirror()?.progress, NO_PROGRESS);
}
