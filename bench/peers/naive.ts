/**
 * The naive loop: for each collection, fetch a page, read it exactly (strict JSON, strict read
 * face), `bulkPut` it into the mirror's own tables and indexes (`MirrorDb`), next page. No
 * checkpoint, cursor, quarantine or outbox; nothing fetched while a page is written. Not a
 * benchmark itself.
 */
import { MirrorDb } from '../../src/db/mirror-db.js';
import { countRecords, type Candidate } from './candidate.js';
import { PAGE_LIMIT } from './job.js';
import { allStrictPages } from './strict-page.js';

export const naive: Candidate = async (job, storage) => {
  const db = new MirrorDb('peers-naive', storage);
  return {
    async sync() {
      for (const collection of job.collections) {
        const table = db.table(collection);
        for await (const page of allStrictPages(job, collection, PAGE_LIMIT)) await table.bulkPut(page.records);
      }
    },
    count: () => countRecords(db, job),
    async close() {
      db.close();
    },
  };
};
