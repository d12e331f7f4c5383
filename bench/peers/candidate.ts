/**
 * The shape every candidate of the peers benchmark takes. Not a benchmark itself.
 */
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

/** Prepares a run of `job` (anything that is not part of the copy itself, such as loading the code). */
export type Candidate = (job: Job) => Promise<Run>;
