/**
 * This mirror: `createMirror` against the simulator over HTTP, into the run's IndexedDB, and one
 * `syncNow()` (fetch, strict JSON, read face, checkpoints and cursors saved with each page,
 * quarantine, outbox check). Not a benchmark itself.
 */
import { createMirror } from '../../src/mirror/create-mirror.js';
import { countRecords, type Candidate } from './candidate.js';

export const ours: Candidate = async (job, { indexedDB, IDBKeyRange }) => {
  const mirror = createMirror({
    baseUrl: job.baseUrl,
    token: job.token,
    userAgent: 'pos-cloud-mirror bench',
    dbName: 'peers-ours',
    indexedDB,
    IDBKeyRange,
    collections: job.collections,
    categories: false,
    reconcileIntervalMs: 0,
  });
  return {
    async sync() {
      const report = await mirror.syncNow();
      if (report.failed.length > 0) throw new Error(`the mirror's sync failed: ${JSON.stringify(report.failed)}`);
    },
    count: () => countRecords(mirror.db, job),
    close: () => mirror.close(),
  };
};
