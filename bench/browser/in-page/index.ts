/**
 * Everything the browser benchmarks run in a page, bundled into one script that sets
 * `globalThis.bench` (see `bench/browser/bench-page.ts`). Each measurement is started as a job and
 * polled (`startJob`, `pollJob`), so that no automation client waits on one long script: a first
 * sync of the medium tenant outlasts some clients' time limits.
 */
import { baselineSync } from './baseline-sync.js';
import { idleDelta } from './idle-delta.js';
import { jsonRounds } from './json.js';
import { liveQueryNotification } from './live-query.js';
import { mirrorSync, SYNC_MARKS } from './mirror-sync.js';
import { searchProducts } from './search.js';
import { timerResolution } from './timer-resolution.js';

export { SYNC_MARKS };

/** The measurements, by name. */
const JOBS = { baselineSync, mirrorSync, idleDelta, liveQueryNotification, searchProducts, jsonRounds, timerResolution } as const;

/** A measurement's name. */
export type JobName = keyof typeof JOBS;

/** A job's state: running, its result, or what it threw. */
export type JobState = { state: 'running' } | { state: 'done'; value: unknown } | { state: 'failed'; message: string };

const jobs = new Map<number, JobState>();
let lastJob = 0;

/** Starts a measurement and returns its job number. */
export function startJob(name: JobName, arg: unknown): number {
  const job = JOBS[name] as (arg: unknown) => Promise<unknown>;
  if (!job) throw new Error(`no such bench job: ${String(name)}`);
  const id = ++lastJob;
  jobs.set(id, { state: 'running' });
  job(arg).then(
    (value) => jobs.set(id, { state: 'done', value: value ?? null }),
    (error: unknown) => jobs.set(id, { state: 'failed', message: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error) }),
  );
  return id;
}

/** A job's state; a finished job is forgotten once read. */
export function pollJob(id: number): JobState {
  const job = jobs.get(id);
  if (!job) return { state: 'failed', message: `no such job: ${id}` };
  if (job.state !== 'running') jobs.delete(id);
  return job;
}
