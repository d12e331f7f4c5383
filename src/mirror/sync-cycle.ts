import type { MirrorDb } from '../db/mirror-db.js';
import type { CollectionName } from '../schema/collections.js';
import { pullCategories, type Puller, reconcileCollection, type ReconcileReport } from '../sync/pull/index.js';
import type { Pusher, PushReport } from '../sync/push/index.js';
import type { SyncClient } from '../sync/index.js';
import { emptyReport, type SyncReport } from './sync-report.js';

/** What a sync cycle works with. */
export interface SyncCycleOptions {
  db: MirrorDb;
  client: SyncClient;
  puller: Puller;
  pusher: Pusher;
  /** The collections the mirror keeps. */
  collections: readonly CollectionName[];
  /** Pull the category tree on full runs. */
  categories: boolean;
  pageLimit: number;
  skewMarginMs: number;
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
  /** Pull every collection (or `only`), the categories on full runs, push, read back what was pushed, reconcile when due. */
  run(signal: AbortSignal, only?: readonly CollectionName[]): Promise<SyncReport>;
  /** Push the pending edits only: pull their collections (to rebase), push, read back what landed. */
  pushPending(signal: AbortSignal): Promise<void>;
  /** One reconcile sweep of one collection: repairs records the deltas missed and removes vanished ones. */
  reconcile(collection: CollectionName, signal: AbortSignal): Promise<ReconcileReport>;
}

/**
 * Creates a {@link SyncCycle}. Callers serialize runs: two never overlap on one instance. A run
 * or push given a signal already aborted ends at once with the signal's reason, telling nothing
 * to `onStart`.
 */
export function createSyncCycle(options: SyncCycleOptions): SyncCycle {
  const { db, client, puller, pusher, now } = options;

  function reconcile(collection: CollectionName, signal: AbortSignal): Promise<ReconcileReport> {
    return reconcileCollection(collection, { db, client, pageLimit: options.pageLimit, skewMarginMs: options.skewMarginMs, now, signal });
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
    for (const collection of collections) {
      const row = await db._sync_checkpoints.get(collection);
      if (!row?.initialDone) continue;
      // A completed initial sync counts as a sweep: the first one is due an interval later.
      if (row.reconciledAt === undefined) await db._sync_checkpoints.update(collection, { reconciledAt: now() });
      else if (now() - row.reconciledAt >= options.reconcileIntervalMs) {
        report.reconciled.push(await reconcile(collection, signal));
      }
    }
  }

  return {
    async run(signal, only) {
      const collections = only ?? options.collections;
      const startedAt = now();
      signal.throwIfAborted();
      const rows = await db._sync_checkpoints.bulkGet([...collections]);
      signal.throwIfAborted();
      options.onStart(rows.some((r) => !r?.initialDone));
      const report = emptyReport(true, startedAt, collections);
      for (const collection of collections) report.pulls.push(await puller.pull(collection, signal));
      if (!only && options.categories) report.categories = await pullCategories(db, client, signal, now);
      report.push = await pushAndReadBack(collections, signal, report);
      await reconcileDue(collections, signal, report);
      report.finishedAt = now();
      return report;
    },
    async pushPending(signal) {
      signal.throwIfAborted();
      const entries = await db._sync_outbox.where('state').equals('pending').toArray();
      const withEntries = new Set(entries.map((e) => e.collection));
      const pending = options.collections.filter((c) => withEntries.has(c));
      if (pending.length === 0) return;
      for (const collection of pending) await puller.pull(collection, signal);
      await pushAndReadBack(pending, signal);
    },
    reconcile,
  };
}
