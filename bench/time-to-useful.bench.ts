/**
 * Time to useful: a new tablet (a browser on a fresh profile, an empty database) opens the mirror
 * against the simulator, in Chromium, Firefox and WebKit (through `scripts/engines/`). Measured in
 * the page from the mirror's creation (`in-page/time-to-useful.ts`): the time until the mirror's
 * own database answers, read locally, with every register, every product with its price and every
 * order of the server's last 24 h with all of its items (their count and items checked against
 * the simulator's store, not its API); the time each sync group completed (`whenSynced`); the
 * whole first sync's end; the records applied before useful. Printed per engine and tenant as
 * medians with the rounds' range, and useful as a share of the whole first sync of the same round.
 *
 * Each round launches every engine on a fresh profile, one after the other, their order turning
 * each round; the simulator runs in a child process, as a real server would. WebKit under
 * WebDriver keeps IndexedDB in memory (an ephemeral session).
 *
 *   npm run bench -- time-to-useful      ENGINES=chromium,firefox,webkit TENANTS=medium,large ROUNDS=3
 *                                        ROUND_LIMIT_S=1800 POLL_MS=50 BENCH_RESULTS=dir
 *
 * The figures are also written as JSON under `test-output/bench-browser/` (`BENCH_RESULTS=dir`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { launchEngine, type EngineName } from '../scripts/engines/index.js';
import { buildBenchPage, runJob, type BenchServer } from './browser/bench-page.js';
import type { TimeToUsefulResult } from './browser/in-page/time-to-useful.js';
import { timeToUsefulOptions } from './browser/time-to-useful-options.js';
import { printUseful, usefulFigures, usefulRoundLine, type UsefulFigures } from './browser/useful-figures.js';
import { forkSimulator, type SimulatorProcess } from './simulator-process.js';
import { SMOKE_NOTE } from './smoke.js';

const options = timeToUsefulOptions();
const startedAt = new Date();
const resultsFile = join(options.resultsDir, `time-to-useful-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
process.on('unhandledRejection', (reason) => console.error(`unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)}`));
const loadAtStart = loadavg();
console.log(
  `${startedAt.toISOString()}: ${cpus().length} cores, load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}; ` +
    `engines ${options.engines.join(', ')}; tenants ${options.tenants.join(', ')}; ${options.rounds} round(s), a fresh profile each; reads every ${options.pollMs} ms${SMOKE_NOTE}`,
);

const page = await buildBenchPage();
const results: UsefulFigures[] = [];
for (const tenant of options.tenants) {
  // Its clock at the present, as a real service's is: its last day of sales is the tablet's last day too.
  const sim = await forkSimulator({ size: tenant, seed: 3, clock: { start: Date.now() } });
  const server = await page.serve(sim.baseUrl);
  try {
    console.log(`\n${tenant} tenant: ${sim.total.toLocaleString('en')} records on the server`);
    const rounds = new Map<EngineName, TimeToUsefulResult[]>(options.engines.map((e) => [e, []]));
    const versions = new Map<EngineName, string>();
    let lastDayOrders = 0;
    for (let r = 0; r < options.rounds; r++) {
      for (const engine of options.engines.map((_, i, all) => all[(i + r) % all.length]!)) {
        try {
          const { result, version, orders } = await newTablet(engine, server, sim, `useful-${tenant}-${r}`);
          versions.set(engine, version);
          if (r === 0) lastDayOrders = orders;
          rounds.get(engine)!.push(result);
          console.log(usefulRoundLine(engine, tenant, r, result));
          if (result.usefulMs === null && !result.bounded) process.exitCode = 1;
        } catch (error) {
          console.error(`  ${engine} ${tenant} round ${r + 1} failed: ${error instanceof Error ? error.message : String(error)}`);
          process.exitCode = 1;
        }
      }
    }
    for (const engine of options.engines) {
      const done = rounds.get(engine)!;
      if (done.length === 0) continue;
      const figures = usefulFigures(engine, versions.get(engine)!, tenant, sim.total, lastDayOrders, done);
      printUseful(figures);
      results.push(figures);
    }
    await writeResults(loadavg());
  } finally {
    await server.stop();
    sim.stop();
  }
}
if (page.errors.length > 0) {
  console.log(`\n${page.errors.length} page error(s):`);
  for (const e of page.errors.slice(0, 20)) console.log(`  ${e.kind}: ${e.message} (${e.url})`);
  process.exitCode = 1;
}
console.log(`\nload average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}; figures written to ${resultsFile}`);

/**
 * One new tablet: the engine on a fresh profile, the server's last day read from the simulator
 * just before, the mirror's first sync in a tab, the browser closed after.
 */
async function newTablet(engine: EngineName, server: BenchServer, sim: SimulatorProcess, dbName: string): Promise<{ result: TimeToUsefulResult; version: string; orders: number }> {
  const browser = await launchEngine(engine);
  try {
    const tab = await server.open(browser);
    const expected = await sim.lastDay();
    const result = await runJob<TimeToUsefulResult>(tab, 'timeToUseful', { base: server.apiBaseUrl, token: sim.token, dbName, expected, pollMs: options.pollMs, limitMs: options.roundLimitMs });
    return { result, version: browser.version, orders: Object.keys(expected.orders).length };
  } finally {
    await browser.close();
  }
}

/** Writes the run's figures so far as JSON. */
async function writeResults(loadAtEnd: number[]): Promise<void> {
  await mkdir(options.resultsDir, { recursive: true });
  await writeFile(resultsFile, JSON.stringify({ startedAt: startedAt.toISOString(), cores: cpus().length, load: { start: loadAtStart, end: loadAtEnd }, options, results }, null, 1));
}
