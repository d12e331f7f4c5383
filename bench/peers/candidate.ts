/**
 * The shape every candidate of the peers benchmark takes. Not a benchmark itself.
 */
import type { Dexie } from 'dexie';
import type { Job } from './job.js';

/** One candidate's copy of a tenant, prepared and ready to be timed. */
export interface Run {
  /** The timed part: from creating the database to the last record stored. */
  sync(): Promise<void>;
  /** Records in the database afterwards, every copied collection together (not timed). */
  count(): Promise<number>;
  /** Closes the database (not timed). */
  close(): Promise<void>;
}

/**
 * Where a candidate's databases live: fake-indexeddb in a Node process of its own, or the page's
 * IndexedDB in a browser engine.
 */
export interface Storage {
  indexedDB: IDBFactory;
  IDBKeyRange: typeof IDBKeyRange;
}

/** Prepares a run of `job` (anything that is not part of the copy itself, such as loading the code). */
export type Candidate = (job: Job, storage: Storage) => Promise<Run>;

/** Records in `db` over `job`'s collections: what {@link Run.count} reports for a candidate on Dexie. */
export async function countRecords(db: Dexie, job: Job): Promise<number> {
  let n = 0;
  for (const c of job.collections) n += await db.table(c).count();
  return n;
}
