/**
 * The peers benchmark (`peers.bench.ts`) in real browser engines: the same candidates on the same
 * tenants, reading the same pages of 400 with the same parser and read schemas and writing the
 * same indexes, but each in the engine's own IndexedDB, in a fresh tab per run, with every database
 * of the origin deleted before it; rounds interleaved (ours, RxDB, naive, bulkPut; again...). The
 * simulator runs in a child process; the page reaches it through the page's own origin (a proxy, so
 * no cross-origin preflights). RxDB runs in a page of its own (it brings its own Dexie copy).
 *
 * Printed per engine and tenant: median records/s of each candidate (and each round's), the
 * longest main-thread task during the copy (the timer heartbeat's largest gap), the JS heap after
 * the copy where the engine tells it, and the mirror's ratio to each peer, round by round and as a
 * median, against the aims. The figures are also written as JSON under `test-output/bench-peers-browser/`.
 *
 *   npm run bench -- peers-browser   ENGINES=chromium (default; firefox, webkit too) ROUNDS=3
 *                                    SCENARIO=customers or SCENARIO=small for one tenant
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createAppServer } from '../scripts/app-server.js';
import { bundleForBrowser, repoPath } from '../scripts/bundle-for-browser.js';
import { launchEngine, selectedEngines, type EngineBrowser } from '../scripts/engines/index.js';
import type { PageError } from '../scripts/engines/page-errors.js';
import { runJob } from './browser/bench-page.js';
import type { PeerRunResult } from './browser/in-page/peer-run.js';
import type { CandidateName, Job } from './peers/job.js';
import { LABELS } from './peers/report.js';
import { SCENARIOS } from './peers/scenarios.js';
import { forkSimulator } from './simulator-process.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';
import { median } from './stats.js';

const ROUNDS = Number(process.env.ROUNDS ?? smokeOr(1, 3));
const ONLY = process.env.SCENARIO;
const ENGINES = selectedEngines(process.env.ENGINES ?? 'chromium');
const ORDER = Object.keys(LABELS) as CandidateName[];
/** What the mirror should reach against each peer in the browser (ratio of records/s). */
const AIMS: Partial<Record<CandidateName, number>> = { rxdb: 3 };
const PAGE_DIR = repoPath('test-output/bench-peers-page');
const RESULTS_DIR = process.env.BENCH_RESULTS || 'test-output/bench-peers-browser';

const startedAt = new Date();
const loadAtStart = loadavg();
console.log(
  `${startedAt.toISOString()}: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}; ` +
    `engines ${ENGINES.join(', ')}; ${ROUNDS} rounds interleaved, a fresh tab and empty IndexedDB per run${SMOKE_NOTE}`,
);

// Two pages: RxDB's Dexie copy and the mirror's cannot load in one page.
await mkdir(PAGE_DIR, { recursive: true });
for (const name of ['peers', 'peers-rxdb']) {
  const entry = `export * from ${JSON.stringify(repoPath(`bench/browser/in-page/${name}.ts`))};`;
  await writeFile(join(PAGE_DIR, `${name}.js`), await bundleForBrowser(entry, 'bench'));
  await writeFile(join(PAGE_DIR, `${name}.html`), `<!doctype html><meta charset="utf-8"><title>pos-cloud-mirror peers</title><script src="${name}.js"></script>`);
}

const errors: PageError[] = [];
const figures: { engine: string; scenario: string; records: number; runs: Record<CandidateName, PeerRunResult[]> }[] = [];
for (const scenario of SCENARIOS) {
  if (ONLY !== undefined && !scenario.label.includes(ONLY)) continue;
  const sim = await forkSimulator({ size: scenario.size, seed: 9 });
  const server = await createAppServer({ root: PAGE_DIR, apiBaseUrl: sim.baseUrl, pageErrors: (e) => errors.push(e) });
  try {
    const records = scenario.collections.reduce((n, c) => n + sim.counts[c], 0);
    const job = (candidate: CandidateName): Job => ({ candidate, baseUrl: server.apiBaseUrl, token: sim.token, collections: scenario.collections });
    for (const engine of ENGINES) {
      const browser = await launchEngine(engine);
      try {
        console.log(`\n${browser.version}, ${scenario.label}: ${records.toLocaleString('en-US')} records`);
        const runs = Object.fromEntries(ORDER.map((name) => [name, [] as PeerRunResult[]])) as Record<CandidateName, PeerRunResult[]>;
        for (let round = 0; round < ROUNDS; round++) {
          for (const candidate of ORDER) {
            const result = await runInTab(browser, new URL(candidate === 'rxdb' ? 'peers-rxdb.html' : 'peers.html', server.url).href, job(candidate));
            if (result.records !== records) throw new Error(`${candidate} stored ${result.records} records in ${engine}, the server has ${records}`);
            runs[candidate].push(result);
          }
          console.log(`  round ${round + 1}: ${ORDER.map((c) => `${c} ${(runs[c].at(-1)!.ms / 1000).toFixed(2)} s`).join(', ')}`);
        }
        for (const line of reportLines(records, runs)) console.log(line);
        figures.push({ engine: browser.version, scenario: scenario.label, records, runs });
      } finally {
        await browser.close();
      }
    }
  } finally {
    await server.stop();
    sim.stop();
  }
}
if (errors.length > 0) {
  console.log(`\n${errors.length} page error(s):`);
  for (const e of errors.slice(0, 20)) console.log(`  ${e.kind}: ${e.message} (${e.url})`);
  process.exitCode = 1;
}
const loadAtEnd = loadavg();
console.log(`\nload average at the end: ${loadAtEnd.map((l) => l.toFixed(2)).join(' ')} (2-core machine shared with other work)`);
await mkdir(RESULTS_DIR, { recursive: true });
const file = join(RESULTS_DIR, `peers-browser-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
await writeFile(file, JSON.stringify({ startedAt: startedAt.toISOString(), cores: cpus().length, load: { start: loadAtStart, end: loadAtEnd }, rounds: ROUNDS, figures }, null, 1));
console.log(`figures written to ${file}`);

/** One run of one candidate in a fresh tab on the page at `url`. */
async function runInTab(browser: EngineBrowser, url: string, job: Job): Promise<PeerRunResult> {
  const tab = await browser.newTab();
  try {
    await tab.goto(url);
    return await runJob<PeerRunResult>(tab, 'peerRun', job);
  } finally {
    await tab.close();
  }
}

/** The lines of one engine's report on one tenant. */
function reportLines(records: number, runs: Record<CandidateName, PeerRunResult[]>): string[] {
  const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
  const rates = (name: CandidateName): number[] => runs[name].map((r) => records / (r.ms / 1000));
  const lines: string[] = [];
  for (const name of ORDER) {
    const rate = rates(name);
    const heaps = runs[name].flatMap((r) => (r.heapAfter === null ? [] : [r.heapAfter]));
    lines.push(
      `${LABELS[name].padEnd(44)} ${fmt(median(rate)).padStart(7)} records/s  (${rate.map(fmt).join(', ')});` +
        ` longest task ${median(runs[name].map((r) => r.heartbeat.timerMaxGapMs)).toFixed(0)} ms` +
        (heaps.length > 0 ? `; JS heap after ${Math.round(median(heaps) / 1024 / 1024)} MB` : ''),
    );
  }
  const ours = rates('ours');
  for (const peer of ['rxdb', 'naive', 'bulkPut'] as const) {
    const perRound = ours.map((r, i) => r / rates(peer)[i]!);
    const ratio = median(perRound);
    const aim = AIMS[peer];
    const verdict = aim === undefined ? '' : `; aim >= ${aim}x: ${ratio >= aim ? 'met' : 'NOT met'}`;
    lines.push(`ours / ${peer.padEnd(8)} median ${ratio.toFixed(2)}x  (per round ${perRound.map((r) => r.toFixed(2)).join(', ')})${verdict}`);
  }
  return lines;
}
