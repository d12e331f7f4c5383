/**
 * Push throughput: 10,000 offline edits across collections (creates of customers, products,
 * warehouses, employees, orders and order items, and edits of pulled customers and products)
 * pushed by `createPusher` to the simulator, against bare `fetch` POSTs of the very same batch
 * bodies (no outbox, no conflict check, no bookkeeping: the speed limit). Both run in this
 * process, round by round, alternating which goes first; the simulator runs in a child process so
 * that serving does not share the pusher's event loop. Prints records/s, the ratio, and the
 * requests made against the minimum (the number of batches).
 *
 *   npm run bench -- push            (EDITS=10000 ROUNDS=3 MAX_RECORDS=100 to change the load)
 */
import { forkSimulator } from './simulator-process.js';
import { SMOKE_NOTE, smokeOr } from './smoke.js';
import { median } from './stats.js';

const EDITS = Number(process.env.EDITS ?? smokeOr(500, 10_000));
const ROUNDS = Number(process.env.ROUNDS ?? smokeOr(1, 3));
const MAX_RECORDS = Number(process.env.MAX_RECORDS ?? 100);

await main();

async function main(): Promise<void> {
  const { IDBFactory, IDBKeyRange } = await import('fake-indexeddb');
  const { createClient } = await import('../src/client/index.js');
  const { MirrorDb } = await import('../src/db/mirror-db.js');
  const { createPuller } = await import('../src/sync/pull/pull.js');
  const { createPusher } = await import('../src/sync/push/push.js');
  const { saveLocal } = await import('../src/sync/outbox/local-edit.js');

  // The simulator runs in a child process, so serving does not share the pusher's event loop.
  const server = await forkSimulator({ size: 'tiny', seed: 11, logSize: 10 });

  // Every POST body the pusher sends, in order: the bare baseline replays exactly these.
  let bodies: { url: string; body: string }[] | undefined;
  const recording: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    if (bodies && request.method === 'POST') bodies.push({ url: request.url, body: await request.clone().text() });
    return fetch(request);
  };
  const client = createClient({ baseUrl: server.baseUrl, token: server.token, userAgent: 'pos-cloud-mirror bench', fetch: recording });
  const headers = { authorization: `A|${server.token}`, accept: 'application/json', 'content-type': 'application/json' };

  // One device's database, filled once with the offline edits through saveLocal; each round
  // starts from a copy of it, so every round pushes the same 10,000 entries.
  const factory = new IDBFactory();
  const seedDb = new MirrorDb('push-bench-seed', { indexedDB: factory, IDBKeyRange });
  const puller = createPuller({ db: seedDb, client: client as never });
  const refsFrom = ['shops', 'cash_registers', 'employees', 'shifts', 'park_locations', 'warehouses', 'products', 'customers'] as const;
  for (const c of refsFrom) await puller.pull(c);
  const first = async (c: (typeof refsFrom)[number]) => (await seedDb.table(c).toCollection().first()) as Record<string, string>;
  const [shop, register, employee, shift, park, warehouse] = await Promise.all(refsFrom.slice(0, 6).map(first));
  const refs = { id_shop: shop!.id, id_cash_register: register!.id, id_shift: shift!.id, id_employee: employee!.id };
  const pulledCustomers = await seedDb.customers.toArray();
  const pulledProducts = await seedDb.products.toArray();

  const seedStarted = performance.now();
  let edits = 0;
  let t = Date.UTC(2026, 0, 2);
  const save = (c: Parameters<typeof saveLocal>[1], r: object) => saveLocal(seedDb, c, r, { now: t++ }).then((id) => (edits++, id));
  for (const c of pulledCustomers) await save('customers', { id: c.id, note_internal: 'counted offline' });
  for (const p of pulledProducts) await save('products', { id: p.id, name: `${String(p.name)} (new label)` });
  const share = (part: number) => Math.floor(((EDITS - edits) * part) / 10);
  const plan = { customers: share(3), products: share(2), warehouses: share(0.5), employees: share(0.5), orders: share(2) };
  for (let i = 0; i < plan.customers; i++) await save('customers', { company: null, firstname: `Walk-in ${i}`, email: `c${i}@example.com` });
  const productIds: string[] = [];
  for (let i = 0; i < plan.products; i++) productIds.push(await save('products', { name: `Item ${i}`, date_updated: t, barcode: `859${i}` }));
  for (let i = 0; i < plan.warehouses; i++) await save('warehouses', { name: `Shelf ${i}` });
  for (let i = 0; i < plan.employees; i++) await save('employees', { name: `Temp ${i}` });
  for (let i = 0; edits < EDITS; i++) {
    const order = await save('orders', { ...refs, id_employee_served: employee!.id, id_park_location: park!.id, currency: 'CZK', total_paid_real: 1000 * i });
    if (edits >= EDITS) break;
    await save('order_details', {
      ...refs,
      id_order: order,
      id_product: productIds[i % productIds.length],
      id_category: '0',
      id_warehouse: warehouse!.id,
      currency: 'CZK',
      product_quantity: 1,
    });
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const snapshot = {
    outbox: await seedDb._sync_outbox.toArray(),
    tables: Object.fromEntries(await Promise.all(['customers', 'products', 'warehouses', 'employees', 'orders', 'order_details'].map(async (c) => [c, await seedDb.table(c).toArray()] as const))),
  };
  seedDb.close();
  console.log(`seeded ${edits} offline edits with saveLocal in ${seedSeconds.toFixed(1)} s (${Math.round(edits / seedSeconds)} edits/s, not part of the ratio)${SMOKE_NOTE}`);

  let round = 0;
  async function freshDb() {
    const db = new MirrorDb(`push-bench-${round++}`, { indexedDB: factory, IDBKeyRange });
    await db.open();
    await db.transaction('rw', [db._sync_outbox, ...Object.keys(snapshot.tables).map((c) => db.table(c))], async () => {
      for (const [c, rows] of Object.entries(snapshot.tables)) await db.table(c).bulkPut(rows);
      await db._sync_outbox.bulkPut(snapshot.outbox);
    });
    return db;
  }

  async function viaPusher(record: boolean): Promise<{ seconds: number; requests: number; batches: number; posts: number }> {
    const db = await freshDb();
    const pusher = createPusher({ db, client, batch: { maxRecords: MAX_RECORDS } });
    if (record) bodies = [];
    const before = await server.postsSoFar();
    const started = performance.now();
    const report = await pusher.push();
    const seconds = (performance.now() - started) / 1000;
    const posts = (await server.postsSoFar()) - before;
    if (record) {
      const captured = bodies ?? [];
      bodies = undefined;
      baseline = captured;
    }
    if (report.pushed !== edits || (await db._sync_outbox.count()) !== 0) throw new Error(`pushed ${report.pushed} of ${edits}`);
    db.close();
    return { seconds, requests: report.requests, batches: report.batches, posts };
  }

  let baseline: { url: string; body: string }[] = [];
  async function bare(): Promise<{ seconds: number; posts: number }> {
    const before = await server.postsSoFar();
    const started = performance.now();
    for (const { url, body } of baseline) {
      const response = await fetch(url, { method: 'POST', headers, body });
      await response.text();
      if (!response.ok) throw new Error(`bare POST answered ${response.status}`);
    }
    const seconds = (performance.now() - started) / 1000;
    return { seconds, posts: (await server.postsSoFar()) - before };
  }

  // Warm-up of each (JIT, connection pool; the records then exist on the server for both).
  await viaPusher(true);
  await bare();

  const rates = { bare: [] as number[], pusher: [] as number[] };
  let last = { requests: 0, batches: 0, posts: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    const runBare = async () => rates.bare.push(edits / (await bare()).seconds);
    const runPusher = async () => {
      const result = await viaPusher(false);
      last = result;
      rates.pusher.push(edits / result.seconds);
    };
    if (r % 2 === 0) {
      await runBare();
      await runPusher();
    } else {
      await runPusher();
      await runBare();
    }
  }
  server.stop();

  const pusherRate = median(rates.pusher);
  const bareRate = median(rates.bare);
  console.log(`records: ${edits} across 6 collections, batches of up to ${MAX_RECORDS}; ${ROUNDS} rounds, medians`);
  console.log(`requests: pusher made ${last.requests} (server saw ${last.posts} POSTs), minimum ${last.batches} (batches); bare made ${baseline.length}`);
  console.log(`bare fetch POSTs: ${Math.round(bareRate)} records/s`);
  console.log(`createPusher:     ${Math.round(pusherRate)} records/s  (rounds: ${rates.pusher.map(Math.round).join(', ')})`);
  console.log(`ratio pusher/bare: ${(pusherRate / bareRate).toFixed(2)}x  (aim >= 0.70x)`);
}
