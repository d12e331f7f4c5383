/**
 * Local edits and the outbox (docs/design.md, decision 5): `save()` and `remove()` validate,
 * write the record and its outbox entry in one transaction (`local-edit.ts`); several edits of a
 * record fold into one entry (`outbox-entry.ts`); the snapshot of what a push sent for an entry
 * (`outbox-sent.ts`); rejected entries put back in line (`outbox-retry.ts`); every entry not
 * acknowledged yet, in any state (`outbox-list.ts`); local creates found with no entry, queued again
 * (`orphaned-creates.ts`).
 */
export { assertCollection, removeLocal, saveLocal, type LocalEditOptions } from './local-edit.js';
export { foldEdit, type LocalEdit } from './outbox-entry.js';
export { listOutbox, oldestEditAt } from './outbox-list.js';
export { findUnsentCreates, ORPHANED_CREATES_KEPT, readOrphanedCreates, requeueCreates, type RecordRef } from './orphaned-creates.js';
export { retryRejected } from './outbox-retry.js';
export { readSent, sentRecordOf, withSent, withoutSent } from './outbox-sent.js';
export { announceOutboxGrew, OUTBOX_TOUCHED } from './outbox-touched.js';
