/**
 * Page code of the peers benchmark in the browser: this mirror, the naive loop and the bare
 * `bulkPut`, all on the mirror's Dexie. RxDB has a page of its own (`peers-rxdb.ts`): it brings
 * its own copy of Dexie, and Dexie refuses to load twice in one page.
 */
import { bulkPut } from '../../peers/bulk-put.js';
import { naive } from '../../peers/naive.js';
import { ours } from '../../peers/ours.js';
import { jobRunner } from './jobs.js';
import { peerRun, type PeerJobName } from './peer-run.js';

export const { startJob, pollJob } = jobRunner<PeerJobName>({ peerRun: peerRun({ ours, naive, bulkPut }) });
