/**
 * The pull (docs/design.md, decision 3): delta traversals by `_v` (`traverse.ts`), page by page,
 * the pages that arrived during the previous write applied with the last one's cursor in one
 * transaction (`apply-records.ts`, `pull.ts`), the first page of the next collection asked while
 * the last of one is written (`read-ahead.ts`), what a pull did (`pull-report.ts`), the next
 * checkpoint by the safe rule (`checkpoint.ts`); hydrations split into their own tables
 * (`hydrations.ts`); refused records quarantined (`quarantine.ts`); full reconcile sweeps
 * (`reconcile.ts`); the category tree (`categories.ts`); records that arrive by other means
 * (`ingest.ts`).
 */
export { pullCategories } from './categories.js';
export { HYDRATIONS, type Hydration } from './hydrations.js';
export { applyReadRecords, ingestRecords, type IngestReport } from './ingest.js';
export { createPuller, type Puller, type PullerOptions } from './pull.js';
export type { CollectionProgress, PullReport } from './pull-report.js';
export { PULL_DEFAULTS } from './pull-defaults.js';
export { quarantineRows } from './quarantine.js';
export { reconcileCollection, type ReconcileOptions, type ReconcileReport } from './reconcile.js';
export { NEWEST_FIRST, savedCursor } from './traversal-direction.js';
export { DAY_MS, edgeOf } from './edge.js';
