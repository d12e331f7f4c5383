/**
 * `LARGE=1` of the browser benchmark: the first sync of the simulator's ~1M-record tenant (`large`,
 * the simulator in a child process) into one engine's IndexedDB, in a profile on disk, as a person's
 * browser keeps it. Per round: the mirror's first sync (time, records/s, the longest main-thread
 * task by the page's heartbeats and the Long Tasks API, the tab's JS heap sampled through CDP
 * `Runtime.getHeapUsage` every 250 ms in Chromium), the database's size on disk, an idle delta on
 * it and a live query's notification after a write; then the baseline (bare fetch + `JSON.parse` +
 * `bulkPut` of the same pages) in the same tab, for the ratio. Rounds alternate which goes first.
 *
 * Not a benchmark itself: `bench/run.ts` runs only files named `*.bench.ts`.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineBrowser, EngineTab } from '../../scripts/engines/index.js';
import type { SimulatorProcess } from '../simulator-process.js';
import { runJob, type BenchServer } from './bench-page.js';
import type { BaselineSyncResult } from './in-page/baseline-sync.js';
import type { IdleDeltaResult } from './in-page/idle-delta.js';
import type { LiveQueryResult } from './in-page/live-query.js';
import type { MirrorSyncResult } from './in-page/mirror-sync.js';

/** One round on the large tenant in one engine. */
export interface LargeRound {
  mirror: MirrorSyncResult;
  baseline: BaselineSyncResult;
  /** The tab's largest JS heap in use during the mirror's sync (bytes); null where the engine offers no reading. */
  peakHeap: number | null;
  heapSamples: number;
  /** What the origin's IndexedDB takes in the profile's folder once the sync is done (bytes); null without a profile on disk. */
  diskBytes: number | null;
  /** Undefined when the mirror's sync was stopped at the time limit (its database is gone). */
  idle?: IdleDeltaResult;
  live?: LiveQueryResult;
}

/** How the rounds run. */
export interface LargeOptions {
  rounds: number;
  limitMs: number;
  liveWrites: number;
  onRound(round: LargeRound, index: number): void;
}

/** How often the heap is read during the sync (ms). */
const HEAP_EVERY_MS = 250;

/** Runs the large tenant's rounds in a tab of `browser` on `server` (which proxies `sim`). */
export async function largeSync(browser: EngineBrowser, server: BenchServer, sim: SimulatorProcess, options: LargeOptions): Promise<LargeRound[]> {
  const rounds: LargeRound[] = [];
  for (let r = 0; r < options.rounds; r++) {
    const tab = await server.open(browser);
    try {
      const common = { base: server.apiBaseUrl, token: sim.token, limitMs: options.limitMs };
      const dbName = `mirror-large-${r}`;
      const baseline = async () => {
        await sim.setOptions({ idsAsStrings: true });
        try {
          return await runJob<BaselineSyncResult>(tab, 'baselineSync', { ...common, collections: Object.keys(sim.counts), dbName: `baseline-large-${r}` });
        } finally {
          await sim.setOptions({ idsAsStrings: false });
        }
      };
      const mirror = async () => {
        const heap = sampleHeap(tab);
        const result = await runJob<MirrorSyncResult>(tab, 'mirrorSync', { ...common, dbName, keep: true }).finally(() => heap.stop());
        const { peak, samples } = heap.stop();
        const diskBytes = browser.profileDir === undefined || result.bounded ? null : await indexedDbBytes(browser.profileDir);
        const after: Pick<LargeRound, 'idle' | 'live'> = {};
        if (!result.bounded) {
          after.idle = await runJob<IdleDeltaResult>(tab, 'idleDelta', { base: server.apiBaseUrl, token: sim.token, dbName });
          // The live query's measurement deletes the database once done.
          after.live = await runJob<LiveQueryResult>(tab, 'liveQueryNotification', { base: server.apiBaseUrl, token: sim.token, dbName, writes: options.liveWrites });
        }
        return { mirror: result, peakHeap: peak, heapSamples: samples, diskBytes, ...after };
      };
      let round: LargeRound;
      if (r % 2 === 0) {
        const m = await mirror();
        round = { ...m, baseline: await baseline() };
      } else {
        const b = await baseline();
        round = { ...(await mirror()), baseline: b };
      }
      rounds.push(round);
      options.onRound(round, r);
      if (round.mirror.bounded || round.baseline.bounded) break;
    } finally {
      await tab.close();
    }
  }
  return rounds;
}

/**
 * Reads the tab's JS heap in use every {@link HEAP_EVERY_MS} through CDP (Chromium); elsewhere
 * nothing. A reading waits for the page's main thread, so a busy page is read less often, never
 * missed at its end.
 */
function sampleHeap(tab: EngineTab): { stop(): { peak: number | null; samples: number } } {
  if (!tab.cdp) return { stop: () => ({ peak: null, samples: 0 }) };
  let peak = 0;
  let samples = 0;
  let running = true;
  const read = async () => {
    while (running) {
      const usage = (await tab.cdp!('Runtime.getHeapUsage').catch(() => undefined)) as { usedSize: number } | undefined;
      if (usage) {
        peak = Math.max(peak, usage.usedSize);
        samples++;
      }
      await new Promise((resolve) => setTimeout(resolve, HEAP_EVERY_MS));
    }
  };
  const reading = read();
  return {
    stop() {
      running = false;
      void reading;
      return { peak: samples > 0 ? peak : null, samples };
    },
  };
}

/**
 * The bytes of every file in the profile's IndexedDB folders: Chromium's `Default/IndexedDB`,
 * Firefox's `storage/default/<origin>/idb`.
 */
async function indexedDbBytes(profileDir: string): Promise<number> {
  let total = 0;
  const walk = async (dir: string, inside: boolean): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      const isDb = inside || entry.name === 'IndexedDB' || entry.name === 'idb';
      if (entry.isDirectory()) await walk(path, isDb);
      else if (isDb && entry.isFile()) total += (await stat(path)).size;
    }
  };
  await walk(profileDir, false);
  return total;
}

/** The large tenant's figures of one engine, as printed and written with the run's JSON. */
export interface LargeFigures {
  records: number;
  rounds: LargeRound[];
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const rate = (records: number, ms: number) => Math.round(records / (ms / 1000));

/** One round as a line of its own (printed as it ends). */
export function largeRoundLine(round: LargeRound, index: number): string {
  const { mirror, baseline } = round;
  const beat = mirror.heartbeat;
  const parts = [
    `  large round ${index + 1}: mirror ${mirror.records.toLocaleString('en')} records in ${(mirror.ms / 1000).toFixed(1)} s (${rate(mirror.records, mirror.ms).toLocaleString('en')}/s)${mirror.bounded ? ' (stopped at the limit)' : ''}`,
    `baseline ${baseline.records.toLocaleString('en')} in ${(baseline.ms / 1000).toFixed(1)} s (${rate(baseline.records, baseline.ms).toLocaleString('en')}/s)${baseline.bounded ? ' (stopped at the limit)' : ''}`,
    `ratio ${(rate(mirror.records, mirror.ms) / rate(baseline.records, baseline.ms)).toFixed(2)}x`,
  ];
  const lines = [parts.join(', ')];
  lines.push(
    `    peak JS heap ${round.peakHeap === null ? 'n/a (no reading in this engine)' : `${mb(round.peakHeap)} (${round.heapSamples} readings)`}; ` +
      `longest main-thread task: timer gap ${beat.timerMaxGapMs.toFixed(0)} ms, frame gap ${beat.frameMaxGapMs === null ? 'n/a' : `${beat.frameMaxGapMs.toFixed(0)} ms`}, ` +
      `Long Tasks ${beat.longTaskMaxMs === null ? 'n/a' : `${beat.longTaskMaxMs.toFixed(0)} ms (${beat.longTasks} over 50 ms)`}`,
  );
  const disk = round.diskBytes === null ? 'n/a' : mb(round.diskBytes);
  const usage = round.idle?.storageUsage == null ? 'n/a' : mb(round.idle.storageUsage);
  lines.push(`    on disk ${disk} (storage.estimate ${usage})`);
  if (round.idle) lines.push(`    idle delta: ${round.idle.ms.toFixed(0)} ms, ${round.idle.requests} requests, ${round.idle.pulled} records pulled`);
  if (round.live) {
    const sorted = [...round.live.fromCommitMs].sort((a, b) => a - b);
    lines.push(`    live query over ${round.live.tableRows.toLocaleString('en')} order items: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms from the commit, max ${sorted.at(-1)!.toFixed(1)} ms (${sorted.length} writes)`);
  }
  return lines.join('\n');
}
