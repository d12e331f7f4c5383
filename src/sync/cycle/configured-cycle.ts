import type { MirrorDb } from '../../db/mirror-db.js';
import type { CollectionName } from '../../schema/collections.js';
import type { ConflictStrategy } from '../conflicts/index.js';
import { createPuller, type CollectionProgress } from '../pull/index.js';
import { createPusher, type BatchLimits } from '../push/index.js';
import type { SyncClient } from '../sync-client.js';
import { createSyncCycle, type SyncCycle } from './sync-cycle.js';
import type { PullStep } from './sync-groups.js';
import { windowEdgeOf, type HistoryWindow } from './history-window.js';

/** A mirror's settings of the cycle, every default already applied (the mirror's options resolved). */
export interface CycleSettings {
  db: MirrorDb;
  client: SyncClient;
  collections: readonly CollectionName[];
  /** The history window (see `HistoryWindow`). */
  historyWindow?: HistoryWindow | undefined;
  /** The pulls of a full run, in order (see `pullSteps`). */
  steps?: readonly PullStep[];
  now: () => number;
  pageLimit: number;
  /** The most pages of a pull written in one transaction. */
  pagesPerTransaction: number;
  skewMarginMs: number;
  reconcileIntervalMs: number;
  categories: boolean;
  conflict: ConflictStrategy;
  batch: Partial<BatchLimits> | undefined;
  /** Told as a pull moves through a collection. */
  onProgress: (collection: CollectionName, progress: CollectionProgress) => void;
}

/** What the owner of the runs hands the cycle: where a run's start is told, and the check that this instance may push. */
export interface CycleHooks {
  /** Told when a run starts: whether some collection still needs its first full traversal. */
  onRunStart(initial: boolean): void;
  /** Throws an `AbortError` when this instance may not push now; awaited before each push and each batch POST. */
  requireLead(signal: AbortSignal | undefined): Promise<void>;
}

/** Creates the {@link SyncCycle} of a mirror: its puller and pusher, configured, and the hooks of the runs' owner. */
export function createConfiguredCycle(settings: CycleSettings, hooks: CycleHooks): SyncCycle {
  const { db, client, now, pageLimit, skewMarginMs } = settings;
  const { historyWindow } = settings;
  const puller = createPuller({
    db,
    client,
    pageLimit,
    pagesPerTransaction: settings.pagesPerTransaction,
    skewMarginMs,
    now,
    onProgress: settings.onProgress,
    windowEdge: (collection) => windowEdgeOf(historyWindow, collection, now()),
  });
  const pusher = createPusher({
    db,
    client,
    conflict: settings.conflict,
    now,
    batch: settings.batch,
    // Fencing per batch: the lead is checked again before every POST of a push, not only before it.
    beforeBatch: (signal) => hooks.requireLead(signal),
  });
  return createSyncCycle({
    db,
    client,
    puller,
    pusher,
    collections: settings.collections,
    ...(settings.steps ? { steps: settings.steps } : {}),
    historyWindow,
    categories: settings.categories,
    pageLimit,
    skewMarginMs,
    reconcileIntervalMs: settings.reconcileIntervalMs,
    now,
    onStart: (initial) => hooks.onRunStart(initial),
    beforePush: (signal) => hooks.requireLead(signal),
  });
}
