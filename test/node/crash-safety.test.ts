import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMirror } from '../../src/mirror/create-mirror.js';
import { openFileStorage } from '../../src/node/index.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import type { AckedEdit } from './crash-child.js';
import { tempDataDir } from './storage-fixture.js';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
/** How many times a working process is killed (CRASH_KILLS=100 for a longer run). */
const KILLS = Number(process.env.CRASH_KILLS ?? 14);

interface Run {
  child: ChildProcess;
  ready: Promise<void>;
  exited: Promise<number | null>;
  settled: Promise<{ pending: number; states: string[] }>;
}

/** Starts a mirror process on `dataDir`; acknowledged edits are pushed to `acked`. */
function start(sim: Simulator, dataDir: string, seed: number, settle: boolean, acked: AckedEdit[]): Run {
  const child = fork(CHILD, [JSON.stringify({ baseUrl: sim.baseUrl, token: sim.token, dataDir, seed, settle })], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  let ready!: () => void;
  let settled!: (value: { pending: number; states: string[] }) => void;
  const run: Run = {
    child,
    ready: new Promise((resolve) => (ready = resolve)),
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    settled: new Promise((resolve) => (settled = resolve)),
  };
  child.on('message', (message: { kind: string; edit?: AckedEdit; pending?: number; states?: string[] }) => {
    if (message.kind === 'ready') ready();
    if (message.kind === 'ack' && message.edit) acked.push(message.edit);
    if (message.kind === 'settled') settled({ pending: message.pending ?? -1, states: message.states ?? [] });
  });
  return run;
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

  it(`converges after ${KILLS} kills: every acknowledged edit on the server exactly once, no record skipped, nothing stuck`, async () => {
    const acked: AckedEdit[] = [];
    let random = 7;
    const next = () => ((random = (random * 48271) % 2147483647) / 2147483647);
    for (let kill = 0; kill < KILLS; kill++) {
      const run = start(sim, dir.dataDir, kill + 1, false, acked);
      await run.ready;
      // Killed somewhere in its work: mid-page, mid-push (before or after a POST landed), mid-commit.
      await new Promise((resolve) => setTimeout(resolve, 30 + next() * 600));
      run.child.kill('SIGKILL');
      await run.exited;
    }
    const settle = start(sim, dir.dataDir, 999, true, acked);
    const settled = await settle.settled;
    await settle.exited;
    expect(settled).toEqual({ pending: 0, states: [] });
    expect(acked.length).toBeGreaterThan(KILLS);

    // The server holds every acknowledged edit, and each create once.
    const expected = expectedState(acked);
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

    // The device holds what the server holds: no record skipped, none left behind.
    const storage = await openFileStorage({ dataDir: dir.dataDir });
    const mirror = createMirror({ baseUrl: sim.baseUrl, token: sim.token, userAgent: 'tests', storage, collections: ['customers', 'products', 'warehouses'] });
    for (const collection of ['customers', 'products', 'warehouses', 'product_price_matrix'] as const) {
      const local = new Map((await mirror.db.table(collection).toArray()).map((r) => [r.id as string, r._v]));
      const server = new Map(sim.store.list(collection).map((r) => [String(r.id), r._v]));
      expect(local, collection).toEqual(server);
    }
    expect(await mirror.conflicts()).toEqual([]);
    await mirror.close();
  }, 60_000 + KILLS * 3_000);

  it('makes a second process on the same data directory wait until the first is gone, and never interleaves their writes', async () => {
    const other = tempDataDir();
    try {
      const acked: AckedEdit[] = [];
      const first = start(sim, other.dataDir, 501, false, acked);
      await first.ready;
      const second = start(sim, other.dataDir, 502, false, acked);
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
      const settle = start(sim, other.dataDir, 503, true, acked);
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

