/**
 * Client throughput: records/s of `client.pages()` over the simulator's orders, against the same
 * traversal done with bare `fetch` + `JSON.parse` (no schema, no exact ids, no retries: the speed
 * limit). Both run in this process, interleaved round by round; the simulator runs in a child
 * process (this same file, forked) so that serving does not share the client's event loop.
 *
 *   npm run bench -- client            (ORDERS=60000 LIMIT=1000 ROUNDS=5 to change the load)
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ORDERS = Number(process.env.ORDERS ?? 60_000);
const LIMIT = Number(process.env.LIMIT ?? 1_000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

interface Ready {
  baseUrl: string;
  token: string;
  orders: number;
}

if (process.env.CLIENT_BENCH_SERVER === '1') {
  // The server process: one simulator, alive until the parent disconnects.
  const { createSimulator } = await import('../src/simulator/index.js');
  const sim = await createSimulator({ size: { orders: ORDERS }, seed: 7 });
  process.send?.({ baseUrl: sim.baseUrl, token: sim.token, orders: sim.store.count('orders') } satisfies Ready);
  process.once('disconnect', () => void sim.close());
} else {
  await main();
}

async function main(): Promise<void> {
  const { createClient } = await import('../src/client/index.js');
  const server = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, CLIENT_BENCH_SERVER: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    server.once('message', (message) => resolve(message as Ready));
    server.once('error', reject);
    server.once('exit', (code) => reject(new Error(`simulator process exited with ${String(code)}`)));
  });
  const client = createClient({ baseUrl: ready.baseUrl, token: ready.token, userAgent: 'pos-cloud-mirror bench' });
  const headers = { authorization: `A|${ready.token}`, accept: 'application/json', 'content-type': 'application/json' };

  /** The speed limit: fetch, JSON.parse, cursor from the text (JSON.parse would round big ids). */
  async function bare(): Promise<number> {
    let count = 0;
    let cursor: string | undefined;
    for (;;) {
      const query = `limit=${LIMIT}&direction=forward${cursor === undefined ? '' : `&id_start=${cursor}`}`;
      const response = await fetch(`${ready.baseUrl}/orders?${query}`, { headers });
      const text = await response.text();
      const records = JSON.parse(text) as unknown[];
      count += records.length;
      if (records.length < LIMIT) return count;
      const at = text.lastIndexOf('"id":');
      cursor = /^"id":"?(\d+)/.exec(text.slice(at))?.[1];
    }
  }

  async function viaClient(): Promise<number> {
    let count = 0;
    for await (const page of client.pages('orders', { limit: LIMIT, direction: 'forward' })) count += page.length + page.rejected.length;
    return count;
  }

  const rates: { bare: number[]; client: number[] } = { bare: [], client: [] };
  async function measure(name: 'bare' | 'client', run: () => Promise<number>): Promise<void> {
    const started = performance.now();
    const count = await run();
    const seconds = (performance.now() - started) / 1000;
    if (count !== ready.orders) throw new Error(`${name} saw ${count} orders, the simulator has ${ready.orders}`);
    rates[name].push(count / seconds);
  }

  // One warm-up of each (JIT, connection pool), then alternate which goes first.
  await bare();
  await viaClient();
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      await measure('bare', bare);
      await measure('client', viaClient);
    } else {
      await measure('client', viaClient);
      await measure('bare', bare);
    }
  }
  server.disconnect();

  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
  const ratios = rates.client.map((c, i) => c / (rates.bare[i] ?? c));
  console.log(`orders: ${ready.orders}, limit ${LIMIT}, ${ROUNDS} rounds, interleaved`);
  console.log(`fetch + JSON.parse   median ${fmt(median(rates.bare))} records/s   (${rates.bare.map(fmt).join(', ')})`);
  console.log(`client.pages()       median ${fmt(median(rates.client))} records/s   (${rates.client.map(fmt).join(', ')})`);
  console.log(`ratio client/bare    median ${median(ratios).toFixed(2)}x   (per round ${ratios.map((r) => r.toFixed(2)).join(', ')}; aim >= 0.70x)`);
}
