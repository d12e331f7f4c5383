/**
 * `pos-cloud-mirror/react`: React bindings of the mirror. React and `dexie-react-hooks` are
 * optional peer dependencies of the package, needed only by this entry; the main entry never
 * imports them.
 *
 * - {@link MirrorProvider} gives a mirror to a tree and runs it while mounted.
 * - {@link useMirror}, {@link useLiveQuery} (Dexie's live queries), {@link useMirrorStatus} and
 *   {@link useSyncProgress} read; {@link usePending}, {@link useConflicts} and
 *   {@link useRecordSyncState} show what waits; {@link useGroupSynced} tells when a sync group's
 *   first sync is complete;
 *   {@link useSave} and {@link useRemove} edit, with a form's errors per field.
 */
export { MirrorProvider, type MirrorProviderProps } from './mirror-provider.js';
export { MirrorContext, useMirror } from './mirror-context.js';
export { useLiveQuery } from './use-live-query.js';
export { useMirrorStatus, useSyncProgress } from './use-sync-status.js';
export { useGroupSynced } from './use-group-synced.js';
export { usePending, useConflicts, useRecordSyncState, type ConflictsState } from './use-outbox.js';
export { useSave, useRemove, type EditState, type SaveState, type RemoveState } from './use-edit.js';
export { fieldErrorsOf } from './field-errors.js';
