/**
 * A simulator in a child process, for the benchmarks that measure a client against it: serving
 * then does not share the measured code's event loop, as with a real server. `forkSimulator`
 * forks this very file with the simulator's options in an environment variable; the child starts
 * the simulator, reports where it listens, and stops when the parent disconnects.
 *
 * Not a benchmark itself: `bench/run.ts` runs only files named `*.bench.ts`.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CollectionName } from '../src/schema/collections.js';
import type { SimStore, SimulatorOptions, SwitchOptions } from '../src/simulator/index.js';

/** The simulator options a benchmark may set; they reach the child as JSON. */
export type ForkSimulatorOptions = Pick<SimulatorOptions, 'size' | 'seed' | 'logSize' | 'clock'>;

/** A running simulator in a child process. */
export interface SimulatorProcess {
  /** Base URL of the simulator's API. */
  baseUrl: string;
  /** The token clients send as `Authorization: A|<token>`. */
  token: string;
  /** Records per collection on the server once it started. */
  counts: Record<CollectionName, number>;
  /** Records on the server once it started, every collection together. */
  total: number;
  /** How many POST requests the simulator has served so far (every route together). */
  postsSoFar(): Promise<number>;
  /** Has the simulator's registers make `count` sales (orders, items, payments, stock) and resolves with how many records they added. */
  sell(count: number): Promise<number>;
  /** Changes the simulator's switches (`setOptions`), e.g. ids served as strings. */
  setOptions(options: SwitchOptions): Promise<void>;
  /** The server's sales of the last 24 h of its clock, and what its catalogue holds, read from its store. */
  lastDay(): Promise<LastDayFacts>;
  /** Disconnects from the child, which then closes the simulator and exits. */
  stop(): void;
}

/** What the server holds that a register needs first: read from the simulator's store, not through its API. */
export interface LastDayFacts {
  /** The start of the last 24 h on the server's clock (ms): orders with `date_created` at or after it. */
  since: number;
  /** Those orders' ids, each with its number of items (order_details). */
  orders: Record<string, number>;
  registers: number;
  products: number;
  /** Products with at least one price row (product_price_matrix). */
  pricedProducts: number;
}

/** What the child sends once its simulator listens. */
interface Ready {
  baseUrl: string;
  token: string;
  counts: Record<CollectionName, number>;
}

/** Environment variable that makes this file the simulator process; holds the options as JSON. */
const CHILD_ENV = 'BENCH_SIMULATOR_OPTIONS';

/**
 * Starts a simulator with `options` in a child process and resolves once it listens (rejects if
 * the child fails or exits first). Call `stop()` when done, or the benchmark will not exit.
 */
export async function forkSimulator(options: ForkSimulatorOptions): Promise<SimulatorProcess> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, [CHILD_ENV]: JSON.stringify(options) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Ready));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`simulator process exited with ${String(code)}`)));
  });
  return {
    baseUrl: ready.baseUrl,
    token: ready.token,
    counts: ready.counts,
    total: Object.values(ready.counts).reduce((n, c) => n + c, 0),
    postsSoFar: () => ask<number>(child, { kind: 'posts' }),
    sell: (count) => ask<number>(child, { kind: 'sell', count }),
    setOptions: (options) => ask<null>(child, { kind: 'options', options }).then(() => undefined),
    lastDay: () => ask<LastDayFacts>(child, { kind: 'lastDay' }),
    stop: () => child.disconnect(),
  };
}

/** What the parent asks the child. */
type Question = { kind: 'posts' } | { kind: 'sell'; count: number } | { kind: 'options'; options: SwitchOptions } | { kind: 'lastDay' };

/** Asks the child one question and resolves with its answer (one question at a time). */
function ask<T>(child: ReturnType<typeof fork>, question: Question): Promise<T> {
  return new Promise<T>((resolve) => {
    child.once('message', (message) => resolve(message as T));
    child.send(question);
  });
}

/** The child: one simulator; answers the parent's questions, stops with its parent. */
async function serve(options: ForkSimulatorOptions): Promise<void> {
  const { createSimulator } = await import('../src/simulator/index.js');
  const { COLLECTIONS } = await import('../src/schema/collections.js');
  const sim = await createSimulator(options);
  const records = () => COLLECTIONS.reduce((n, c) => n + sim.store.count(c), 0);
  process.on('message', (question: Question) => {
    if (question.kind === 'sell') {
      const before = records();
      for (let i = 0; i < question.count; i++) sim.store.sell();
      process.send?.(records() - before);
      return;
    }
    if (question.kind === 'options') {
      sim.setOptions(question.options);
      process.send?.(null);
      return;
    }
    if (question.kind === 'lastDay') {
      process.send?.(lastDayOf(sim.store));
      return;
    }
    const routes = sim.requests.counts();
    const posts = Object.entries(routes).reduce((n, [route, c]) => (route.startsWith('POST ') ? n + c : n), 0);
    process.send?.(posts);
  });
  process.once('disconnect', () => void sim.close().then(() => process.exit(0)));
  const counts = Object.fromEntries(COLLECTIONS.map((c) => [c, sim.store.count(c)])) as Record<CollectionName, number>;
  process.send?.({ baseUrl: sim.baseUrl, token: sim.token, counts } satisfies Ready);
}

/** {@link LastDayFacts} of a simulator's store, at its clock's present. */
export function lastDayOf(store: SimStore): LastDayFacts {
  const since = store.now() - 24 * 60 * 60 * 1000;
  const orders: Record<string, number> = {};
  for (const order of store.collection('orders').records()) {
    if ((order.date_created as number) >= since) orders[order.id as string] = store.items.itemsOf(order.id as string).length;
  }
  const priced = new Set<unknown>();
  for (const row of store.collection('product_price_matrix').records()) priced.add(row.id_product);
  return { since, orders, registers: store.count('cash_registers'), products: store.count('products'), pricedProducts: priced.size };
}

const childOptions = process.env[CHILD_ENV];
if (childOptions !== undefined) await serve(JSON.parse(childOptions) as ForkSimulatorOptions);
