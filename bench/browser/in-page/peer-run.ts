/**
 * Page code: one timed run of one candidate of the peers benchmark (`bench/peers/`) in the engine's
 * own IndexedDB: every database of the page's origin deleted first (each run starts empty, as each
 * Node run starts in a fresh process), the candidate prepared (untimed), its copy timed with the
 * page's heartbeat running, what landed counted, the database closed and deleted again.
 */
import type { Candidate } from '../../peers/candidate.js';
import type { CandidateName, Job } from '../../peers/job.js';
import { startHeartbeat, type HeartbeatReport } from './heartbeat.js';

/** The peers' measurement, as `runJob` names it. */
export type PeerJobName = 'peerRun';

/** What one run measured. */
export interface PeerRunResult {
  /** Wall time of the copy (ms). */
  ms: number;
  /** Records in the candidate's databases afterwards. */
  records: number;
  heartbeat: HeartbeatReport;
  /** `performance.memory.usedJSHeapSize` after the copy (Chromium only), bytes. */
  heapAfter: number | null;
}

/** How long a deletion may stay blocked by a connection that is closing before the run fails (ms). */
const BLOCKED_LIMIT_MS = 15_000;

/**
 * Deletes every IndexedDB database of the page's origin. A deletion that is blocked waits: the
 * `blocked` event only says a connection is still open, and the request goes on once it closes.
 * WebKit keeps the previous run's tab's connection open for a moment after that tab was closed
 * (and one closed with `close()` until its transactions end); only one still open after
 * {@link BLOCKED_LIMIT_MS} fails the run.
 */
async function deleteAllDatabases(): Promise<void> {
  for (const { name } of await indexedDB.databases()) {
    if (name === undefined) continue;
    await new Promise<void>((resolve, reject) => {
      let limit: ReturnType<typeof setTimeout> | undefined;
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = () => {
        clearTimeout(limit);
        resolve();
      };
      request.onerror = () => {
        clearTimeout(limit);
        reject(request.error ?? new Error(`could not delete database ${name}`));
      };
      request.onblocked = () => {
        limit ??= setTimeout(() => reject(new Error(`deleting database ${name} was blocked by an open connection for ${BLOCKED_LIMIT_MS / 1000} s`)), BLOCKED_LIMIT_MS);
      };
    });
  }
}

/** The `peerRun` measurement over the candidates this page's script holds. */
export function peerRun(candidates: Partial<Record<CandidateName, Candidate>>): (job: Job) => Promise<PeerRunResult> {
  return async (job) => {
    const candidate = candidates[job.candidate];
    if (!candidate) throw new Error(`this page has no candidate ${job.candidate}`);
    await deleteAllDatabases();
    const run = await candidate(job, { indexedDB, IDBKeyRange });
    const heartbeat = startHeartbeat();
    const started = performance.now();
    await run.sync();
    const ms = performance.now() - started;
    const report = heartbeat.stop();
    const records = await run.count();
    await run.close();
    const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
    await deleteAllDatabases();
    return { ms, records, heartbeat: report, heapAfter: memory?.usedJSHeapSize ?? null };
  };
}
