/**
 * Pages per transaction in each browser engine (Chromium, Firefox, WebKit, through
 * `scripts/engines/`): a tenant's pages, read first, written with bare `bulkPut`s into the mirror's
 * tables and indexes, 1, 4 or 16 pages of a collection per transaction (`in-page/pages-per-transaction.ts`),
 * the groupings interleaved over rounds. Prints records/s per grouping and its ratio to one page per
 * transaction, as the mirror's first sync and the baseline write today: what grouping the writes
 * of a first sync into fewer transactions could gain.
 *
 *   npm run bench -- browser-transactions      ENGINES=chromium,firefox,webkit TENANTS=medium ROUNDS=5 GROUPS=1,4,16
 */
import { loadavg } from 'node:os';
import { launchEngine, selectedEngines } from '../scripts/engines/index.js';
import { createSimulator } from '../src/simulator/index.js';
import { buildBenchPage, runJob } from './browser/bench-page.js';
import type { PagesPerTransactionResult } from './browser/in-page/pages-per-transaction.js';
import { median, range } from './stats.js';

const rounds = Number(process.env.ROUNDS ?? 5);
const groups = (process.env.GROUPS ?? '1,4,16').split(',').map(Number);
const tenant = process.env.TENANT ?? 'medium';
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`ROUNDS: expected a whole number >= 1, got "${process.env.ROUNDS}"`);
if (groups.some((g) => !Number.isInteger(g) || g < 1) || !groups.includes(1)) throw new Error(`GROUPS: expected whole numbers >= 1 including 1, got "${process.env.GROUPS}"`);

const page = await buildBenchPage();
const sim = await createSimulator({ port: 0, size: tenant as 'medium', seed: 3, activity: false });
const server = await page.serve(sim.baseUrl);
try {
  for (const engine of selectedEngines()) {
    const browser = await launchEngine(engine);
    try {
      const tab = await server.open(browser);
      const load = loadavg()[0]!.toFixed(1);
      const result = await runJob<PagesPerTransactionResult>(tab, 'pagesPerTransaction', { base: server.apiBaseUrl, token: sim.token, groups, rounds });
      console.log(`${browser.version}: ${result.records.toLocaleString('en')} records of the ${tenant} tenant, ${rounds} interleaved rounds (load average ${load} at the start, ${loadavg()[0]!.toFixed(1)} at the end)`);
      const one = median(result.rates['1']!);
      for (const group of groups) {
        const rates = result.rates[String(group)]!;
        const { min, max } = range(rates);
        const ratios = rates.map((r, i) => r / result.rates['1']![i]!);
        const spread = range(ratios);
        console.log(
          `  ${String(group).padStart(3)} page(s) per transaction: ${Math.round(median(rates)).toLocaleString('en').padStart(6)} records/s (rounds ${Math.round(min)}–${Math.round(max)}), ` +
            `${(median(rates) / one).toFixed(2)}x one page (rounds ${spread.min.toFixed(2)}x–${spread.max.toFixed(2)}x)`,
        );
      }
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.stop();
  await sim.close();
}
