/**
 * The restart of a durable mirror (`openFileStorage`), for `mirror-sync-durable.bench.ts`: each
 * round copies the data directory a first sync left, restarts a mirror on it in a fresh process
 * (open the directory and restore, then the first delta sync), folds its journals into a
 * snapshot there, and restarts again from that snapshot. Each restart reports its time, the CPU
 * of the restore, the peak RSS beside the heap the restored database takes (after a GC), and with
 * `RESTART_PROFILE=1` (first round) where the time went. Not a benchmark itself: `bench/run.ts`
 * runs only files named `*.bench.ts`; this file is also the restart process it forks.
 */
import { fork } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { profiled, type CpuProfile } from './cpu-profile.js';
import { restartCostTable } from './restart-costs.js';
import { gc, median } from './stats.js';

const RESTART_ENV = 'BENCH_DURABLE_RESTART';
/** The durable mirror's database, named outright: a restart must open the one the first sync wrote, whatever address it reaches the service at. */
export const DURABLE_BENCH_DB = 'pos-cloud-mirror:bench-durable';

/** What a restart process is given. */
interface RestartJob {
  baseUrl: string;
  token: string;
  dataDir: string;
  /** Fold the journals into a snapshot once the first delta is done (timed). */
  fold: boolean;
  profile: boolean;
}

/** What one restart measured. */
interface Restart {
  /** Open, restore and the first delta sync (ms). */
  totalMs: number;
  restoreMs: number;
  /** CPU time of the restore (user and system, every thread of the process). */
  restoreCpuMs: number;
  deltaMs: number;
  fetched: number;
  peakRss: number;
  /** Heap the restored database takes: after a GC, above the heap before it was opened. */
  databaseHeap: number;
  foldMs?: number;
  profile?: string;
}

/**
 * Runs `rounds` rounds on copies of `dataDir` (as a first sync of the simulator at `baseUrl`
 * left it) and prints the spread of each figure. `what` names the mirror in the printed lines.
 */
export async function measureRestarts(what: string, server: { baseUrl: string; token: string }, dataDir: string, rounds: number): Promise<void> {
  const asLeft: Restart[] = [];
  const folded: Restart[] = [];
  for (let round = 0; round < rounds; round++) {
    const copy = mkdtempSync(join(tmpdir(), 'bench-durable-restart-'));
    try {
      cpSync(dataDir, copy, { recursive: true });
      const profile = round === 0 && process.env.RESTART_PROFILE === '1';
      asLeft.push(await restart({ ...server, dataDir: copy, fold: true, profile }));
      folded.push(await restart({ ...server, dataDir: copy, fold: false, profile }));
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }
  for (const [label, runs] of [[`as its first sync left it`, asLeft], ['from the snapshot a fold wrote', folded]] as const) {
    console.log(
      `restart of the ${what} ${label} (${runs.length} runs, fresh processes): ${spread(runs, (r) => r.totalMs / 1000, 2)} s: ` +
        `open and restore ${spread(runs, (r) => r.restoreMs / 1000, 2)} s (CPU ${spread(runs, (r) => r.restoreCpuMs / 1000, 2)} s), ` +
        `first delta sync ${spread(runs, (r) => r.deltaMs / 1000, 2)} s (${spread(runs, (r) => r.fetched, 0)} records fetched); ` +
        `peak RSS ${spread(runs, (r) => r.peakRss / 2 ** 20, 0)} MB, ${spread(runs, (r) => r.peakRss / r.databaseHeap, 2)}x the heap the restored database takes (${spread(runs, (r) => r.databaseHeap / 2 ** 20, 0)} MB)` +
        (runs[0]?.foldMs !== undefined ? `; fold afterwards ${spread(runs, (r) => r.foldMs! / 1000, 2)} s` : ''),
    );
  }
  for (const [label, runs] of [['as its first sync left it', asLeft], ['from a folded snapshot', folded]] as const) {
    if (runs[0]?.profile) console.log(`\nwhere the first restart ${label} spent its time (CPU profile, self time):\n${runs[0].profile}`);
  }
}

/** `min–max (median m)` of a figure over the runs. */
function spread(runs: readonly Restart[], figure: (r: Restart) => number, digits: number): string {
  const values = runs.map(figure);
  const fmt = (n: number) => n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? fmt(low) : `${fmt(low)}–${fmt(high)} (median ${fmt(median(values))})`;
}

/** Restarts the mirror of `job` in a fresh process and resolves with what it measured. */
function restart(job: RestartJob): Promise<Restart> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [], {
      // The ~1M-record database is held in this process's heap.
      execArgv: ['--expose-gc', '--max-old-space-size=8192', '--import', 'tsx'],
      env: { ...process.env, [RESTART_ENV]: JSON.stringify(job) },
    });
    child.once('message', (message) => resolve(message as Restart));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`the restart process exited with ${code}`))));
  });
}

/** In the restart process: open the data directory, restore, run the first (delta) sync, maybe fold. */
async function restartChild(job: RestartJob): Promise<void> {
  const { createMirror } = await import('../src/mirror/create-mirror.js');
  const { openFileStorage } = await import('../src/node/index.js');
  const profiles: { name: string; profile: CpuProfile }[] = [];
  const phase = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    if (!job.profile) return run();
    const { result, profile } = await profiled(run);
    profiles.push({ name, profile });
    return result;
  };
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const storage = await phase('open and restore', () => openFileStorage({ dataDir: job.dataDir }));
  const opened = performance.now();
  const restoreCpu = process.cpuUsage(cpuBefore);
  const mirror = createMirror({ baseUrl: job.baseUrl, token: job.token, userAgent: 'pos-cloud-mirror bench', reconcileIntervalMs: 0, dbName: DURABLE_BENCH_DB, storage });
  const report = await phase('first delta sync', () => mirror.syncNow());
  const synced = performance.now();
  const peakRss = process.resourceUsage().maxRSS * 1024;
  gc();
  const databaseHeap = process.memoryUsage().heapUsed - heapBefore;
  let foldMs: number | undefined;
  if (job.fold) {
    const folding = performance.now();
    await storage.compact();
    foldMs = performance.now() - folding;
  }
  await mirror.close();
  const result: Restart = {
    totalMs: synced - started,
    restoreMs: opened - started,
    restoreCpuMs: (restoreCpu.user + restoreCpu.system) / 1000,
    deltaMs: synced - opened,
    fetched: report.pulls.reduce((n, p) => n + p.received, 0),
    peakRss,
    databaseHeap,
    ...(foldMs === undefined ? {} : { foldMs }),
    ...(job.profile ? { profile: restartCostTable(profiles) } : {}),
  };
  process.send!(result, () => process.exit(0));
}

if (process.env[RESTART_ENV]) await restartChild(JSON.parse(process.env[RESTART_ENV]) as RestartJob);
