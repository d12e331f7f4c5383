/**
 * Everything the browser benchmarks run in a page, bundled into one script that sets
 * `globalThis.bench` (see `bench/browser/bench-page.ts`). Each measurement is started as a job and
 * polled (`in-page/jobs.ts`).
 */
import { baselineSync } from './baseline-sync.js';
import { idleDelta } from './idle-delta.js';
import { indexCost } from './index-cost.js';
import { jobRunner, type JobState } from './jobs.js';
import { jsonRounds } from './json.js';
import { liveQueryNotification } from './live-query.js';
import { mirrorSync, SYNC_MARKS } from './mirror-sync.js';
import { pagesPerTransaction } from './pages-per-transaction.js';
import { searchProducts } from './search.js';
import { timerResolution } from './timer-resolution.js';
import { timeToUseful } from './time-to-useful.js';

export { SYNC_MARKS };

/** The measurements, by name. */
const JOBS = { baselineSync, mirrorSync, idleDelta, liveQueryNotification, searchProducts, jsonRounds, timerResolution, pagesPerTransaction, timeToUseful, indexCost } as const;

/** A measurement's name. */
export type JobName = keyof typeof JOBS;

export type { JobState };

export const { startJob, pollJob } = jobRunner<JobName>(JOBS);
