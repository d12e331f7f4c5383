import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Dexie } from 'dexie';
import { afterAll, describe, expect, it } from 'vitest';
import { openFileStorage } from '../../src/node/index.js';
import { foldOps, foldStateOf, foldStep, FOLD_DB, FOLD_STORES, type FoldState } from './fold-ops.js';
import { tempDataDir } from './storage-fixture.js';

const CHILD = fileURLToPath(new URL('./fold-child.ts', import.meta.url));
/** How many processes are killed (FOLD_KILLS=100 for a longer run). */
const KILLS = Number(process.env.FOLD_KILLS ?? 14);

/**
 * Runs one writing process on `dataDir` until it is killed: right before or after the n-th
 * rename of a fold (odd runs), or at a random moment (even runs). Resolves with the number of
 * the last transaction it said committed (-1: none).
 */
async function runUntilKilled(dataDir: string, seed: number, random: () => number): Promise<{ committed: number; atRename: boolean }> {
  const renameKill = seed % 2 === 1 ? { n: 1 + Math.floor(random() * 6), after: random() < 0.5 } : undefined;
  const child = fork(CHILD, [JSON.stringify({ dataDir, seed, renameKill })], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  let committed = -1;
  let timer: NodeJS.Timeout | undefined;
  let fellBack = false;
  child.on('message', (message: { kind: string; i?: number }) => {
    if (message.kind === 'committed') committed = message.i!;
    // A random moment, or a fallback for a rename that does not come.
    if (message.kind === 'ready') {
      timer = setTimeout(() => {
        fellBack = true;
        child.kill('SIGKILL');
      }, renameKill ? 3_000 : 100 + random() * 900);
    }
  });
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (c, s) => resolve({ code: c, signal: s })));
  clearTimeout(timer);
  expect({ code, signal }, `the process of seed ${seed}`).toEqual({ code: null, signal: 'SIGKILL' });
  return { committed, atRename: renameKill !== undefined && !fellBack };
}

/** What the database in `dataDir` holds, opened as a restarted process opens it. */
async function stateIn(dataDir: string): Promise<FoldState> {
  const storage = await openFileStorage({ dataDir });
  const db = new Dexie(FOLD_DB, { indexedDB: storage.indexedDB, IDBKeyRange: storage.IDBKeyRange });
  db.version(1).stores(FOLD_STORES);
  storage.attach(db);
  const { state, indexAgrees } = await foldStateOf(db);
  db.close();
  await storage.close();
  expect(indexAgrees, 'the group index lists the records of each group').toBe(true);
  return state;
}

describe('a store whose journal is folded while it is written, killed with SIGKILL', () => {
  const dir = tempDataDir();
  afterAll(() => dir.cleanup());

  it(`holds every committed transaction after ${KILLS} kills, at the steps of a fold and at random moments`, async () => {
    let seedState = 11;
    const random = () => (seedState = (seedState * 48271) % 2147483647) / 2147483647;
    let state: FoldState = { items: new Map(), queue: [] };
    let transactions = 0;
    let atRenames = 0;
    for (let seed = 1; seed <= KILLS; seed++) {
      const { committed, atRename } = await runUntilKilled(dir.dataDir, seed, random);
      if (atRename) atRenames++;
      // What it told committed, and maybe the transaction it was committing when it died.
      const ops = foldOps(seed);
      let told = state;
      for (let i = 0; i <= committed; i++) told = foldStep(told, ops.next().value!);
      const oneMore = foldStep(told, ops.next().value!);
      const found = await stateIn(dir.dataDir);
      expect([told, oneMore].some((candidate) => sameState(found, candidate)), `after the process of seed ${seed} (${committed + 1} transactions told)`).toBe(true);
      state = found;
      transactions += committed + 1;
    }
    expect(transactions).toBeGreaterThan(KILLS * 20);
    // Most processes aimed at a step of a fold died there.
    expect(atRenames).toBeGreaterThanOrEqual(Math.floor(KILLS / 4));
  }, 60_000 + KILLS * 5_000);
});

function sameState(a: FoldState, b: FoldState): boolean {
  const items = (s: FoldState) => JSON.stringify([...s.items.values()].sort((x, y) => (x.id < y.id ? -1 : 1)));
  return items(a) === items(b) && JSON.stringify(a.queue) === JSON.stringify(b.queue);
}
