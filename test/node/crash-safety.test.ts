import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMirror } from '../../src/mirror/create-mirror.js';
import { openFileStorage } from '../../src/node/index.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { recordDifferences } from '../../scripts/soak/record-differences.js';
import type { AckedEdit, FoundBeforeSettling } from './crash-child.js';
import type { JournalFault } from './journal-faults.js';
import { startKillProxy, type KillProxy } from './kill-proxy.js';
import { tempDataDir } from './storage-fixture.js';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
/** How many times a working process is killed (CRASH_KILLS=200 for a longer run). */
const KILLS = Number(process.env.CRASH_KILLS ?? 40);
/**
 * The run's time limit: a kill costs a process start (tsx) and a sync, 1 to 4 s on the 2-core
 * machine when other runs share it (40 kills took up to 166 s at a load of 8).
 */
const TIME_LIMIT_MS = 120_000 + KILLS * 6_000;
/** Seed of the kill sequence (the points' parameters, the random moments) and of the edits (CRASH_SEED=3 for another run). */
const SEED = Number(process.env.CRASH_SEED ?? 7);
/**
 * The database every process opens, whichever address it reaches the service at: the killed
 * processes go through the kill proxy, the settling process and the final check straight to
 * the simulator. The default name comes from the base URL, which would give each its own copy.
 */
const DB_NAME = 'pos-cloud-mirror:crash-test';

/**
 * Where each process is killed, in turn: right after a POST landed on the server (before the
 * process hears), while it applies a page just received, in the middle of writing a commit to
 * its journal (a torn record), right after a commit is durable (before the app is told), and at
 * a random moment.
 */
const KILL_POINTS = ['after-post', 'mid-page', 'torn-commit', 'after-commit', 'random'] as const;
type KillPoint = (typeof KILL_POINTS)[number];

interface Run {
  child: ChildProcess;
  /** True once the mirror is open; false when the process ended before. */
  ready: Promise<boolean>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** A settling process: what it found in the database before it synced. */
  found: Promise<FoundBeforeSettling>;
  settled: Promise<{ pending: number; states: string[] }>;
}

/** Where a process reaches the service, and the database it opens there. */
interface Target {
  baseUrl: string;
  token: string;
  dataDir: string;
  dbName: string;
}

/** Starts a mirror process on `target`; acknowledged edits are pushed to `acked`. */
function start(target: Target, seed: number, settle: boolean, acked: AckedEdit[], fault?: JournalFault): Run {
  const child = fork(CHILD, [JSON.stringify({ ...target, seed, salt: SEED, settle, fault })], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  let ready!: (value: boolean) => void;
  let found!: (value: FoundBeforeSettling) => void;
  let settled!: (value: { pending: number; states: string[] }) => void;
  const run: Run = {
    child,
    ready: new Promise((resolve) => (ready = resolve)),
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
    found: new Promise((resolve) => (found = resolve)),
    settled: new Promise((resolve) => (settled = resolve)),
  };
  void run.exited.then(() => ready(false));
  child.on('message', (message: { kind: string; edit?: AckedEdit; found?: FoundBeforeSettling; pending?: number; states?: string[] }) => {
    if (message.kind === 'ready') ready(true);
    if (message.kind === 'ack' && message.edit) acked.push(message.edit);
    if (message.kind === 'found' && message.found) found(message.found);
    if (message.kind === 'settled') settled({ pending: message.pending ?? -1, states: message.states ?? [] });
  });
  return run;
}

/**
 * Runs one process and kills it at `point`; true when it died there (a point that did not come
 * within a few seconds is replaced by a kill at that moment).
 */
async function runUntilKilled(proxy: KillProxy, target: Target, seed: number, point: KillPoint, acked: AckedEdit[], random: () => number): Promise<boolean> {
  const fault: JournalFault | undefined =
    point === 'torn-commit' ? { tear: 1 + Math.floor(random() * 40) } : point === 'after-commit' ? { afterSync: 1 + Math.floor(random() * 40) } : undefined;
  const run = start(target, seed, false, acked, fault);
  let killedHere = false;
  const kill = () => run.child.kill('SIGKILL');
  if (point === 'after-post' || point === 'mid-page') {
    proxy.arm(point, () => {
      killedHere = true;
      kill();
    });
  }
  const opened = await run.ready;
  let fellBack = false;
  const fallback = setTimeout(() => {
    fellBack = true;
    kill();
  }, point === 'random' ? 30 + random() * 600 : 4_000);
  const { code, signal } = await run.exited;
  clearTimeout(fallback);
  proxy.disarm();
  expect({ code, signal }, `the process of seed ${seed} ended by itself`).toEqual({ code: null, signal: 'SIGKILL' });
  if (point === 'random') return opened;
  // A fault kills the process itself: it died there if it died before the fallback fired.
  return fault ? !fellBack : killedHere;
}

/**
 * The back office edits between two runs: a product the device never edits is renamed, and a
 * warehouse is created. The device must pull both, whatever point its last run was killed at.
 */
function editOnServer(sim: Simulator, round: number): void {
  const products = sim.store.list('products').filter((p) => p._d === 0 && !String(p.name).startsWith('crash-'));
  const product = products[round % products.length];
  if (product) sim.store.editProduct(String(product.id), { name: `server-edit-${round}` });
  sim.store.write('warehouses', { name: `server-warehouse-${round}` });
}

/** What the acknowledged edits say each record must end up as: the last value of each field, or deleted. */
function expectedState(acked: readonly AckedEdit[]): Map<string, { collection: string; id: string; fields: Record<string, unknown>; removed: boolean }> {
  const out = new Map<string, { collection: string; id: string; fields: Record<string, unknown>; removed: boolean }>();
  for (const edit of acked) {
    const key = `${edit.collection}:${edit.id}`;
    const record = out.get(key) ?? { collection: edit.collection, id: edit.id, fields: {}, removed: false };
    Object.assign(record.fields, edit.fields);
    if (edit.removed) record.removed = true;
    out.set(key, record);
  }
  return out;
}

describe('a mirror process killed with SIGKILL at random points', () => {
  let sim: Simulator;
  const dir = tempDataDir();
  beforeAll(async () => {
    sim = await createSimulator({ port: 0, size: 'tiny', seed: 12, faults: { latencyMs: 8 } });
  });
  afterAll(async () => {
    await sim.close();
    dir.cleanup();
  });

  it(`converges after ${KILLS} kills at every kind of point: every acknowledged edit on the server exactly once, no record skipped, nothing stuck`, async () => {
    const acked: AckedEdit[] = [];
    // The Park-Miller sequence needs a seed in 1..2^31-2.
    let random = 1 + (Math.abs(Math.trunc(SEED)) % 2147483646);
    const next = () => ((random = (random * 48271) % 2147483647) / 2147483647);
    const proxy = await startKillProxy(sim.baseUrl);
    const killed: Target = { baseUrl: proxy.baseUrl, token: sim.token, dataDir: dir.dataDir, dbName: DB_NAME };
    const hits = new Map<KillPoint, number>(KILL_POINTS.map((point) => [point, 0]));
    /** Where the acknowledged edits of the last killed run begin in `acked`. */
    let lastRun = 0;
    try {
      for (let kill = 0; kill < KILLS; kill++) {
        const point = KILL_POINTS[kill % KILL_POINTS.length]!;
        lastRun = acked.length;
        if (await runUntilKilled(proxy, killed, kill + 1, point, acked, next)) hits.set(point, hits.get(point)! + 1);
        editOnServer(sim, kill);
      }
    } finally {
      await proxy.close();
    }
    if (process.env.CRASH_REPORT) {
      process.stderr.write(`crash seed ${SEED}, ${KILLS} kills: kill points hit ${JSON.stringify(Object.fromEntries(hits))}, edits acknowledged ${acked.length} (${acked.length - lastRun} in the last run)\n`);
    }
    // Each kind of point was really hit, most of the times it was aimed at.
    for (const [point, count] of hits) expect(count, `kills ${point}`).toBeGreaterThanOrEqual(Math.floor(KILLS / KILL_POINTS.length / 2));

    // The settling process reaches the simulator directly, at another address than the killed
    // ones, and must still open their database: it finds their records, and every edit they were
    // told is saved (the last run's, and all before) is either waiting in its outbox or already
    // on the server. (Nothing but the device edits customers, so no conflict can stand between.)
    const settle = start({ ...killed, baseUrl: sim.baseUrl }, 999, true, acked);
    const found = await settle.found;
    expect(found.records, 'records in the database the settling process opened').toBeGreaterThan(0);
    const waiting = new Set(found.outbox.map((e) => `${e.collection}:${e.id}`));
    const expected = expectedState(acked);
    for (const edit of acked) {
      const key = `${edit.collection}:${edit.id}`;
      if (waiting.has(key)) continue;
      const { fields, removed } = expected.get(key)!;
      const server = sim.store.get(edit.collection, edit.id);
      expect(server, `${key} (${edit.op}): neither in the outbox the settling process found nor on the server`).toBeDefined();
      if (removed) expect(server!._d, `${key} removed`).not.toBe(0);
      else expect(server, `${key} (${edit.op}): not in the outbox the settling process found, and not on the server`).toMatchObject(fields);
    }
    const settled = await settle.settled;
    await settle.exited;
    expect(settled).toEqual({ pending: 0, states: [] });
    expect(acked.length).toBeGreaterThan(KILLS);

    // The server holds every acknowledged edit, and each create once.
    for (const { collection, id, fields, removed } of expected.values()) {
      const server = sim.store.get(collection as 'customers', id);
      expect(server, `${collection} ${id}`).toBeDefined();
      if (removed) expect(server!._d, `${collection} ${id} removed`).not.toBe(0);
      else expect(server, `${collection} ${id}`).toMatchObject(fields);
    }
    for (const collection of ['customers', 'products', 'warehouses'] as const) {
      const names = sim.store.list(collection).map((r) => String(r[collection === 'customers' ? 'company' : 'name'] ?? '')).filter((n) => n.startsWith('crash-'));
      expect(new Set(names).size, `${collection}: a create applied twice`).toBe(names.length);
    }

    // The device, the very database the killed processes wrote, holds what the server holds,
    // field by field: no record skipped, none left behind.
    const storage = await openFileStorage({ dataDir: dir.dataDir });
    const mirror = createMirror({ baseUrl: sim.baseUrl, token: sim.token, userAgent: 'tests', storage, dbName: DB_NAME, collections: ['customers', 'products', 'warehouses'] });
    for (const collection of ['customers', 'products', 'warehouses', 'product_price_matrix'] as const) {
      expect(recordDifferences(collection, sim.store.list(collection), await mirror.db.table(collection).toArray()).slice(0, 10), collection).toEqual([]);
    }
    expect(await mirror.conflicts()).toEqual([]);
    expect(await mirror.pending()).toEqual([]);
    await mirror.close();
  }, TIME_LIMIT_MS);

  it('makes a second process on the same data directory wait until the first is gone, and never interleaves their writes', async () => {
    const other = tempDataDir();
    try {
      const acked: AckedEdit[] = [];
      const target: Target = { baseUrl: sim.baseUrl, token: sim.token, dataDir: other.dataDir, dbName: DB_NAME };
      const first = start(target, 501, false, acked);
      await first.ready;
      const second = start(target, 502, false, acked);
      let secondReady = false;
      void second.ready.then(() => (secondReady = true));
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(secondReady).toBe(false); // waiting for the lock, not working beside the first
      first.child.kill('SIGKILL');
      await first.exited;
      await second.ready; // the killed holder's lock is taken over at once
      await new Promise((resolve) => setTimeout(resolve, 300));
      second.child.kill('SIGKILL');
      await second.exited;
      const settle = start(target, 503, true, acked);
      expect(await settle.settled).toEqual({ pending: 0, states: [] });
      await settle.exited;
      for (const { collection, id, fields, removed } of expectedState(acked).values()) {
        const server = sim.store.get(collection as 'customers', id);
        if (removed) expect(server?._d).not.toBe(0);
        else expect(server, `${collection} ${id}`).toMatchObject(fields);
      }
    } finally {
      other.cleanup();
    }
  }, 60_000);
});

