/**
 * What the peers benchmark hands to a candidate's process, and what it gets back. Not a benchmark
 * itself: `bench/run.ts` runs only files named `*.bench.ts`.
 */
import type { CollectionName } from '../../src/schema/collections.js';

/** The four ways of making the first copy of a tenant that the benchmark compares. */
export type CandidateName = 'ours' | 'rxdb' | 'naive' | 'bulkPut';

/** Where the simulated service listens. */
export interface Server {
  baseUrl: string;
  token: string;
}

/** One timed run of one candidate, in a process of its own. */
export interface Job extends Server {
  candidate: CandidateName;
  /** The collections to copy, every one from the start (a first sync). */
  collections: CollectionName[];
}

/** What one run measured. */
export interface Outcome {
  /** Wall time of the copy, from creating the database to the last record stored. */
  ms: number;
  /** CPU time of the candidate's process over the same span (the server runs in another process). */
  cpuMs: number;
  /** Records found in the database afterwards (checked against the server's count). */
  records: number;
  /** Resident set of the process just before the timed copy, in bytes. */
  rssBefore: number;
  /** Peak resident set of the process over its whole life, in bytes. */
  rssPeak: number;
}

/** The records per page every candidate asks for: the mirror's default `pageLimit`. */
export const PAGE_LIMIT = 400;
