/**
 * The mirror in real browser engines (Chromium, Firefox, WebKit, through `scripts/engines/`), each
 * with its own IndexedDB, in one run, per engine:
 *
 * - the first sync of the small and the medium tenant: records/s, and the ratio to a bare fetch +
 *   `JSON.parse` + `bulkPut` of the same pages in the same engine (rounds interleaved, a fresh
 *   database each round);
 * - the longest main-thread task during the mirror's sync: the largest gap between the ticks of a
 *   timer heartbeat and of an animation-frame heartbeat in the page (every engine), and the Long
 *   Tasks API's longest entry where the engine has it;
 * - a live query's notification after one write (`mirror.save`), from the write's commit to the
 *   subscriber's call;
 * - `searchProducts` over 100,000 products (the same catalogue and queries in each engine, and
 *   whether the engines rank alike).
 *
 * WebKit under WebDriver keeps IndexedDB in memory (MiniBrowser's automation session is
 * ephemeral): there the small tenant's first sync and the live query are also measured in a
 * MiniBrowser outside WebDriver, IndexedDB on disk, driven through its inspector.
 *
 * `LARGE=1` syncs the ~1M-record tenant instead, into IndexedDB on disk (`browser/large-sync.ts`):
 * time, records/s, the ratio to the baseline, the tab's peak JS heap, the longest main-thread
 * task, the database's size on disk, an idle delta and a live query on it. In WebKit these rounds
 * run only in a MiniBrowser outside WebDriver, on disk (`browser/webkit-on-disk.ts`).
 * `LARGE_SIZE=medium` (or `small`, `tiny`) runs the same rounds on a smaller preset, to try them
 * in minutes.
 *
 * `FRESH=1` runs each first-sync candidate of each round in a browser of its own, on a fresh
 * profile, so that what one leaves in the engine (a deleted database, compaction after it) cannot
 * slow the next; there is no live-query figure then.
 *
 * `PROFILE=dir` also writes a CPU profile of the small tenant's first sync per engine and prints
 * its top self-time items, its areas and its longest busy stretch (`browser/profile.ts`).
 *
 *   npm run bench -- browser      ENGINES=chromium,firefox,webkit TENANTS=small,medium ROUNDS=3
 *                                 ROUND_LIMIT_S=600 SEARCH_PRODUCTS=100000 LIVE_WRITES=40 PROFILE=dir
 *   LARGE=1 npm run bench -- browser      ENGINES=chromium ROUNDS=1 ROUND_LIMIT_S=1800 LARGE_SIZE=large
 *
 * (`npm run bench -- browser` also runs the other benchmarks whose file name holds "browser";
 * `node --expose-gc --experimental-websocket --import tsx bench/browser.bench.ts` runs this one alone.)
 *
 * The figures are also written as JSON under `test-output/bench-browser/` (`BENCH_RESULTS=dir`);
 * `node --import tsx bench/browser/spread.ts FILE...` gives the spread of several runs.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { launchEngine, type EngineName } from '../scripts/engines/index.js';
import { createSimulator, type Simulator } from '../src/simulator/index.js';
import { buildBenchPage, runJob, type BenchServer } from './browser/bench-page.js';
import { compareRankings, liveFigures, printEngine, searchFigures, syncFigures, type EngineFigures } from './browser/figures.js';
import { firstSync, sharedTab, type CandidateTabs } from './browser/first-sync.js';
import { engineHost, largeRoundLine, largeSync } from './browser/large-sync.js';
import type { LiveQueryResult } from './browser/in-page/live-query.js';
import type { SearchResult } from './browser/in-page/search.js';
import { browserBenchOptions, type TenantName } from './browser/options.js';
import { profileFirstSync } from './browser/profile.js';
import { inspectedTab, inspectWebKitPage } from '../scripts/engines/webkit-inspector.js';
import { webkitOnDiskHost } from './browser/webkit-on-disk.js';
import { catalogue, searchQueries } from './search-catalogue.js';
import { forkSimulator, type SimulatorProcess } from './simulator-process.js';
import { SMOKE_NOTE } from './smoke.js';

const options = browserBenchOptions();
const startedAt = new Date();
const resultsFile = join(options.resultsDir, `browser-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
// An automation client that lets a rejection go unhandled (a WebDriver session lost under load)
// must not end the run with its browsers left running: it is logged, and a failure it causes is
// handled as any other (the engine is tried once more, then reported).
process.on('unhandledRejection', (reason) => console.error(`unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)}`));
const loadAtStart = loadavg();
console.log(
  `${startedAt.toISOString()}: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}; ` +
    `engines ${options.engines.join(', ')}; tenants ${options.tenants.join(', ')}; ${options.rounds} rounds${SMOKE_NOTE}`,
);

const page = await buildBenchPage({ profile: options.profileDir !== undefined });
const tenants = new Map<TenantName, { sim: Simulator; server: BenchServer }>();
let large: { sim: SimulatorProcess; server: BenchServer } | undefined;
let searchSetup: { queries: Record<string, string[]>; url: string; server: BenchServer } | undefined;
const results: EngineFigures[] = [];
try {
  if (options.large) {
    const sim = await forkSimulator({ size: options.largeSize, seed: 9 });
    large = { sim, server: await page.serve(sim.baseUrl) };
    console.log(`LARGE=1 rounds on the ${options.largeSize} tenant: ${sim.total.toLocaleString('en')} records on the server`);
  }
  for (const tenant of options.tenants) {
    const sim = await createSimulator({ port: 0, size: tenant, seed: 3, activity: false });
    tenants.set(tenant, { sim, server: await page.serve(sim.baseUrl) });
  }
  if (options.searchProducts > 0) {
    const { products, categories } = await catalogue(options.searchProducts);
    await page.addFile('catalogue.json', JSON.stringify({ products, categories }));
    const server = await page.serve();
    searchSetup = { queries: searchQueries(products), url: server.url('catalogue.json'), server };
  }
  for (const engine of options.engines) {
    const figures = await measureEngineOnceMore(engine);
    if (!figures) continue;
    printEngine(figures);
    results.push(figures);
    // Written after each engine: a later engine that fails takes nothing with it.
    await writeResults(loadavg());
  }
  const rankings = compareRankings(results);
  if (rankings) console.log(`\n${rankings}`);
  if (page.errors.length > 0) {
    console.log(`\n${page.errors.length} page error(s):`);
    for (const e of page.errors.slice(0, 20)) console.log(`  ${e.kind}: ${e.message} (${e.url})`);
    process.exitCode = 1;
  }
  const loadAtEnd = loadavg();
  console.log(`\nload average at the end: ${loadAtEnd.map((l) => l.toFixed(2)).join(' ')} (2-core machine shared with other work)`);
  await writeResults(loadAtEnd);
  console.log(`figures written to ${resultsFile}`);
} finally {
  await searchSetup?.server.stop();
  if (large) {
    await large.server.stop();
    large.sim.stop();
  }
  for (const { sim, server } of tenants.values()) {
    await server.stop();
    await sim.close();
  }
}

/**
 * An engine's figures; a run that fails (a browser that dies at start on a loaded machine, a session
 * lost) is tried once more from a fresh browser, then reported, and the other engines go on.
 */
async function measureEngineOnceMore(engine: EngineName): Promise<EngineFigures | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measureEngine(engine);
    } catch (error) {
      console.error(`\n${engine} failed (attempt ${attempt}): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (attempt === 2) {
        process.exitCode = 1;
        return undefined;
      }
    }
  }
}

/** Every figure of one engine: a browser of its own, a tab per tenant, a tab for search. */
async function measureEngine(engine: EngineName): Promise<EngineFigures> {
  const browser = await launchEngine(engine);
  const figures: EngineFigures = { engine, version: browser.version, sync: [], live: [], notes: [] };
  console.log(`\n${browser.version}: measuring...`);
  try {
    for (const [tenant, { sim, server }] of tenants) {
      const tab = await server.open(browser);
      figures.timerResolutionMs ??= await runJob<number>(tab, 'timerResolution', null);
      const run = await firstSync(options.fresh ? freshBrowsers(engine, server) : sharedTab(tab), server, sim, tenant, {
        keepLast: !options.fresh,
        rounds: options.rounds,
        limitMs: options.roundLimitMs,
        onRound(round, index) {
          const line = (what: string, r: { records: number; ms: number; bounded: boolean }) =>
            `${what} ${r.records} records in ${(r.ms / 1000).toFixed(2)} s${r.bounded ? ' (stopped at the limit)' : ''}`;
          console.log(`  ${tenant} round ${index + 1}: ${line('baseline', round.baseline)}, ${line('indexed baseline', round.indexed)}, ${line('mirror', round.mirror)}`);
        },
      });
      figures.sync.push(syncFigures(run));
      if (run.keptDb) {
        const live = await runJob<LiveQueryResult>(tab, 'liveQueryNotification', { base: server.apiBaseUrl, token: sim.token, dbName: run.keptDb, writes: options.liveWrites });
        figures.live.push(liveFigures(tenant, live));
      } else if (options.fresh) {
        figures.notes.push(`no live-query figure on the ${tenant} tenant with FRESH=1: each round's database went with its browser`);
      } else {
        figures.notes.push(`no live-query figure on the ${tenant} tenant: its last round was stopped at the time limit`);
      }
      await tab.close();
    }
    if (large) {
      const { sim, server } = large;
      // WebKit's large rounds run only on disk: under WebDriver its IndexedDB is in memory, which
      // is neither the speed nor the size a person's device sees.
      const onDisk = engine === 'webkit';
      const where = onDisk ? 'IndexedDB on disk, MiniBrowser outside WebDriver' : undefined;
      if (where) console.log(`  ${options.largeSize} tenant's LARGE=1 rounds: ${where}`);
      const rounds = await largeSync(onDisk ? webkitOnDiskHost(server) : engineHost(browser, server), server, sim, {
        rounds: options.rounds,
        limitMs: options.roundLimitMs,
        liveWrites: options.liveWrites,
        onRound: (round, index) => console.log(largeRoundLine(round, index)),
      });
      figures.large = { size: options.largeSize, records: sim.total, ...(where ? { where } : {}), rounds };
      if (!onDisk && !browser.profileDir) figures.notes.push(`the ${options.largeSize} tenant's LARGE=1 rounds ran in IndexedDB this engine keeps in memory under automation, not on disk`);
    }
    if (engine === 'webkit') await syncOnDisk(figures);
    if (searchSetup) {
      const tab = await searchSetup.server.open(browser);
      const result = await runJob<SearchResult>(tab, 'searchProducts', { catalogueUrl: searchSetup.url, queries: searchSetup.queries, dbName: 'search' });
      figures.search = searchFigures(result, Object.keys(searchSetup.queries));
      await tab.close();
    }
  } finally {
    await browser.close();
  }
  figures.notes.push(...heartbeatNotes(figures));
  if (options.profileDir) {
    const small = tenants.get('small') ?? [...tenants.values()][0]!;
    const profiled = await profileFirstSync(engine, small.server, small.sim, options.profileDir);
    if (profiled.summary) figures.profile = profiled.summary;
    figures.notes.push(...profiled.notes);
  }
  return figures;
}

/** Each candidate in a browser of its own, launched on a fresh profile and closed after its job. */
function freshBrowsers(engine: EngineName, server: BenchServer): CandidateTabs {
  return async (job) => {
    const browser = await launchEngine(engine);
    try {
      return await job(await server.open(browser));
    } finally {
      await browser.close();
    }
  };
}

/**
 * WebKit under WebDriver keeps IndexedDB in memory (MiniBrowser's automation session is ephemeral),
 * unlike a person's browser: the small tenant's first sync and the live query are measured again in
 * a MiniBrowser of its own, driven through its inspector, whose IndexedDB is on disk.
 */
async function syncOnDisk(figures: EngineFigures): Promise<void> {
  const small = tenants.get('small');
  if (!small) return;
  const page = await inspectWebKitPage(small.server.url('index.html'));
  try {
    const tab = await inspectedTab(page);
    const run = await firstSync(sharedTab(tab), small.server, small.sim, 'small-on-disk', {
      keepLast: true,
      rounds: options.rounds,
      limitMs: options.roundLimitMs,
      onRound: (round, index) => console.log(`  small on disk round ${index + 1}: baseline ${round.baseline.records} records in ${(round.baseline.ms / 1000).toFixed(2)} s, indexed baseline in ${(round.indexed.ms / 1000).toFixed(2)} s, mirror ${round.mirror.records} in ${(round.mirror.ms / 1000).toFixed(2)} s`),
    });
    const where = 'IndexedDB on disk, MiniBrowser outside WebDriver';
    figures.sync.push({ ...syncFigures(run, where), tenant: 'small' });
    if (run.keptDb) {
      const live = await runJob<LiveQueryResult>(tab, 'liveQueryNotification', { base: small.server.apiBaseUrl, token: small.sim.token, dbName: run.keptDb, writes: options.liveWrites });
      figures.live.push(liveFigures('small', live, where));
    }
    figures.notes.push('WebKit under WebDriver keeps IndexedDB in memory (an ephemeral session): the tenants above are measured there; "on disk" is a MiniBrowser outside WebDriver, as a person runs it');
  } finally {
    await page.close();
  }
}

/** What the heartbeats say about the engine: a hidden page, no frames, no Long Tasks API. */
function heartbeatNotes(figures: EngineFigures): string[] {
  const reports = figures.sync.flatMap((s) => s.mirrorHeartbeats);
  const notes: string[] = [];
  const hidden = reports.filter((r) => r.visibility !== 'visible');
  if (hidden.length > 0) notes.push(`the page was ${hidden[0]!.visibility} in ${hidden.length} round(s): its timers may be throttled`);
  if (reports.some((r) => r.frameMaxGapMs === null)) notes.push('no animation frames ran in some rounds (the page was not painted): no frame heartbeat there');
  if (reports.length > 0 && reports.every((r) => r.longTaskMaxMs === null)) notes.push("no Long Tasks API here (PerformanceObserver.supportedEntryTypes lacks 'longtask'): the heartbeats' gaps are the figure");
  if (reports.length > 0 && reports.every((r) => r.longFrameMaxMs === null)) notes.push("no Long Animation Frames API here ('long-animation-frame')");
  return notes;
}

/** Writes the run's figures so far (without each query's result ids) as JSON. */
async function writeResults(loadAtEnd: number[]): Promise<void> {
  await mkdir(options.resultsDir, { recursive: true });
  const engines = results.map((f) => (f.search ? { ...f, search: { ...f.search, results: {} } } : f));
  const run = { startedAt: startedAt.toISOString(), cores: cpus().length, load: { start: loadAtStart, end: loadAtEnd }, options, engines };
  await writeFile(resultsFile, JSON.stringify(run, null, 1));
}
