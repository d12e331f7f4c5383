/**
 * What a history window buys: the first sync of a tenant (`TENANT`, default `large`, about a
 * million records; `tiny` in a smoke run) into the durable Node store (`openFileStorage`), whole
 * and with a window of `DAYS` days (default 30) on every history collection (orders and their
 * items, transactions, shifts, stock-ups, stock history), rounds alternating which goes first. The
 * simulator's clock is the present, as a real service's is, so the window holds the shop's last
 * days. Each sync runs in a fresh process, which reports its records, its time, the data
 * directory's size on disk once the mirror is closed, and its peak RSS; the window's figures are
 * printed beside the whole copy's and as ratios to them.
 *
 *   npm run bench -- history-window          TENANT=medium DAYS=30 ROUNDS=2
 */
import { fork } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SizeOption } from '../src/simulator/size.js';
import type { HistoryWindow } from '../src/sync/cycle/index.js';
import { forkSimulator } from './simulator-process.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';
import { median } from './stats.js';

const CHILD_ENV = 'BENCH_HISTORY_WINDOW_SYNC';

/** What a sync process is given. */
interface SyncJob {
  baseUrl: string;
  token: string;
  dataDir: string;
  historyWindow?: HistoryWindow;
}

/** What one first sync measured. */
interface SyncFigures {
  ms: number;
  records: number;
  diskBytes: number;
  peakRss: number;
}

if (process.env[CHILD_ENV]) await syncChild(JSON.parse(process.env[CHILD_ENV]) as SyncJob);
else await main();

async function main(): Promise<void> {
  const tenant = (process.env.TENANT ?? smokeOr('tiny', 'large')) as SizeOption;
  const days = Number(process.env.DAYS ?? 30);
  const rounds = Number(process.env.ROUNDS ?? smokeOr(1, 2));
  if (!(days > 0) || !Number.isInteger(rounds) || rounds < 1) throw new Error(`DAYS must be a positive number and ROUNDS a positive integer, got "${process.env.DAYS}", "${process.env.ROUNDS}"`);
  const window: HistoryWindow = { orders: days, transactions: days, shifts: days, stockup: days, stock_history: days };
  const server = await forkSimulator({ size: tenant, seed: 5, clock: { start: Date.now() } });
  const whole: SyncFigures[] = [];
  const windowed: SyncFigures[] = [];
  try {
    console.log(`history-window: tenant ${typeof tenant === 'string' ? tenant : 'custom'}, a window of ${days} days on every history collection, ${rounds} round(s)${SMOKE_NOTE}`);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['whole', 'window'] as const) : (['window', 'whole'] as const);
      for (const variant of order) {
        const figures = await firstSync({ baseUrl: server.baseUrl, token: server.token, ...(variant === 'window' ? { historyWindow: window } : {}) });
        (variant === 'window' ? windowed : whole).push(figures);
        console.log(`  round ${round + 1} ${variant}: ${describe(figures)}`);
      }
    }
  } finally {
    server.stop();
  }
  const row = (label: string, runs: SyncFigures[]) =>
    `${label}: records ${spread(runs.map((r) => r.records), 0)}, first sync ${spread(runs.map((r) => r.ms / 1000), 1)} s, ` +
    `on disk ${spread(runs.map((r) => r.diskBytes / 2 ** 20), 0)} MB, peak RSS ${spread(runs.map((r) => r.peakRss / 2 ** 20), 0)} MB`;
  console.log(row('whole copy', whole));
  console.log(row(`window of ${days} days`, windowed));
  const ratio = (figure: (r: SyncFigures) => number) => (median(windowed.map(figure)) / median(whole.map(figure))).toFixed(3);
  console.log(
    `window / whole (medians): records ${ratio((r) => r.records)}x, time ${ratio((r) => r.ms)}x, on disk ${ratio((r) => r.diskBytes)}x, peak RSS ${ratio((r) => r.peakRss)}x${SMOKE_NOTE}`,
  );
}

/** One first sync in a fresh process, into a fresh data directory (removed afterwards). */
async function firstSync(job: Omit<SyncJob, 'dataDir'>): Promise<SyncFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-history-window-'));
  try {
    return await new Promise<SyncFigures>((resolve, reject) => {
      const child = fork(fileURLToPath(import.meta.url), [], {
        execArgv: ['--max-old-space-size=8192', '--import', 'tsx'],
        env: { ...process.env, [CHILD_ENV]: JSON.stringify({ ...job, dataDir }) },
      });
      child.once('message', (message) => resolve(message as SyncFigures));
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`the sync process exited with ${code}`))));
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** In the sync process: a first sync into the data directory, then the figures. */
async function syncChild(job: SyncJob): Promise<void> {
  const { createMirror } = await import('../src/mirror/create-mirror.js');
  const { openFileStorage } = await import('../src/node/index.js');
  const { COLLECTIONS } = await import('../src/schema/collections.js');
  const storage = await openFileStorage({ dataDir: job.dataDir });
  const started = performance.now();
  const mirror = createMirror({
    baseUrl: job.baseUrl,
    token: job.token,
    userAgent: 'pos-cloud-mirror bench (history window)',
    reconcileIntervalMs: 0,
    dbName: 'pos-cloud-mirror:bench-history-window',
    storage,
    ...(job.historyWindow ? { historyWindow: job.historyWindow } : {}),
  });
  await mirror.syncNow();
  const ms = performance.now() - started;
  let records = 0;
  for (const collection of COLLECTIONS) records += await mirror.db.table(collection).count();
  await mirror.close();
  const figures: SyncFigures = { ms, records, diskBytes: sizeOf(job.dataDir), peakRss: process.resourceUsage().maxRSS * 1024 };
  process.send!(figures, () => process.exit(0));
}

/** Bytes of the files under `dir`. */
function sizeOf(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    bytes += entry.isDirectory() ? sizeOf(path) : statSync(path).size;
  }
  return bytes;
}

function describe(r: SyncFigures): string {
  return `${r.records.toLocaleString('en')} records in ${(r.ms / 1000).toFixed(1)} s, ${(r.diskBytes / 2 ** 20).toFixed(1)} MB on disk, peak RSS ${(r.peakRss / 2 ** 20).toFixed(0)} MB`;
}

/** `min–max (median m)` of values, or the one value. */
function spread(values: readonly number[], digits: number): string {
  const fmt = (n: number) => n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? fmt(low) : `${fmt(low)}–${fmt(high)} (median ${fmt(median(values))})`;
}
