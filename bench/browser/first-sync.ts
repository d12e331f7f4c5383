/**
 * The first sync of a simulated tenant in one engine: rounds of the mirror's sync and of the
 * baseline (bare fetch + `JSON.parse` + `bulkPut` of the same pages, `in-page/baseline-sync.ts`),
 * once into tables keyed by `id` alone and once into the mirror's own tables and indexes,
 * interleaved, the order turning each round (baseline, indexed, mirror; indexed, mirror,
 * baseline; ...), each on a fresh database, with the page's heartbeat running in all. A round that outlasts the limit is
 * stopped and reported with what it did, and no further round of that tenant runs in that engine.
 *
 * Where each candidate runs is the caller's: all in one tab ({@link sharedTab}), or each candidate
 * of each round in a browser of its own, on a fresh profile (`FRESH=1`, {@link CandidateTabs}), so
 * that what one candidate leaves in the engine (a deleted database's pages, compaction after it)
 * cannot slow the next.
 *
 * Not a benchmark itself: `bench/run.ts` runs only files named `*.bench.ts`.
 */
import type { EngineTab } from '../../scripts/engines/index.js';
import { COLLECTIONS } from '../../src/schema/collections.js';
import type { Simulator } from '../../src/simulator/index.js';
import { runJob, type BenchServer } from './bench-page.js';
import type { BaselineSyncResult } from './in-page/baseline-sync.js';
import type { MirrorSyncResult } from './in-page/mirror-sync.js';

/** One round: the baseline's runs and the mirror's, on the same pages. */
export interface SyncRound {
  baseline: BaselineSyncResult;
  /** The baseline written into the mirror's own tables and indexes (`indexes: 'mirror'`). */
  indexed: BaselineSyncResult;
  mirror: MirrorSyncResult;
}

/** What a tenant's rounds gave. */
export interface FirstSyncRun {
  tenant: string;
  /** Records on the server. */
  records: number;
  rounds: SyncRound[];
  /** The database the last mirror round kept (closed, for the live query), when it finished. */
  keptDb?: string;
}

/** A tab of the bench page, as the rounds use it. */
export type SyncTab = Pick<EngineTab, 'engine' | 'evaluate'>;

/** Runs one candidate's job in a tab: the same tab each time, or a fresh browser's. */
export type CandidateTabs = <T>(job: (tab: SyncTab) => Promise<T>) => Promise<T>;

/** Every candidate in `tab`. */
export function sharedTab(tab: SyncTab): CandidateTabs {
  return (job) => job(tab);
}

/** How the rounds run. */
export interface FirstSyncOptions {
  /**
   * Keep the last mirror round's database for the caller (the live query). Only where that
   * round's tab outlives it: not with a fresh browser per candidate.
   */
  keepLast: boolean;
  rounds: number;
  /** A round's time limit (ms), baseline and mirror each. */
  limitMs: number;
  /** Called after each round (to print it). */
  onRound(round: SyncRound, index: number): void;
}

/** Runs the rounds of one tenant, each candidate in a tab of `tabs` (a page of `server`, which proxies `sim`). */
export async function firstSync(tabs: CandidateTabs, server: BenchServer, sim: Simulator, tenant: string, options: FirstSyncOptions): Promise<FirstSyncRun> {
  const records = COLLECTIONS.reduce((n, c) => n + sim.store.count(c), 0);
  const run: FirstSyncRun = { tenant, records, rounds: [] };
  const common = { base: server.apiBaseUrl, token: sim.token, limitMs: options.limitMs };
  for (let r = 0; r < options.rounds; r++) {
    const keep = options.keepLast && r === options.rounds - 1;
    const baseline = async (indexes: 'none' | 'mirror') => {
      sim.setOptions({ idsAsStrings: true });
      const dbName = `baseline-${indexes === 'mirror' ? 'indexed-' : ''}${tenant}-${r}`;
      return tabs((tab) => runJob<BaselineSyncResult>(tab, 'baselineSync', { ...common, collections: [...COLLECTIONS], dbName, indexes }));
    };
    const mirror = async () => {
      sim.setOptions({ idsAsStrings: false });
      return tabs((tab) => runJob<MirrorSyncResult>(tab, 'mirrorSync', { ...common, dbName: `mirror-${tenant}-${r}`, keep }));
    };
    const order = (['baseline', 'indexed', 'mirror'] as const).map((_, i, all) => all[(i + r) % all.length]!);
    const done: Partial<SyncRound> = {};
    for (const name of order) {
      if (name === 'mirror') done.mirror = await mirror();
      else done[name] = await baseline(name === 'indexed' ? 'mirror' : 'none');
    }
    const round = done as SyncRound;
    run.rounds.push(round);
    options.onRound(round, r);
    // A kept database is left to the caller (the live query deletes it).
    if (keep && !round.mirror.bounded) run.keptDb = `mirror-${tenant}-${r}`;
    if (round.mirror.bounded || round.baseline.bounded || round.indexed.bounded) break;
  }
  sim.setOptions({ idsAsStrings: false });
  return run;
}
