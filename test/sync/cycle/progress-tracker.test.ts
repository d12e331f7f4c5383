import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/client/index.js';
import { MirrorDb } from '../../../src/db/mirror-db.js';
import { compareIds } from '../../../src/ids/id.js';
import { ObservableValue } from '../../../src/mirror/observable-value.js';
import { createSimulator, type Simulator } from '../../../src/simulator/index.js';
import { MAX_PROBES_BESIDE_GROUPS, probesPerTraversal, MAX_PROBES } from '../../../src/sync/cycle/progress-estimate.js';
import { createProgressTracker, type ProgressTracker, type ProgressTrackerOptions } from '../../../src/sync/cycle/progress-tracker.js';
import { initialProgress, type SyncProgress } from '../../../src/sync/cycle/sync-progress.js';

type Collection = 'customers' | 'stock_history';

let sim: Simulator | undefined;
let tracker: ProgressTracker | undefined;
let db: MirrorDb | undefined;
afterEach(async () => {
  tracker?.close();
  db?.close();
  await sim?.close();
  sim = tracker = db = undefined;
});

/** A tracker over a simulator of 12,000 customers and 12,000 stock history rows, its questions counted by the simulator. */
async function setup(options: Partial<ProgressTrackerOptions> = {}): Promise<{ tracker: ProgressTracker; questions: (c: Collection) => number; progress: ObservableValue<SyncProgress> }> {
  sim = await createSimulator({ port: 0, size: { customers: 12_000, stock_history: 12_000 }, seed: 4, activity: false });
  const client = createClient({ baseUrl: sim.baseUrl, token: sim.token, userAgent: 'pos-cloud-mirror tests (progress tracker)', retry: 0 });
  db = new MirrorDb('progress-tracker', { indexedDB: new IDBFactory(), IDBKeyRange });
  const progress = new ObservableValue<SyncProgress>(initialProgress());
  tracker = createProgressTracker({ db, client, progress, ...options });
  const server = sim;
  return { tracker, questions: (c) => server.requests.count(`GET /${c}`), progress };
}

/** Reports the first `pages` pages of 400 of a forward traversal of `collection`, as the pull would. */
function traverse(tracker: ProgressTracker, collection: Collection, pages: number): void {
  const ids = sim!.store.list(collection).map((r) => String(r.id)).sort(compareIds);
  for (let page = 1; page <= pages; page++) {
    tracker.onProgress(collection, { records: page * 400, pages: page, done: false, position: ids[page * 400 - 1]!, direction: 'forward' });
  }
}

/** Resolves once no question has been answered for a second (the first ones wait for the database to open). */
async function settled(): Promise<void> {
  await db!.open();
  let last = -1;
  let quiet = 0;
  while (quiet < 4) {
    await new Promise((r) => setTimeout(r, 250));
    quiet = sim!.requests.count() === last ? quiet + 1 : 0;
    last = sim!.requests.count();
  }
}

describe('the progress tracker\'s questions', () => {
  it('asks at most `runQuestions` in a run, every collection together, and again once the next run starts', async () => {
    const { tracker, questions } = await setup({ runQuestions: 6 });
    traverse(tracker, 'customers', 2);
    traverse(tracker, 'stock_history', 2);
    await settled();
    expect(questions('customers') + questions('stock_history')).toBe(6);

    const before = questions('customers');
    tracker.runStarted();
    traverse(tracker, 'customers', 2);
    await settled();
    expect(questions('customers') - before).toBeGreaterThan(1);
    expect(questions('customers') - before).toBeLessThanOrEqual(6);
  });

  it('asks at most `maxProbes` probes for a traversal, besides the question for where it ends', async () => {
    const { tracker, questions } = await setup({ maxProbes: 3 });
    traverse(tracker, 'customers', 2);
    await settled();
    expect(questions('customers')).toBe(1 + 3);
  });

  it('asks no probe when the records where a traversal ends reach back to where it stands, and counts what is left exactly', async () => {
    const { tracker, questions, progress } = await setup();
    const ids = sim!.store.list('customers').map((r) => String(r.id)).sort(compareIds);
    // 12,000 records: a traversal (resumed near its end) at its second page has 50 left.
    tracker.onProgress('customers', { records: 11_900, pages: 1, done: false, position: ids[11_899]!, direction: 'forward' });
    tracker.onProgress('customers', { records: 11_950, pages: 2, done: false, position: ids[11_949]!, direction: 'forward' });
    await settled();
    expect(questions('customers')).toBe(1);
    expect(progress.value.collections.customers?.estimate).toEqual({ remaining: 50, total: 12_000, fraction: 11_950 / 12_000 });
  });

  it('asks nothing for a traversal done at its first page', async () => {
    const { tracker, questions } = await setup();
    tracker.onProgress('customers', { records: 120, pages: 1, done: true, position: undefined, direction: 'forward' });
    await settled();
    expect(questions('customers')).toBe(0);
  });

  it('allows fewer probes a traversal when several sync groups show the progress', () => {
    expect(probesPerTraversal(1)).toBe(MAX_PROBES);
    expect(probesPerTraversal(3)).toBe(MAX_PROBES_BESIDE_GROUPS);
    expect(MAX_PROBES_BESIDE_GROUPS).toBeLessThan(MAX_PROBES);
  });
});
