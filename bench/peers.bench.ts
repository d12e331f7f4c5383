/**
 * The first sync of one simulated tenant by this mirror and by its peers, in interleaved rounds
 * (ours, RxDB, naive, bulkPut; again...), each run in a fresh child process with a fresh
 * fake-indexeddb database, against one simulator (another child process) over HTTP on 127.0.0.1:
 *
 * - ours: `createMirror` + `syncNow()`;
 * - RxDB: `replicateRxCollection`, pull only, into `rxdb/plugins/storage-dexie` (see `peers/rxdb.ts`
 *   for how it is configured and why);
 * - naive: fetch a page, strict JSON + strict read face, `bulkPut` into the mirror's tables, next page;
 * - bulkPut: a bare `bulkPut` of the records already parsed (fetched before the timing): the storage limit.
 *
 * Everyone reads pages of 400 with this package's JSON parser and read schemas, and writes the same
 * indexes (RxDB: as far as it takes them). Printed: median records/s, CPU per record, peak RSS of
 * each candidate's process, and the mirror's ratio to each peer.
 *
 *   npm run bench -- peers            ROUNDS=5 (default); SCENARIO=customers or SCENARIO=small for one;
 *                                     PROFILE=dir writes a CPU profile of every run into dir/<candidate>/
 */
import { forkSimulator } from './simulator-process.js';
import { runCandidate } from './peers/candidate-process.js';
import type { CandidateName, Outcome } from './peers/job.js';
import { LABELS, reportLines } from './peers/report.js';
import { SCENARIOS } from './peers/scenarios.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';

const ROUNDS = Number(process.env.ROUNDS ?? smokeOr(1, 5));
const ONLY = process.env.SCENARIO;
const ORDER = Object.keys(LABELS) as CandidateName[];

for (const scenario of SCENARIOS) {
  if (ONLY !== undefined && !scenario.label.includes(ONLY)) continue;
  const server = await forkSimulator({ size: scenario.size, seed: 9 });
  try {
    const records = scenario.collections.reduce((n, c) => n + server.counts[c], 0);
    console.log(`\n${scenario.label}: ${records.toLocaleString('en-US')} records, ${ROUNDS} rounds interleaved, each run in its own process${SMOKE_NOTE}`);
    const outcomes = Object.fromEntries(ORDER.map((name) => [name, [] as Outcome[]])) as Record<CandidateName, Outcome[]>;
    for (let round = 0; round < ROUNDS; round++) {
      for (const candidate of ORDER) {
        const outcome = await runCandidate({ candidate, baseUrl: server.baseUrl, token: server.token, collections: scenario.collections });
        if (outcome.records !== records) throw new Error(`${candidate} stored ${outcome.records} records, the server has ${records}`);
        outcomes[candidate].push(outcome);
      }
    }
    for (const line of reportLines(records, outcomes)) console.log(line);
  } finally {
    server.stop();
  }
}
