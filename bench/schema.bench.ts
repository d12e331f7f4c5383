/**
 * Speed of the schema layer's read face: `parseRecord(collection, raw)` per record, against
 * `structuredClone` of the same records (a full copy of every field: the in-run baseline).
 *
 * Records come from the simulator (`small` tenant) and pass through `stringifyJson` + `parseJson`
 * so that they look exactly like wire input (ids beyond 2^53 as digit strings). Products carry
 * their `__price_matrix_model` as the product list returns it. Every round runs parseRecord and
 * structuredClone over each collection, alternating which goes first, with a GC before each,
 * timed in CPU time of the process;
 * medians over the rounds are printed as us/record, and the median of each round's ratio of
 * parseRecord to structuredClone (the two ran back to back, so the ratio shrugs off load swings).
 *
 *   npm run bench -- schema            (ROUNDS=15 to change the rounds)
 */
import { parseJson, stringifyJson } from '../src/json/index.js';
import { parseRecord, type SchemaName } from '../src/schema/index.js';
import { createSimulator } from '../src/simulator/index.js';
import { hydrateProduct } from '../src/simulator/http/handlers/hydrate.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';
import { gc, median } from './stats.js';

const ROUNDS = Number(process.env.ROUNDS ?? smokeOr(1, 15));
const TENANT = smokeOr<'tiny' | 'small'>('tiny', 'small');
const COLLECTIONS = ['orders', 'order_details', 'products', 'customers', 'stock_history'] as const satisfies readonly SchemaName[];

/**
 * CPU time of this process in microseconds. The machine is shared: wall time counts the spells
 * another process holds the core, CPU time does not (GC helper threads are counted, as they should).
 */
function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

const sim = await createSimulator({ size: TENANT });
const inputs = new Map<SchemaName, unknown[]>();
try {
  for (const collection of COLLECTIONS) {
    let records = sim.store.list(collection);
    if (collection === 'products') records = records.map((product) => hydrateProduct(sim.store, product));
    inputs.set(collection, parseJson(stringifyJson(records)) as unknown[]);
  }
} finally {
  await sim.close();
}

// Every record must parse: a benchmark of failures would measure the error path.
for (const [collection, records] of inputs) {
  for (const raw of records) {
    const result = parseRecord(collection, raw);
    if (!result.ok) throw new Error(`${collection}: ${JSON.stringify(result.issues)}`);
  }
}

interface Contender {
  name: string;
  run: (collection: SchemaName, records: unknown[]) => unknown;
}

let sink: unknown;
const contenders: Contender[] = [
  {
    name: 'parseRecord',
    run: (collection, records) => {
      for (const raw of records) sink = parseRecord(collection, raw);
    },
  },
  {
    name: 'structuredClone',
    run: (_collection, records) => {
      for (const raw of records) sink = structuredClone(raw);
    },
  },
];

const times = new Map<string, number[]>();
const ratios = new Map<string, number[]>();
const key = (collection: string, name: string) => `${collection}|${name}`;
// Warm-up: zod's object parsers settle only after a few passes over every collection.
for (let pass = 0; pass < 3; pass++) for (const [collection, records] of inputs) for (const c of contenders) c.run(collection, records);

for (let round = 0; round < ROUNDS; round++) {
  for (const [collection, records] of inputs) {
    const order = round % 2 === 0 ? contenders : [...contenders].reverse();
    const now = new Map<string, number>();
    for (const c of order) {
      gc();
      const t0 = cpuMicros();
      c.run(collection, records);
      const us = (cpuMicros() - t0) / records.length;
      now.set(c.name, us);
      const list = times.get(key(collection, c.name)) ?? [];
      list.push(us);
      times.set(key(collection, c.name), list);
    }
    // The ratio of the same round: both ran back to back, under the same load.
    const list = ratios.get(collection) ?? [];
    list.push(now.get('parseRecord')! / now.get('structuredClone')!);
    ratios.set(collection, list);
  }
}
void sink;

console.log(`parseRecord (read face) vs structuredClone, CPU us/record and ratio, medians of ${ROUNDS} interleaved rounds${SMOKE_NOTE}`);
console.log(`${'collection'.padEnd(16)}${'records'.padStart(8)}${'parseRecord'.padStart(13)}${'clone'.padStart(9)}${'ratio'.padStart(8)}`);
for (const [collection, records] of inputs) {
  const parse = median(times.get(key(collection, 'parseRecord'))!);
  const clone = median(times.get(key(collection, 'structuredClone'))!);
  const ratio = median(ratios.get(collection)!);
  console.log(
    `${collection.padEnd(16)}${String(records.length).padStart(8)}${parse.toFixed(2).padStart(13)}${clone.toFixed(2).padStart(9)}${ratio.toFixed(2).padStart(7)}x`,
  );
}
