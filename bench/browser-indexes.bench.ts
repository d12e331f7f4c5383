/**
 * What each of the mirror's default indexes of orders and order_details costs a write, in each
 * browser engine (Chromium, Firefox, WebKit, through `scripts/engines/`): the tenant's pages of
 * each collection, read first as the mirror's first sync reads them, written with bare `bulkPut`s
 * into a table with no secondary index, with each default index alone, and with all of them
 * (`in-page/index-cost.ts`), the variants interleaved over rounds. Prints records/s with no
 * secondary index and, for every other variant, its ratio to that (1.00x: free; 0.80x: the index
 * costs a fifth of the write's speed).
 *
 *   npm run bench -- browser-indexes      ENGINES=chromium,firefox,webkit TENANT=medium ROUNDS=3 COLLECTIONS=orders,order_details
 */
import { loadavg } from 'node:os';
import { launchEngine, selectedEngines } from '../scripts/engines/index.js';
import { COLLECTIONS, type CollectionName } from '../src/schema/collections.js';
import { createSimulator } from '../src/simulator/index.js';
import { buildBenchPage, runJob } from './browser/bench-page.js';
import { ALL_INDEXES, NO_INDEX, type IndexCostCollection } from './browser/in-page/index-cost.js';
import { count } from './browser/options.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';
import { median, range } from './stats.js';

const rounds = count(process.env, 'ROUNDS', smokeOr(1, 3), 1);
const tenant = process.env.TENANT || smokeOr('small', 'medium');
if (!['tiny', 'small', 'medium'].includes(tenant)) throw new Error(`TENANT: expected tiny, small or medium, got "${tenant}"`);
const collections = (process.env.COLLECTIONS || 'orders,order_details').split(',').map((c) => c.trim());
const unknown = collections.filter((c) => !(COLLECTIONS as readonly string[]).includes(c));
if (unknown.length > 0) throw new Error(`COLLECTIONS: unknown collection ${unknown.join(', ')}`);

const page = await buildBenchPage();
const sim = await createSimulator({ port: 0, size: tenant as 'medium', seed: 3, activity: false });
// The bare writes parse with JSON.parse: ids as strings keep their digits.
sim.setOptions({ idsAsStrings: true });
const server = await page.serve(sim.baseUrl);
try {
  for (const engine of selectedEngines()) {
    const load = loadavg()[0]!.toFixed(1);
    const browser = await launchEngine(engine);
    let result: IndexCostCollection[];
    try {
      const tab = await server.open(browser);
      result = await runJob<IndexCostCollection[]>(tab, 'indexCost', { base: server.apiBaseUrl, token: sim.token, collections: collections as CollectionName[], rounds });
    } finally {
      await browser.close();
    }
    console.log(`\n${browser.version}: ${tenant} tenant, bare bulkPut, one page a transaction, ${rounds} interleaved round(s) (load average ${load} at the start, ${loadavg()[0]!.toFixed(1)} at the end)${SMOKE_NOTE}`);
    for (const c of result) printCollection(c);
  }
} finally {
  await server.stop();
  await sim.close();
}

/** One collection's figures: records/s with no secondary index, every other variant as a ratio to it (medians, rounds' range). */
function printCollection(c: IndexCostCollection): void {
  const none = c.rates[NO_INDEX]!;
  const { min, max } = range(none);
  console.log(`  ${c.collection} (${c.records.toLocaleString('en')} records): no secondary index ${Math.round(median(none)).toLocaleString('en')} records/s${none.length > 1 ? ` (rounds ${Math.round(min)}–${Math.round(max)})` : ''}`);
  for (const variant of c.variants.filter((v) => v !== NO_INDEX)) {
    const ratios = c.rates[variant]!.map((rate, i) => rate / none[i]!);
    const spread = range(ratios);
    const label = variant === ALL_INDEXES ? 'every default index' : `${variant} alone`;
    console.log(`    ${label.padEnd(40)} ${(median(c.rates[variant]!) / median(none)).toFixed(2)}x${ratios.length > 1 ? ` (rounds ${spread.min.toFixed(2)}x–${spread.max.toFixed(2)}x)` : ''}`);
  }
}
