/**
 * Client throughput: records/s of `client.pages()` over the simulator's orders, against the same
 * traversal done with bare `fetch` + `JSON.parse` (no schema, no exact ids, no retries: the speed
 * limit). Both run in this process, interleaved round by round; the simulator runs in a child
 * process (this same file, forked) so that serving does not share the client's event loop.
 *
 *   npm run bench -- client            (ORDERS=60000 LIMIT=1000 ROUNDS=5 to change the load)
 */
import { forkSimulator } from './simulator-process.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';
import { median } from './stats.js';

const ORDERS = Number(process.env.ORDERS ?? smokeOr(2_500, 60_000));
const LIMIT = Number(process.env.LIMIT ?? 1_000);
const ROUNDS = Number(process.env.ROUNDS ?? smokeOr(1, 5));

await main();

async function main(): Promise<void> {
  const { createClient } = await import('../src/client/index.js');
  const { parseJson } = await import('../src/json/index.js');
  const { parseRecord } = await import('../src/schema/index.js');
  // The simulator: one child process, alive until stop().
  const server = await forkSimulator({ size: { orders: ORDERS }, seed: 7 });
  const orders = server.counts.orders;
  const client = createClient({ baseUrl: server.baseUrl, token: server.token, userAgent: 'pos-cloud-mirror bench' });
  const headers = { authorization: `A|${server.token}`, accept: 'application/json', 'content-type': 'application/json' };

  /** The speed limit: fetch, JSON.parse, cursor from the text (JSON.parse would round big ids). */
  async function bare(): Promise<number> {
    let count = 0;
    let cursor: string | undefined;
    for (;;) {
      const query = `limit=${LIMIT}&direction=forward${cursor === undefined ? '' : `&id_start=${cursor}`}`;
      const response = await fetch(`${server.baseUrl}/orders?${query}`, { headers });
      const text = await response.text();
      const records = JSON.parse(text) as unknown[];
      count += records.length;
      if (records.length < LIMIT) return count;
      const at = text.lastIndexOf('"id":');
      cursor = /^"id":"?(\d+)/.exec(text.slice(at))?.[1];
    }
  }

  /** The same work as the client (strict JSON, schema per record) without the client: its own overhead. */
  async function sameWork(): Promise<number> {
    let count = 0;
    let cursor: string | undefined;
    for (;;) {
      const query = `limit=${LIMIT}&direction=forward${cursor === undefined ? '' : `&id_start=${cursor}`}`;
      const response = await fetch(`${server.baseUrl}/orders?${query}`, { headers });
      const records = parseJson(await response.text()) as { id: string }[];
      // Keep the page's records alive like a page handed to a consumer (it matters to the GC).
      const page: unknown[] = [];
      for (const raw of records) {
        const result = parseRecord('orders', raw);
        if (result.ok) page.push(result.record);
      }
      count += page.length;
      if (records.length < LIMIT) return count;
      cursor = String(records[records.length - 1]?.id);
    }
  }

  async function viaClient(): Promise<number> {
    let count = 0;
    for await (const page of client.pages('orders', { limit: LIMIT, direction: 'forward' })) count += page.length + page.rejected.length;
    return count;
  }

  type Contender = 'bare' | 'sameWork' | 'client';
  const rates: Record<Contender, number[]> = { bare: [], sameWork: [], client: [] };
  /** CPU of this process (the simulator runs in another) per record, in µs: robust to a busy machine. */
  const cpu: Record<Contender, number[]> = { bare: [], sameWork: [], client: [] };
  async function measure(name: Contender, run: () => Promise<number>): Promise<void> {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const count = await run();
    const used = process.cpuUsage(cpuBefore);
    const seconds = (performance.now() - started) / 1000;
    if (count !== orders) throw new Error(`${name} saw ${count} orders, the simulator has ${orders}`);
    rates[name].push(count / seconds);
    cpu[name].push((used.user + used.system) / count);
  }

  // One warm-up of each (JIT, connection pool), then rotate which goes first.
  const contenders: [Contender, () => Promise<number>][] = [['bare', bare], ['sameWork', sameWork], ['client', viaClient]];
  for (const [, run] of contenders) await run();
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < contenders.length; i++) {
      const [name, run] = contenders[(round + i) % contenders.length] as [Contender, () => Promise<number>];
      await measure(name, run);
    }
  }
  server.stop();

  const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
  const ratios = (base: Contender): number[] => rates.client.map((c, i) => c / (rates[base][i] ?? c));
  const line = (label: string, xs: number[]): string => `${label.padEnd(34)} median ${fmt(median(xs)).padStart(7)} records/s   (${xs.map(fmt).join(', ')})`;
  const ratioLine = (label: string, xs: number[], aim: string): string =>
    `${label.padEnd(34)} median ${median(xs).toFixed(2)}x   (per round ${xs.map((r) => r.toFixed(2)).join(', ')}${aim})`;
  console.log(`orders: ${orders}, limit ${LIMIT}, ${ROUNDS} rounds, interleaved; simulator in a child process${SMOKE_NOTE}`);
  console.log(line('fetch + JSON.parse (speed limit)', rates.bare));
  console.log(line('fetch + parseJson + parseRecord', rates.sameWork));
  console.log(line('client.pages()', rates.client));
  console.log(ratioLine('ratio client / speed limit', ratios('bare'), '; aim >= 0.70x'));
  console.log(ratioLine('ratio client / same work, no client', ratios('sameWork'), ''));
  const us = (name: Contender): string => `${median(cpu[name]).toFixed(1)} µs`;
  console.log(`client-side CPU per record (median): speed limit ${us('bare')}, same work ${us('sameWork')}, client ${us('client')}`);
}
