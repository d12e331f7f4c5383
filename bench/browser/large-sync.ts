/**
 * `LARGE=1` of the browser benchmark: the first sync of the simulator's ~1M-record tenant (`large`,
 * or a smaller preset with `LARGE_SIZE`; the simulator in a child process) into one engine's
 * IndexedDB, on disk, as a person's browser keeps it. Per round: the mirror's first sync (time,
 * records/s, the longest main-thread task by the page's heartbeats and the Long Tasks API, the
 * tab's JS heap where the engine gives a reading), the database's size on disk, an idle delta on
 * it and a live query's notification after a write; then the baseline (bare fetch + `JSON.parse` +
 * `bulkPut` of the same pages) in the same tab, for the ratio. Rounds alternate which goes first.
 *
 * Where a round's tab comes from is a {@link LargeHost}: a tab of an engine layer's browser
 * ({@link engineHost}: Chromium and Firefox keep a profile on disk), or for WebKit a MiniBrowser
 * outside WebDriver (`webkit-on-disk.ts`), since WebKit under WebDriver keeps IndexedDB in memory.
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
  /** The tab's largest JS heap reading during the mirror's sync (bytes); null where the engine offers no reading. */
  peakHeap: number | null;
  heapSamples: number;
  /** What the heap reading is (the engine's own measure), null where there is none. */
  heapMeasure: string | null;
  /** What the mirror's database takes on disk once the sync is done (bytes); null where that cannot be known. */
  diskBytes: number | null;
  /** The folder {@link diskBytes} was read from, or why there is no figure. */
  diskFrom: string;
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

/** The largest JS heap reading while the heap was read. */
export interface HeapReading {
  peak: number | null;
  samples: number;
}

/** What the database takes on disk, and where that was read. */
export interface DiskReading {
  bytes: number | null;
  /** The folder read, or why there is no figure. */
  from: string;
}

/** A tab of its own for one round, with what its engine lets the benchmark read around it. */
export interface LargeTab {
  tab: Pick<EngineTab, 'engine' | 'evaluate'>;
  /** Starts reading the tab's JS heap; `stop` resolves with the largest reading. */
  readHeap(): Promise<{ stop(): Promise<HeapReading> }>;
  /** What the (closed) database `dbName` takes on disk. */
  diskBytes(dbName: string): Promise<DiskReading>;
  close(): Promise<void>;
}

/** Where the large rounds run: a fresh tab on the bench page for each. */
export interface LargeHost {
  /** What the heap reading is, null where the engine gives none. */
  heapMeasure: string | null;
  open(): Promise<LargeTab>;
}

/** How often the heap is read during the sync through CDP (ms). */
const HEAP_EVERY_MS = 250;

/** Runs the large tenant's rounds, each in a tab of `host` on `server` (which proxies `sim`). */
export async function largeSync(host: LargeHost, server: BenchServer, sim: SimulatorProcess, options: LargeOptions): Promise<LargeRound[]> {
  const rounds: LargeRound[] = [];
  for (let r = 0; r < options.rounds; r++) {
    const { tab, readHeap, diskBytes, close } = await host.open();
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
        const heap = await readHeap();
        const result = await runJob<MirrorSyncResult>(tab, 'mirrorSync', { ...common, dbName, keep: true }).catch(async (error: unknown) => {
          await heap.stop();
          throw error;
        });
        const { peak, samples } = await heap.stop();
        const disk: DiskReading = result.bounded ? { bytes: null, from: 'none: the sync was stopped at the limit and its database deleted' } : await diskBytes(dbName);
        const after: Pick<LargeRound, 'idle' | 'live'> = {};
        if (!result.bounded) {
          after.idle = await runJob<IdleDeltaResult>(tab, 'idleDelta', { base: server.apiBaseUrl, token: sim.token, dbName });
          // The live query's measurement deletes the database once done.
          after.live = await runJob<LiveQueryResult>(tab, 'liveQueryNotification', { base: server.apiBaseUrl, token: sim.token, dbName, writes: options.liveWrites });
        }
        return { mirror: result, peakHeap: peak, heapSamples: samples, heapMeasure: host.heapMeasure, diskBytes: disk.bytes, diskFrom: disk.from, ...after };
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
      await close();
    }
  }
  return rounds;
}

/**
 * Rounds in tabs of an engine layer's browser: the JS heap in use read through CDP
 * (`Runtime.getHeapUsage`, Chromium), the size on disk from the profile's folder where the layer
 * made one (Chromium, Firefox).
 */
export function engineHost(browser: EngineBrowser, server: BenchServer): LargeHost {
  return {
    heapMeasure: browser.engine === 'chromium' ? `JS heap in use (CDP Runtime.getHeapUsage every ${HEAP_EVERY_MS} ms)` : null,
    async open() {
      const tab = await server.open(browser);
      return {
        tab,
        readHeap: async () => sampleHeap(tab),
        async diskBytes() {
          if (browser.profileDir === undefined) return { bytes: null, from: 'none: this engine keeps IndexedDB in memory under automation' };
          return { bytes: await indexedDbBytes(browser.profileDir), from: `the IndexedDB folders of the profile ${browser.profileDir} (every IndexedDB database of the profile)` };
        },
        close: () => tab.close(),
      };
    },
  };
}

/**
 * Reads the tab's JS heap in use every {@link HEAP_EVERY_MS} through CDP (Chromium); elsewhere
 * nothing. A reading waits for the page's main thread, so a busy page is read less often, never
 * missed at its end.
 */
function sampleHeap(tab: EngineTab): { stop(): Promise<HeapReading> } {
  if (!tab.cdp) return { stop: async () => ({ peak: null, samples: 0 }) };
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
    async stop() {
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
  /** The simulator's preset the rounds ran on (`LARGE_SIZE`). */
  size: string;
  records: number;
  /** Where it ran, when not in the engine as the engine layer drives it. */
  where?: string;
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
    `    peak JS heap ${round.peakHeap === null ? 'n/a (no reading in this engine)' : `${mb(round.peakHeap)} (${round.heapSamples} readings of ${round.heapMeasure})`}; ` +
      `longest main-thread task: timer gap ${beat.timerMaxGapMs.toFixed(0)} ms, frame gap ${beat.frameMaxGapMs === null ? 'n/a' : `${beat.frameMaxGapMs.toFixed(0)} ms`}, ` +
      `Long Tasks ${beat.longTaskMaxMs === null ? 'n/a' : `${beat.longTaskMaxMs.toFixed(0)} ms (${beat.longTasks} over 50 ms)`}`,
  );
  const disk = round.diskBytes === null ? 'n/a' : mb(round.diskBytes);
  const usage = round.idle?.storageUsage == null ? 'n/a' : mb(round.idle.storageUsage);
  lines.push(`    on disk ${disk} (storage.estimate ${usage}); read from ${round.diskFrom}`);
  if (round.idle) lines.push(`    idle delta: ${round.idle.ms.toFixed(0)} ms, ${round.idle.requests} requests, ${round.idle.pulled} records pulled`);
  if (round.live) {
    const sorted = [...round.live.fromCommitMs].sort((a, b) => a - b);
    lines.push(`    live query over ${round.live.tableRows.toLocaleString('en')} order items: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms from the commit, max ${sorted.at(-1)!.toFixed(1)} ms (${sorted.length} writes)`);
  }
  return lines.join('\n');
}
