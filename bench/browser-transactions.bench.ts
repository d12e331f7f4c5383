/**
 * Pages per transaction in each browser engine (Chromium, Firefox, WebKit, through
 * `scripts/engines/`): a tenant's pages, read first, written with bare `bulkPut`s into the mirror's
 * tables and indexes, 1, 4 or 16 pages of a collection per transaction (`in-page/pages-per-transaction.ts`),
 * the groupings interleaved over rounds. Prints records/s per grouping and its ratio to one page per
 * transaction, as the mirror's first sync and the baseline write today: what grouping the writes
 * of a first sync into fewer transactions could gain.
 *
 * `WRITE=mirror` times the mirror's own first sync instead (`mirror.syncNow()` on a fresh database,
 * its `pagesPerTransaction` option set to each grouping in turn), all of its work included.
 *
 * `FRESH=1` gives each grouping of each round a browser of its own, on a fresh profile, so that one
 * grouping's database (its deletion, the engine's compaction after it) cannot slow the next.
 *
 *   npm run bench -- browser-transactions      ENGINES=chromium,firefox,webkit TENANT=medium ROUNDS=5 PAGES_PER_TRANSACTION=1,4,16 FRESH=1
 *
 * (Not `GROUPS`: bash keeps that name for the user's group ids and drops an assignment to it.)
 */
import { loadavg } from 'node:os';
import { launchEngine, selectedEngines, type EngineBrowser, type EngineName } from '../scripts/engines/index.js';
import { createSimulator } from '../src/simulator/index.js';
import { buildBenchPage, runJob } from './browser/bench-page.js';
import type { SyncTab } from './browser/first-sync.js';
import { flag } from './browser/options.js';
import { heartbeatMedian } from './browser/figures.js';
import type { HeartbeatReport } from './browser/in-page/heartbeat.js';
import type { MirrorSyncResult } from './browser/in-page/mirror-sync.js';
import type { PagesPerTransactionResult } from './browser/in-page/pages-per-transaction.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';
import { median, range } from './stats.js';

const rounds = Number(process.env.ROUNDS ?? smokeOr(1, 5));
const groups = (process.env.PAGES_PER_TRANSACTION ?? '1,4,16').split(',').map(Number);
const tenant = process.env.TENANT ?? smokeOr('tiny', 'medium');
const fresh = flag(process.env, 'FRESH');
const write = process.env.WRITE || 'bare';
if (write !== 'bare' && write !== 'mirror') throw new Error(`WRITE: expected bare or mirror, got "${write}"`);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`ROUNDS: expected a whole number >= 1, got "${process.env.ROUNDS}"`);
if (groups.some((g) => !Number.isInteger(g) || g < 1) || !groups.includes(1)) throw new Error(`PAGES_PER_TRANSACTION: expected whole numbers >= 1 including 1, got "${process.env.PAGES_PER_TRANSACTION}"`);

const ms = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(0)} ms`);

const page = await buildBenchPage();
const sim = await createSimulator({ port: 0, size: tenant as 'medium', seed: 3, activity: false });
const server = await page.serve(sim.baseUrl);
try {
  for (const engine of selectedEngines()) {
    const load = loadavg()[0]!.toFixed(1);
    const result = await measure(engine);
    const what = write === 'mirror' ? "the mirror's first sync (mirror.syncNow())" : "bare bulkPut into the mirror's tables and indexes";
    console.log(
      `${result.version}: ${result.records.toLocaleString('en')} records of the ${tenant} tenant, ${what}, ${rounds} interleaved rounds` +
        `${fresh ? ', a fresh browser for each grouping of each round' : ''} (load average ${load} at the start, ${loadavg()[0]!.toFixed(1)} at the end)${SMOKE_NOTE}`,
    );
    const one = median(result.rates['1']!);
    for (const group of groups) {
      const rates = result.rates[String(group)]!;
      const { min, max } = range(rates);
      const ratios = rates.map((r, i) => r / result.rates['1']![i]!);
      const spread = range(ratios);
      const beats = result.heartbeats[String(group)] ?? [];
      const longest = beats.length === 0 ? '' : `; longest task (median of rounds): timer heartbeat gap ${ms(heartbeatMedian(beats, 'timerMaxGapMs'))}, Long Tasks API ${ms(heartbeatMedian(beats, 'longTaskMaxMs'))}`;
      console.log(
        `  ${String(group).padStart(3)} page(s) per transaction: ${Math.round(median(rates)).toLocaleString('en').padStart(6)} records/s (rounds ${Math.round(min)}–${Math.round(max)}), ` +
          `${(median(rates) / one).toFixed(2)}x one page (rounds ${spread.min.toFixed(2)}x–${spread.max.toFixed(2)}x)${longest}`,
      );
    }
  }
} finally {
  await server.stop();
  await sim.close();
}

/** Records/s by grouping, one value per round, the groupings' order turning each round (and the mirror's heartbeats). */
async function measure(engine: EngineName): Promise<{ records: number; rates: Record<string, number[]>; heartbeats: Record<string, HeartbeatReport[]>; version: string }> {
  const rates: Record<string, number[]> = {};
  const heartbeats: Record<string, HeartbeatReport[]> = {};
  let records = 0;
  let shared: EngineBrowser | undefined;
  let version = '';
  try {
    for (let round = 0; round < rounds; round++) {
      for (const group of groups.map((_, i, all) => all[(i + round) % all.length]!)) {
        const browser = fresh ? await launchEngine(engine) : (shared ??= await launchEngine(engine));
        try {
          version = browser.version;
          const tab = await server.open(browser);
          const run = await timeOne(tab, group, round);
          records = run.records;
          (rates[group] ??= []).push(run.rate);
          if (run.heartbeat) (heartbeats[group] ??= []).push(run.heartbeat);
          if (!fresh) await tab.close();
        } finally {
          if (fresh) await browser.close();
        }
      }
    }
  } finally {
    await shared?.close();
  }
  return { records, rates, heartbeats, version };
}

/** One grouping's write of every record, in `tab`: records written and records/s. */
async function timeOne(tab: SyncTab, group: number, round: number): Promise<{ records: number; rate: number; heartbeat?: HeartbeatReport }> {
  if (write === 'mirror') {
    const args = { base: server.apiBaseUrl, token: sim.token, dbName: `mirror-${group}-${round}`, limitMs: 1_800_000, keep: false, pagesPerTransaction: group };
    const result = await runJob<MirrorSyncResult>(tab, 'mirrorSync', args);
    if (result.bounded) throw new Error(`the mirror's sync of ${group} page(s) per transaction hit the time limit`);
    return { records: result.records, rate: result.records / (result.ms / 1000), heartbeat: result.heartbeat };
  }
  const result = await runJob<PagesPerTransactionResult>(tab, 'pagesPerTransaction', { base: server.apiBaseUrl, token: sim.token, groups: [group], rounds: 1 });
  return { records: result.records, rate: result.rates[String(group)]![0]! };
}
