/**
 * Conflicts (docs/design.md, decision 7): before a push, each entry is checked against the server
 * state the pull brought (`conflict-check.ts`); a record changed on both sides is merged field by
 * field (`merge.ts`) and what is left is decided by the strategy (`conflict-strategy.ts`) or kept
 * as a conflict row the app resolves (`conflict-resolution.ts`).
 */
export { appView, checkBase, checkEntry, knownServerState, type CheckOutcome } from './conflict-check.js';
export { listConflicts, resolveConflict, type ConflictChoice } from './conflict-resolution.js';
export {
  chooseSide,
  isConflictStrategy,
  type ConflictInfo,
  type ConflictResolver,
  type ConflictStrategy,
} from './conflict-strategy.js';
export { mergeRecords, type MergeResult } from './merge.js';
