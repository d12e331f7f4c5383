/**
 * The storage limit: a bare Dexie `bulkPut` of records already fetched and read (untimed, before
 * the run), into the mirror's own tables and indexes (`MirrorDb`), in pages of the same size as
 * the others fetch. Not a benchmark itself.
 */
import { MirrorDb } from '../../src/db/mirror-db.js';
import type { StoredRecord } from '../../src/db/sync-rows.js';
import { countRecords, type Candidate } from './candidate.js';
import { PAGE_LIMIT } from './job.js';
import { allStrictPages } from './strict-page.js';

export const bulkPut: Candidate = async (job, storage) => {
  const pages: [string, StoredRecord[]][] = [];
  for (const collection of job.collections) {
    for await (const page of allStrictPages(job, collection, PAGE_LIMIT)) pages.push([collection, page.records]);
  }
  const db = new MirrorDb('peers-bulk-put', storage);
  return {
    async sync() {
      for (const [collection, records] of pages) await db.table(collection).bulkPut(records);
    },
    count: () => countRecords(db, job),
    async close() {
      db.close();
    },
  };
};
