/**
 * Runs one candidate's copy in a fresh child process (this very file, forked with the job in an
 * environment variable): a fresh database, a fresh heap and JIT, and a peak RSS that is this
 * candidate's alone. The child's own output (RxDB's console notice, for one) is kept and shown only
 * if the run fails. Not a benchmark itself.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Candidate } from './candidate.js';
import type { CandidateName, Job, Outcome } from './job.js';

const CHILD_ENV = 'BENCH_PEERS_JOB';
/** With `PROFILE=<dir>`, every child writes a CPU profile (`node --cpu-prof`) into `<dir>/<candidate>/`. */
const PROFILE_DIR = process.env.PROFILE;

/** Runs `job` in a child process and resolves with what it measured. */
export function runCandidate(job: Job): Promise<Outcome> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx', ...(PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}/${job.candidate}`] : [])],
    env: { ...process.env, [CHILD_ENV]: JSON.stringify(job) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<Outcome>((resolve, reject) => {
    let outcome: Outcome | undefined;
    child.once('message', (message) => (outcome = message as Outcome));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0 && outcome) resolve(outcome);
      else reject(new Error(`${job.candidate} exited with ${String(code)}:\n${output}`));
    });
  });
}

async function load(name: CandidateName): Promise<Candidate> {
  switch (name) {
    case 'ours':
      return (await import('./ours.js')).ours;
    case 'rxdb':
      return (await import('./rxdb.js')).rxdb;
    case 'naive':
      return (await import('./naive.js')).naive;
    case 'bulkPut':
      return (await import('./bulk-put.js')).bulkPut;
  }
}

/** The child: prepare, time the copy, count what landed, report. */
async function child(job: Job): Promise<void> {
  const { IDBFactory, IDBKeyRange } = await import('fake-indexeddb');
  const run = await (await load(job.candidate))(job, { indexedDB: new IDBFactory(), IDBKeyRange });
  const rssBefore = process.memoryUsage().rss;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await run.sync();
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const records = await run.count();
  await run.close();
  const outcome: Outcome = { ms, cpuMs: (cpu.user + cpu.system) / 1000, records, rssBefore, rssPeak: process.resourceUsage().maxRSS * 1024 };
  process.send!(outcome, () => process.exit(0));
}

const childJob = process.env[CHILD_ENV];
if (childJob !== undefined) await child(JSON.parse(childJob) as Job);
