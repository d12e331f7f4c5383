import type { MirrorDb } from '../../db/mirror-db.js';
import type { CollectionName } from '../../schema/collections.js';
import { pullCategories, type Puller, reconcileCollection, type ReconcileReport } from '../pull/index.js';
import type { Pusher, PushReport } from '../push/index.js';
import type { SyncClient } from '../sync-client.js';
import { pullIsolated } from './isolated-pulls.js';
import { checkOrphanedCreates } from './orphan-check.js';
import { requeueCreates } from '../outbox/index.js';
import { emptySyncReport, type SyncReport } from './sync-report.js';
import { DAY_MS } from '../pull/edge.js';
import type { PullStep } from './sync-groups.js';
import { windowEdgeOf, type HistoryWindow } from './history-window.js';
import { pruneHistory } from './prune-history.js';

/** What a sync cycle works with. */
export interface SyncCycleOptions {
  db: MirrorDb;
  client: SyncClient;
  puller: Puller;
  pusher: Pusher;
  /** The collections the mirror keeps. */
  collections: readonly CollectionName[];
  /**
   * The pulls of a full run, in order (see `pullSteps`): a collection of a sync group with `days`
   * is pulled first bounded to those days, then whole in its later group. @default each of `collections` once, whole
   */
  steps?: readonly PullStep[];
  /** Pull the category tree on full runs. */
  categories: boolean;
  pageLimit: number;
  skewMarginMs: number;
  /** The history window: days kept per history collection (see `HistoryWindow`). @default unbounded */
  historyWindow?: HistoryWindow | undefined;
  /** How often a reconcile sweep is due (ms); 0 never. */
  reconcileIntervalMs: number;
  now: () => number;
  /** Told when a run starts: whether some collection still needs its first full traversal. */
  onStart(initial: boolean): void;
  /**
   * Awaited right before each push (of `run` and of `pushPending`): throws, an `AbortError` say,
   * when this instance may not push now (another tab leads), and the cycle ends without pushing.
   */
  beforePush?(signal: AbortSignal): Promise<void>;
}

/** One instance's sync work: the full cycle, and the push-only cycle that follows local edits. */
export interface SyncCycle {
  /**
   * Pull every collection (or `only`), the categories on full runs, push, read back what was
   * pushed, queue again the local creates no push would send (see `checkOrphanedCreates`),
   * reconcile when due.
   */
  run(signal: AbortSignal, only?: readonly CollectionName[]): Promise<SyncReport>;
  /** Push the pending edits only: pull their collections (to rebase), push, read back what landed. */
  pushPending(signal: AbortSignal): Promise<void>;
  /**
   * One reconcile sweep of one collection: repairs records the deltas missed, removes vanished
   * ones, and queues again the local creates it shows the server never had (`neverSent`).
   */
  reconcile(collection: CollectionName, signal: AbortSignal): Promise<ReconcileReport>;
  /** Forgets a collection's checkpoint: its next pull is a full traversal (`resync()`). */
  reset(collection: CollectionName): Promise<void>;
}

/**
 * Creates a {@link SyncCycle}. Callers serialize runs: two never overlap on one instance. A run
 * or push given a signal already aborted ends at once with the signal's reason, telling nothing
 * to `onStart`.
 */
export function createSyncCycle(options: SyncCycleOptions): SyncCycle {
  const { db, client, puller, pusher, now } = options;

  async function reconcile(collection: CollectionName, signal: AbortSignal): Promise<ReconcileReport> {
    const windowEdge = windowEdgeOf(options.historyWindow, collection, now());
    const report = await reconcileCollection(collection, { db, client, pageLimit: options.pageLimit, skewMarginMs: options.skewMarginMs, now, signal, windowEdge });
    // The sweep saw the server's whole list: a local create it lacks and no entry sends was never sent.
    await requeueCreates(db, report.neverSent.map((id) => ({ collection, id })), now());
    return report;
  }

  /** Pushes, then pulls each collection that had records acknowledged, so the mirror holds the server's versions (`_v` and all). */
  async function pushAndReadBack(collections: readonly CollectionName[], signal: AbortSignal, report?: SyncReport): Promise<PushReport> {
    await options.beforePush?.(signal);
    signal.throwIfAborted();
    const push = await pusher.push({ signal, collections: [...collections] });
    for (const collection of collections) {
      if ((push.byCollection[collection]?.pushed ?? 0) === 0) continue;
      const pulled = await puller.pull(collection, signal);
      report?.pulls.push(pulled);
    }
    return push;
  }

  async function reconcileDue(collections: readonly CollectionName[], signal: AbortSignal, report: SyncReport): Promise<void> {
    if (options.reconcileIntervalMs <= 0) return;
    const due: CollectionName[] = [];
    for (const collection of collections) {
      const row = await db._sync_checkpoints.get(collection);
      if (!row?.initialDone) continue;
      // A completed initial sync counts as a sweep: the first one is due an interval later.
      if (row.reconciledAt === undefined) await db._sync_checkpoints.update(collection, { reconciledAt: now() });
      else if (now() - row.reconciledAt >= options.reconcileIntervalMs) due.push(collection);
    }
    // A sweep fails alone too: the collection was just pulled, so its list exists; it is swept again next run.
    const isolation = { db, now, reconcileIntervalMs: options.reconcileIntervalMs, explicit: true, report };
    await pullIsolated(due, async (c) => void report.reconciled.push(await reconcile(c, signal)), isolation);
  }

  return {
    async run(signal, only) {
      const collections = only ?? options.collections;
      const startedAt = now();
      signal.throwIfAborted();
      const rows = await db._sync_checkpoints.bulkGet([...collections]);
      signal.throwIfAborted();
      options.onStart(rows.some((r) => !r?.initialDone));
      const report = emptySyncReport(true, startedAt, collections);
      const isolation = { db, now, reconcileIntervalMs: options.reconcileIntervalMs, explicit: only !== undefined, report };
      const steps: readonly PullStep[] = (only ? undefined : options.steps) ?? collections.map((collection) => ({ collection }));
      // A collection pulled to the end once in this run is not pulled again by a later step.
      const complete = new Set<CollectionName>();
      // Each pull asks the first page of the next collection while its last page is written.
      const isolated = await pullIsolated(steps.map((step) => step.collection), async (c, next, index) => {
        const { days } = steps[index]!;
        if (complete.has(c)) return;
        const pulledNow = await puller.pull(c, signal, { next, ...(days === undefined ? {} : { pauseAt: now() - days * DAY_MS }) });
        report.pulls.push(pulledNow);
        if (!pulledNow.paused) complete.add(c);
      }, isolation);
      const pulled = [...new Set(isolated.pulled)];
      const { firstFailure } = isolated;
      // Every collection asked failed on its own: the service itself is failing, and the run says so.
      if (pulled.length === 0 && firstFailure) throw firstFailure.error;
      if (!only && options.categories) {
        await pullIsolated(['categories'], async () => void (report.categories = await pullCategories(db, client, signal, now)), isolation);
      }
      // Records that fell out of the history window go, at most hourly (see `pruneHistory`), before
      // the push: one that fails (offline) does not hold them, and those with edits stay anyway.
      for (const collection of pulled) {
        const edge = windowEdgeOf(options.historyWindow, collection, now());
        if (edge !== undefined) await pruneHistory(db, collection, edge);
      }
      // Only collections pulled in this run are pushed: the check for conflicts needs the server's latest state.
      report.push = await pushAndReadBack(pulled, signal, report);
      report.orphanedCreates = await checkOrphanedCreates(db, pulled, now());
      await reconcileDue(pulled, signal, report);
      report.finishedAt = now();
      return report;
    },
    async pushPending(signal) {
      signal.throwIfAborted();
      const entries = await db._sync_outbox.where('state').equals('pending').toArray();
      const withEntries = new Set(entries.map((e) => e.collection));
      const pending = options.collections.filter((c) => withEntries.has(c));
      if (pending.length === 0) return;
      const report = emptySyncReport(true, now(), pending);
      // Collections the server lacks are not asked here: their edits wait for the run that finds them back.
      const isolation = { db, now, reconcileIntervalMs: Number.POSITIVE_INFINITY, explicit: false, report };
      const { pulled, firstFailure } = await pullIsolated(pending, async (c) => {
        await puller.pull(c, signal);
      }, isolation);
      if (pulled.length === 0 && firstFailure) throw firstFailure.error;
      if (pulled.length > 0) await pushAndReadBack(pulled, signal);
    },
    reconcile,
    reset: (collection) => puller.reset(collection),
  };
}
