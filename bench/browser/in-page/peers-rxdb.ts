/**
 * Page code of the peers benchmark in the browser: RxDB on its Dexie storage, in a page of its
 * own (it brings its own copy of Dexie; see `peers.ts`).
 */
import { rxdb } from '../../peers/rxdb.js';
import { jobRunner } from './jobs.js';
import { peerRun, type PeerJobName } from './peer-run.js';

export const { startJob, pollJob } = jobRunner<PeerJobName>({ peerRun: peerRun({ rxdb }) });
