/**
 * Other copies of the mirror in the same storage (left behind by a changed base URL or database
 * name) that still hold edits: finding them (`stranded-copies.ts`), reading their outbox without
 * opening them (`copy-outbox.ts`, `copy-tenant.ts`), and moving their edits into this mirror's
 * outbox under the copy's lead (`copy-lead.ts`, `take-over-edits.ts`, `taken-entries.ts`), one
 * take-over at a time in the sync controller's queue (`stranded-control.ts`).
 */
export { asLeaderOf } from './copy-lead.js';
export { createStrandedControl, type StrandedControl, type StrandedControlOptions } from './stranded-control.js';
export { findStrandedCopies, type StrandedCopy } from './stranded-copies.js';
export { takeOverEdits, type LeftReason, type TakeOverReport } from './take-over-edits.js';
