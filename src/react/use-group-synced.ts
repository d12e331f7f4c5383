import { useCallback, useSyncExternalStore } from 'react';
import { unknownSyncGroup } from '../mirror/when-synced.js';
import type { DefaultSyncGroupName } from '../sync/cycle/index.js';
import { useMirror } from './mirror-context.js';

/**
 * Whether the first sync of the sync group `group` is complete (`mirror.status.groups[group]`,
 * see the option `syncGroups`): a screen shows a spinner until its data is in, while the rest of
 * the first sync streams on. Re-renders only when the answer changes; false with no mirror yet,
 * and on a server. A group the mirror does not have throws a `ValidationError` while rendering, as
 * `whenSynced` rejects: a misspelt name would otherwise wait for good.
 *
 * ```tsx
 * const ready = useGroupSynced('reference');
 * if (!ready) return <p>Loading the shops and registers…</p>;
 * ```
 */
export function useGroupSynced(group: DefaultSyncGroupName | (string & {})): boolean {
  const status = useMirror()?.status;
  if (status && !Object.hasOwn(status.value.groups, group)) throw unknownSyncGroup('useGroupSynced', status.value, group);
  const subscribe = useCallback(
    (changed: () => void) => {
      if (!status) return () => {};
      const subscription = status.subscribe({ next: changed });
      return () => subscription.unsubscribe();
    },
    [status],
  );
  const read = useCallback(() => status?.value.groups[group]?.initialDone === true, [status, group]);
  return useSyncExternalStore(subscribe, read, () => false);
}
