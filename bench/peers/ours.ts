/**
 * This mirror: `createMirror` against the simulator over HTTP, into fake-indexeddb, and one
 * `syncNow()` (fetch, strict JSON, read face, checkpoints and cursors saved with each page,
 * quarantine, outbox check). Not a benchmark itself.
 */
import { countRecords, type Candidate } from './candidate.js';

export const ours: Candidate = async (job) => {
  const { IDBFactory, IDBKeyRange } = await import('fake-indexeddb');
  const { createMirror } = await import('../../src/mirror/create-mirror.js');
  const mirror = createMirror({
    baseUrl: job.baseUrl,
    token: job.token,
    userAgent: 'pos-cloud-mirror bench',
    dbName: 'peers-ours',
    indexedDB: new IDBFactory(),
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
